import type { Role } from '../schemas/common.ts';

/** Who is calling, as resolved from the request's credentials. */
export interface AuthContext {
  principal: string;
  role: Role;
  /** Set when the token is scoped to one room (and usually one seat in it). */
  room: string | null;
  seat: string | null;
  via: 'session' | 'api_key' | 'oidc';
  /** The seat was proven by a room-CA certificate rather than held by this principal in the store. */
  certified: boolean;
  /** When the credential stops being valid (ms), for tokens that expire: a socket opened with it stops acting then. */
  expiresAt?: number;
  /** For a session token: when its original login happened (ms). */
  authTime?: number;
  /** For a session token: its login's id (refreshes share it); logout revokes it. */
  sessionId?: string;
  /** For an OIDC token: the person's display name from its claims (null when it gives none). */
  personName?: string | null;
}

/** Claims of the server's own session JWT. */
export interface SessionClaims {
  sub: string;
  role: Role;
  room?: string;
  seat?: string;
  /** Set for sessions from a room-CA certificate: the CA vouches for the seat. */
  cert?: boolean;
  /** When the login this session descends from happened (unix seconds); refreshes carry it. */
  authTime?: number;
  /** The login's session id; refreshes carry it (a new one is made when absent). */
  sid?: string;
}

export interface NewAgent {
  id: string;
  name: string;
  metadata: Record<string, unknown>;
  apiKey: { id: string; hash: string; prefix: string };
  /** An Ed25519 key for SSH login: fingerprint and its `ssh-ed25519 …` line. */
  sshKey?: { fingerprint: string; line: string };
  now: number;
}

/**
 * What access control needs from persistence. `storeAuth(store)` implements it over the server's
 * Store; tests may use MemoryAuthStore.
 */
export interface AuthStore {
  /** Principal, API key and optional SSH key in one transaction. Throws ApiError 409 on a taken key. */
  registerAgent(a: NewAgent): Promise<void>;
  principalByApiKey(hash: string, now: number): Promise<string | null>;
  principalByKey(fingerprint: string): Promise<string | null>;
  putNonce(n: { nonce: string; audience: string; createdAt: number; expiresAt: number }): Promise<void>;
  /** Use a challenge once: true only for the first caller while it is unexpired. */
  consumeNonce(nonce: string, audience: string, now: number): Promise<boolean>;
  /** Ends a session (logout) until `expiresAt`, when none of its tokens could verify anyway. */
  revokeSession(r: { sid: string; principalId: string; revokedAt: number; expiresAt: number }): Promise<void>;
  /**
   * Revocations still in force at `now` (unexpired), all of them or only those revoked at or after
   * `since`: a node keeps the list and reads what is new, once for all its sessions.
   */
  revokedSessions(since: number | null, now: number): Promise<Array<{ sid: string; expiresAt: number }>>;
}
