import { randomBytes } from 'node:crypto';
import { sha256Hex, utf8Encode } from '@db8/core';

const h = (s: string) => sha256Hex(utf8Encode(s));

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
