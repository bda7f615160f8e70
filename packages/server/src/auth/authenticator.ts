import type { Viewer } from '@db8/core';
import { ApiError } from '../errors.ts';
import { hashApiKey, looksLikeApiKey } from './api-keys.ts';
import type { OidcVerifier } from './oidc.ts';
import type { TokenService } from './tokens.ts';
import type { AuthContext, AuthStore } from './types.ts';

/**
 * How stale this node's list of logged-out sessions may be: it reads what is new from the store at
 * most this often (once for all its sessions), so a logout through another node of a cluster takes
 * effect here within this time; through this node, at once.
 */
export const SESSION_LIVE_CACHE_MS = 1000;
/**
 * Each read of the list looks back this far before the last one: a revocation is stamped with its
 * node's clock and commits a moment later, so clocks a little apart or a slow commit lose none.
 */
const REVOCATION_OVERLAP_MS = 5 * 60_000;

const invalid = () => new ApiError(401, 'INVALID_TOKEN', 'invalid token');

/**
 * Turns a bearer credential into an AuthContext. Three kinds are accepted, told apart cheaply before
 * any crypto: an API key (`db8k_…`, agents; seed 002 §5.2), the server's own session JWT, or a
 * person's OIDC/Supabase JWT from the configured issuer.
 */
export class Authenticator {
  constructor(
    private readonly tokens: TokenService,
    private readonly store: AuthStore,
    private readonly pepper: Uint8Array,
    private readonly oidc: OidcVerifier | null,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Sessions logged out (sid → when its tokens stop verifying anyway), as of `syncedAt`. */
  private readonly revoked = new Map<string, number>();
  /** When the list was last read from the store (the read's start). */
  private syncedAt = Number.NEGATIVE_INFINITY;
  private syncing: Promise<void> | null = null;

  /**
   * Is this session still live (not logged out)? Sockets ask before each action, REST with each
   * request. The answer comes from this node's list of logged-out sessions, brought up to date from
   * the store at most every SESSION_LIVE_CACHE_MS in one read for every session, so agents acting
   * hundreds of times a second cost no read each: a logout through this node takes effect at once
   * (markRevoked), one through another node of a cluster within that time.
   */
  async sessionLive(auth: AuthContext): Promise<boolean> {
    return auth.sessionId === undefined || this.sidLive(auth.sessionId);
  }

  private async sidLive(sid: string): Promise<boolean> {
    if (this.isRevoked(sid)) return false;
    if (this.clock() - this.syncedAt >= SESSION_LIVE_CACHE_MS) await this.sync();
    return !this.isRevoked(sid);
  }

  private isRevoked(sid: string): boolean {
    const until = this.revoked.get(sid);
    return until !== undefined && until > this.clock();
  }

  /** Reads the revocations made since the last read (all in force, the first time); one at a time. */
  private sync(): Promise<void> {
    this.syncing ??= (async () => {
      const start = this.clock();
      try {
        const first = this.syncedAt === Number.NEGATIVE_INFINITY;
        const since = first ? null : this.syncedAt - REVOCATION_OVERLAP_MS;
        for (const r of await this.store.revokedSessions(since, start)) this.revoked.set(r.sid, r.expiresAt);
        for (const [sid, expiresAt] of this.revoked) if (expiresAt <= start) this.revoked.delete(sid);
        this.syncedAt = start;
      } finally {
        this.syncing = null;
      }
    })();
    return this.syncing;
  }

  /** A session logged out through this node (its tokens die at `expiresAt`): refused here at once. */
  markRevoked(sid: string, expiresAt: number): void {
    this.revoked.set(sid, expiresAt);
  }

  async fromBearer(token: string): Promise<AuthContext> {
    if (looksLikeApiKey(token)) {
      const principal = await this.store.principalByApiKey(hashApiKey(this.pepper, token), this.clock());
      if (!principal) throw invalid();
      return { principal, role: 'agent', room: null, seat: null, via: 'api_key', certified: false };
    }
    if (this.tokens.isOwnToken(token)) {
      const c = await this.tokens.verifySession(token);
      // A logged-out session is dead on every node: the store holds its revocation (this node's list
      // is read at most once a second, as for sockets; at once on the node that logged it out).
      if (c.sid !== undefined && !(await this.sidLive(c.sid)))
        throw new ApiError(401, 'SESSION_REVOKED', 'this session was logged out: log in again');
      return {
        principal: c.sub,
        role: c.role,
        room: c.room ?? null,
        seat: c.seat ?? null,
        via: 'session',
        certified: c.cert === true,
        expiresAt: c.exp * 1000,
        ...(c.authTime !== undefined ? { authTime: c.authTime * 1000 } : {}),
        ...(c.sid !== undefined ? { sessionId: c.sid } : {}),
      };
    }
    if (this.oidc?.claimsIssuer(token)) {
      const id = await this.oidc.verify(token);
      return {
        principal: `oidc:${id.sub}`,
        role: id.admin ? 'admin' : 'person',
        room: null,
        seat: null,
        via: 'oidc',
        certified: false,
        personName: id.name,
      };
    }
    throw invalid();
  }

  /** `Authorization: Bearer …`; null when absent. A present but malformed header is an error. */
  async fromHeader(header: string | undefined): Promise<AuthContext | null> {
    if (header === undefined || header === '') return null;
    const m = /^Bearer\s+(\S{1,16384})\s*$/i.exec(header);
    if (!m) throw new ApiError(401, 'UNAUTHORIZED', 'expected Authorization: Bearer <token>');
    return this.fromBearer(m[1]!);
  }
}

/**
 * What this caller may see in `roomId`: admins see everything, a token scoped to this room and a
 * seat sees that seat's view, anyone else is an observer.
 */
export function viewerFor(auth: AuthContext | null, roomId: string): Viewer {
  if (!auth) return { kind: 'observer' };
  if (auth.role === 'admin') return { kind: 'admin' };
  if (auth.room === roomId && auth.seat) return { kind: 'seat', seat: auth.seat };
  return { kind: 'observer' };
}
