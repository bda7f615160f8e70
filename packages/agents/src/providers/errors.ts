import type { CallErrorCode } from './types.ts';

/** A failed HTTP attempt as a transport reports it; the pipeline decides whether to retry. */
export class TransportError extends Error {
  constructor(
    readonly code: CallErrorCode,
    message: string,
    readonly status: number | null = null,
    /** Server-requested wait (retry-after / retry-after-ms), in ms. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }

  get retryable(): boolean {
    return (
      this.code === 'rate_limited' ||
      this.code === 'server_error' ||
      this.code === 'timeout' ||
      this.code === 'network' ||
      this.code === 'malformed_response'
    );
  }
}

/** Parse `retry-after-ms` (ms) or `retry-after` (seconds or an HTTP date) into ms; null if absent or bad. */
export function retryAfterMs(
  headers: { get(name: string): string | null } | undefined,
  now: number,
): number | null {
  if (!headers) return null;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms)) && Number(ms) >= 0)
    return Math.ceil(Number(ms));
  const ra = headers.get('retry-after');
  if (ra === null || ra.trim() === '') return null;
  const secs = Number(ra);
  if (Number.isFinite(secs) && secs >= 0) return Math.ceil(secs * 1000);
  const date = Date.parse(ra);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Map an HTTP status to the error code the pipeline uses. */
export function codeForStatus(status: number): CallErrorCode {
  if (status === 429) return 'rate_limited';
  if (status === 401 || status === 403) return 'auth';
  if (status === 408) return 'timeout';
  if (status >= 500) return 'server_error';
  return 'http_error';
}
