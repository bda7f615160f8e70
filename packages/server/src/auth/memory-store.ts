import { conflict } from '../errors.ts';
import type { AuthStore, NewAgent } from './types.ts';

/** In-memory AuthStore for unit tests. */
export class MemoryAuthStore implements AuthStore {
  readonly agents = new Map<string, NewAgent>();
  readonly keys = new Map<string, string>();
  readonly apiKeys = new Map<string, string>();
  readonly nonces = new Map<string, { audience: string; expiresAt: number; used: boolean }>();

  async registerAgent(a: NewAgent): Promise<void> {
    if (a.sshKey && this.keys.has(a.sshKey.fingerprint)) throw conflict('this SSH key is already registered');
    this.agents.set(a.id, a);
    this.apiKeys.set(a.apiKey.hash, a.id);
    if (a.sshKey) this.keys.set(a.sshKey.fingerprint, a.id);
  }
  async principalByApiKey(hash: string): Promise<string | null> {
    return this.apiKeys.get(hash) ?? null;
  }
  async principalByKey(fingerprint: string): Promise<string | null> {
    return this.keys.get(fingerprint) ?? null;
  }
  async putNonce(n: { nonce: string; audience: string; expiresAt: number }): Promise<void> {
    this.nonces.set(n.nonce, { audience: n.audience, expiresAt: n.expiresAt, used: false });
  }
  readonly revoked = new Set<string>();
  async revokeSession(r: { sid: string }): Promise<void> {
    this.revoked.add(r.sid);
  }
  async isSessionRevoked(sid: string): Promise<boolean> {
    return this.revoked.has(sid);
  }
  async consumeNonce(nonce: string, audience: string, now: number): Promise<boolean> {
    const n = this.nonces.get(nonce);
    if (!n || n.used || n.audience !== audience || now >= n.expiresAt) return false;
    n.used = true;
    return true;
  }
}
