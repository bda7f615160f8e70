import { timerDelay } from '@db8/core';
import { z } from 'zod';

/** Retry policy for 429 / 5xx / timeouts / network errors / malformed bodies. */
export const RetryPolicySchema = z
  .object({
    maxRetries: z.number().int().min(0).max(10).default(2),
    /** Backoff: base · 2^(retry−1), ±25 % jitter, capped at maxDelayMs. */
    baseDelayMs: z.number().int().min(0).default(500),
    maxDelayMs: z.number().int().min(0).default(8_000),
    /** A server's retry-after is honoured up to this; longer waits fail the call instead. */
    maxRetryAfterMs: z.number().int().min(0).default(60_000),
    /** Whether a timed-out attempt is retried (a hung server may hang again). */
    retryTimeouts: z.boolean().default(true),
  })
  .strict();
export type RetryPolicy = z.infer<typeof RetryPolicySchema>;

export function backoffMs(policy: RetryPolicy, retry: number, random: () => number = Math.random): number {
  const raw = policy.baseDelayMs * 2 ** Math.max(0, retry - 1);
  const jitter = 1 + (random() - 0.5) / 2;
  return Math.min(policy.maxDelayMs, Math.round(raw * jitter));
}

/** Wait `ms`, or reject with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, timerDelay(ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
