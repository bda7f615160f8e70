import { timerDelay } from '@db8/core';
import { TransportError } from './errors.ts';

/**
 * Run one HTTP attempt under its own deadline. The SDKs' `timeout` stops waiting for headers but
 * not for a body that stalls half-way, so the attempt gets an AbortSignal that fires at the
 * deadline (or when the caller cancels) and a deadline abort is reported as `timeout`.
 */
export async function withDeadline<T>(
  outer: AbortSignal,
  timeoutMs: number,
  fn: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const ctl = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    ctl.abort(new TransportError('timeout', `no complete reply within ${timeoutMs} ms`));
  }, timerDelay(timeoutMs));
  const onAbort = () => ctl.abort(outer.reason);
  if (outer.aborted) onAbort();
  else outer.addEventListener('abort', onAbort, { once: true });
  try {
    return await fn(ctl.signal);
  } catch (e) {
    if (timedOut && !outer.aborted)
      throw new TransportError('timeout', `no complete reply within ${timeoutMs} ms`);
    throw e;
  } finally {
    clearTimeout(timer);
    outer.removeEventListener('abort', onAbort);
  }
}
