import type { Bus } from '../bus/types.ts';

/** The longest an MCP `wait` holds a request: under common client and proxy timeouts. */
export const MAX_WAIT_MS = 30_000;
/**
 * The bus may drop or delay a message (the store is the truth), so a waiter also re-checks on
 * this period; a bus message wakes it at once.
 */
const BACKSTOP_MS = 1_000;

/**
 * Bounded long poll: runs `check` now and again after every bus entry of `roomId` (and on the
 * backstop), until it returns a value, `timeoutMs` passes or `signal` aborts. Returns null on
 * timeout or abort. Checks never overlap; entries arriving during one cause one more.
 */
export async function waitOnRoom<T>(
  bus: Bus,
  roomId: string,
  check: () => Promise<T | null>,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<T | null> {
  const end = Date.now() + Math.min(Math.max(0, timeoutMs), MAX_WAIT_MS);
  let wake: (() => void) | null = null;
  let dirty = false;
  const poke = () => {
    dirty = true;
    wake?.();
  };
  const unsubscribe = bus.subscribe(roomId, poke);
  signal?.addEventListener('abort', poke);
  try {
    for (;;) {
      dirty = false;
      const hit = await check();
      if (hit !== null) return hit;
      const left = end - Date.now();
      if (left <= 0 || signal?.aborted) return null;
      if (dirty) continue;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, BACKSTOP_MS));
        wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
      wake = null;
    }
  } finally {
    unsubscribe();
    signal?.removeEventListener('abort', poke);
  }
}
