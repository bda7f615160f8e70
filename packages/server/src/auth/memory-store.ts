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
  readonly revoked = new Map<string, { revokedAt: number; expiresAt: number }>();
  async revokeSession(r: Parameters<AuthStore['revokeSession']>[0]): Promise<void> {
    if (!this.revoked.has(r.sid)) this.revoked.set(r.sid, { revokedAt: r.revokedAt, expiresAt: r.expiresAt });
  }
  async revokedSessions(
    since: number | null,
    now: number,
  ): Promise<Array<{ sid: string; expiresAt: number }>> {
    return [...this.revoked]
      .filter(([, r]) => r.expiresAt > now && (since === null || r.revokedAt >= since))
      .map(([sid, r]) => ({ sid, expiresAt: r.expiresAt }));
  }
  async consumeNonce(nonce: string, audience: string, now: number): Promise<boolean> {
    const n = this.nonces.get(nonce);
    if (!n || n.used || n.audience !== audience || now >= n.expiresAt) return false;
    n.used = true;
    return true;
  }
}
