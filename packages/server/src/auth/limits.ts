import { ApiError } from '../errors.ts';
import { looksLikeApiKey } from './api-keys.ts';
import type { AuthContext } from './types.ts';

/**
 * Token buckets by key (`p:<principal>` or `ip:<address>`), shared by every edge of one process:
 * REST requests and every WebSocket connection of a principal draw on the same bucket, so opening
 * more connections buys no more actions. `max` per `windowMs`, refilled continuously, burst `max`.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly perMs: number;

  constructor(
    readonly max: number,
    windowMs: number,
    private readonly clock: () => number,
    /** Bound on remembered keys: a flood of distinct keys cannot grow memory without limit. */
    private readonly maxKeys = 50_000,
  ) {
    this.perMs = max / windowMs;
  }

  private level(key: string): { tokens: number; at: number } {
    const now = this.clock();
    let b = this.buckets.get(key);
    if (!b) {
      if (this.buckets.size >= this.maxKeys) this.evict(now);
      b = { tokens: this.max, at: now };
      this.buckets.set(key, b);
    } else {
      b.tokens = Math.min(this.max, b.tokens + Math.max(0, now - b.at) * this.perMs);
      b.at = now;
    }
    return b;
  }

  /** Full buckets carry no information; drop them, then the oldest if still over the bound. */
  private evict(now: number): void {
    for (const [k, b] of this.buckets) {
      if (b.tokens + (now - b.at) * this.perMs >= this.max) this.buckets.delete(k);
    }
    for (const k of this.buckets.keys()) {
      if (this.buckets.size < this.maxKeys) break;
      this.buckets.delete(k);
    }
  }

  /** Takes one token: null when allowed, else the ms until one is due. */
  take(key: string): number | null {
    const b = this.level(key);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return null;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / this.perMs));
  }

  /** Like take, without spending: null when a token is there. */
  peek(key: string): number | null {
    const b = this.level(key);
    return b.tokens >= 1 ? null : Math.max(1, Math.ceil((1 - b.tokens) / this.perMs));
  }
}

/** The 429 every edge answers: `details.retry_after_ms` says when to try again. */
export function rateLimited(retryAfterMs: number, what = 'too many requests'): ApiError {
  return new ApiError(429, 'RATE_LIMITED', `${what}, retry in ${retryAfterMs} ms`, {
    retry_after_ms: retryAfterMs,
  });
}

/** The key a caller is limited under: its principal when it has one, else its address. */
export function limitKey(auth: AuthContext | null, ip: string): string {
  return auth ? `p:${auth.principal}` : `ip:${ip}`;
}

/**
 * The header an in-process call (Fastify inject from an MCP tool, a module's RestCaller) carries,
 * with the value `Limits.inProcess`: it is part of a request that already paid at the door, so it
 * is not metered twice. The value is random per process; a client that sends the header with any
 * other value is metered like everyone.
 */
export const IN_PROCESS_HEADER = 'x-db8-in-process';

export interface Limits {
  /** Every request (REST, SSE, MCP) and WebSocket message, per principal (or address when anonymous). */
  requests: RateLimiter;
  /** The secret value of IN_PROCESS_HEADER for this process. */
  inProcess: string;
  /** Failed API keys per address: once spent, keys from it are refused unread. */
  authFailures: RateLimiter;
}

/**
 * Resolve a bearer credential (`token`, or an `Authorization` value) for a caller at `ip`. An API
 * key costs a store lookup, so once the address has spent its failed-key budget its keys are
 * refused unread (429); session tokens are checked by signature alone and pass, so a client that
 * shares an address with a key-guesser keeps its session.
 */
export async function checkedCredential<T>(
  limits: Limits,
  ip: string,
  token: string,
  lookup: () => Promise<T>,
): Promise<T> {
  if (!looksLikeApiKey(token.replace(/^Bearer\s+/i, '').trim())) return lookup();
  const key = `ip:${ip}`;
  const wait = limits.authFailures.peek(key);
  if (wait !== null) throw rateLimited(wait, 'too many failed API keys');
  try {
    return await lookup();
  } catch (e) {
    if ((e as { status?: unknown }).status === 401) limits.authFailures.take(key);
    throw e;
  }
}
