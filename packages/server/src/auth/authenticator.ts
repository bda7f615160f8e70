import type { Viewer } from '@db8/core';
import { ApiError } from '../errors.ts';
import { hashApiKey, looksLikeApiKey } from './api-keys.ts';
import type { OidcVerifier } from './oidc.ts';
import type { TokenService } from './tokens.ts';
import type { AuthContext, AuthStore } from './types.ts';

/** How long a session, once found live, is taken as live without reading the store. */
export const SESSION_LIVE_CACHE_MS = 1000;
const MAX_LIVE_CACHED = 100_000;

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

  /** Sessions found live, and when: each is re-read from the store at most this often. */
  private readonly liveAt = new Map<string, number>();
  /** Sessions logged out through this node: refused at once, without a read. */
  private readonly revokedHere = new Set<string>();

  /**
   * Is this session still live (not logged out)? Sockets ask before each action, REST with each
   * request. A live answer is kept for SESSION_LIVE_CACHE_MS, so an agent acting hundreds of times
   * a second does not read the store each time: a logout through this node takes effect at once
   * (markRevoked), one through another node of a cluster within that time.
   */
  async sessionLive(auth: AuthContext): Promise<boolean> {
    return auth.sessionId === undefined || this.sidLive(auth.sessionId);
  }

  private async sidLive(sid: string): Promise<boolean> {
    if (this.revokedHere.has(sid)) return false;
    const now = this.clock();
    const at = this.liveAt.get(sid);
    if (at !== undefined && now - at < SESSION_LIVE_CACHE_MS) return true;
    if (await this.store.isSessionRevoked(sid)) {
      this.liveAt.delete(sid);
      return false;
    }
    if (this.liveAt.size >= MAX_LIVE_CACHED) this.liveAt.clear();
    this.liveAt.set(sid, now);
    return true;
  }

  /** A session logged out through this node: its sockets here stop acting at once. */
  markRevoked(sid: string): void {
    this.liveAt.delete(sid);
    if (this.revokedHere.size >= MAX_LIVE_CACHED) this.revokedHere.clear(); // the store still says so
    this.revokedHere.add(sid);
  }

  async fromBearer(token: string): Promise<AuthContext> {
    if (looksLikeApiKey(token)) {
      const principal = await this.store.principalByApiKey(hashApiKey(this.pepper, token), this.clock());
      if (!principal) throw invalid();
      return { principal, role: 'agent', room: null, seat: null, via: 'api_key', certified: false };
    }
    if (this.tokens.isOwnToken(token)) {
      const c = await this.tokens.verifySession(token);
      // A logged-out session is dead on every node: the store holds its revocation (read at most
      // once a second per session, as for sockets; at once on the node that logged it out).
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
