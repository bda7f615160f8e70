/** An error answered by the server (`{error:{code,message,details}}`), or a transport failure. */
export class Db8Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'Db8Error';
  }
}

export function errorFromBody(status: number, body: unknown, fallback: string): Db8Error {
  const e = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | null)?.error;
  if (e && typeof e.code === 'string') {
    const message = typeof e.message === 'string' ? e.message : e.code;
    if (e.code === 'OUTDATED_CLIENT')
      return new OutdatedClientError(status, message, e.details as OutdatedClientDetails);
    return new Db8Error(status, e.code, typeof e.message === 'string' ? e.message : e.code, e.details);
  }
  return new Db8Error(status, `HTTP_${status}`, fallback);
}

/** What the server says with `OUTDATED_CLIENT` (HTTP 426 or a socket error): where to upgrade. */
export interface OutdatedClientDetails {
  protocol_version?: string;
  min_supported_protocol_version?: string;
  skill_doc_url?: string;
}

/** The server refuses this client's protocol version; reconnecting will not help, upgrading will. */
export class OutdatedClientError extends Db8Error {
  declare readonly details: OutdatedClientDetails | undefined;
  constructor(status: number, message: string, details?: OutdatedClientDetails) {
    super(status, 'OUTDATED_CLIENT', message, details);
    this.name = 'OutdatedClientError';
  }
}

/** A socket `error` frame's payload as a typed error. */
export function socketError(p: { code: string; message: string; details?: unknown }): Db8Error {
  if (p.code === 'OUTDATED_CLIENT')
    return new OutdatedClientError(426, p.message, p.details as OutdatedClientDetails);
  return new Db8Error(0, p.code, p.message, p.details);
}

/** Attempts of a request that is safe to resend (an action with its client nonce). */
export const MAX_IDEMPOTENT_ATTEMPTS = 4;

/**
 * How long to wait before resending an idempotent request refused with `e`, or null when a resend
 * cannot help. `RATE_LIMITED` waits what the server asked (`details.retry_after_ms`, at most 5 s);
 * `CONFLICT_RETRY_EXHAUSTED` (cluster nodes racing for one room's next seq) waits a short random
 * while; the same nonce makes the resend return the first outcome if the first try did land.
 */
export function retryDelayMs(e: unknown): number | null {
  if (!(e instanceof Db8Error)) return null;
  if (e.code === 'RATE_LIMITED') {
    const ms = (e.details as { retry_after_ms?: unknown } | undefined)?.retry_after_ms;
    return typeof ms === 'number' && ms > 0 ? Math.min(ms, 5_000) : 1_000;
  }
  if (e.code === 'CONFLICT_RETRY_EXHAUSTED') return 20 + Math.floor(Math.random() * 180);
  return null;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
