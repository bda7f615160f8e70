import { createHash, randomBytes } from 'node:crypto';

const h = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

/**
 * One-time admin login tokens for embedded mode: printed as `<origin>/login#token=…` (a fragment, so
 * it never reaches access logs), exchanged once for an admin session. Kept in memory, by hash: a
 * restart prints a fresh link and old ones die with the process.
 */
export class AdminLinks {
  private readonly live = new Map<string, number>();

  constructor(private readonly clock: () => number = Date.now) {}

  create(ttlMs: number): string {
    const token = randomBytes(32).toString('base64url');
    this.live.set(h(token), this.clock() + ttlMs);
    return token;
  }

  url(origin: string, token: string): string {
    return `${origin}/login#token=${token}`;
  }

  /** True once per token while unexpired. */
  consume(token: string): boolean {
    const k = h(token);
    const exp = this.live.get(k);
    if (exp === undefined) return false;
    this.live.delete(k);
    return this.clock() < exp;
  }
}
