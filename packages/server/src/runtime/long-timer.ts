import { deadlineStep, timerDelay } from '@db8/core';

/**
 * Timers for deadlines that may be far away. setTimeout holds at most 2^31 − 1 ms (24.86 days);
 * a longer delay fires after 1 ms, so a timer meant for a 30-day deadline fired at once and, where
 * it re-armed itself, spun. `armAt` wakes at most every 24.8 days and looks at the clock again.
 */

/** Real timers by default; tests inject their own to see what gets armed. */
export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

/** setTimeout with every delay clamped (`timerDelay`), unref'd: a pending deadline keeps no process up. */
export const realTimers: Timers = {
  set(fn, ms) {
    const t = setTimeout(fn, timerDelay(ms));
    t.unref();
    return t;
  },
  clear(h) {
    clearTimeout(h as NodeJS.Timeout);
  },
};

/**
 * Calls `fn` once the clock reaches `at` (at once when it has), arming in steps of at most
 * MAX_TIMER_MS. A deadline that is no number (NaN) never fires. Returns the cancel function.
 */
export function armAt(
  at: number,
  fn: () => void,
  now: () => number,
  timers: Timers = realTimers,
): () => void {
  let handle: unknown = null;
  let cancelled = false;
  const step = () => {
    const { delay, final } = deadlineStep(at, now());
    handle = timers.set(() => {
      handle = null;
      if (cancelled) return;
      if (final) fn();
      else step();
    }, delay);
  };
  step();
  return () => {
    cancelled = true;
    if (handle !== null) timers.clear(handle);
    handle = null;
  };
}
