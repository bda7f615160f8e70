/**
 * setTimeout and setInterval keep their delay in a signed 32-bit integer: a delay above 2^31 − 1 ms
 * (24.86 days) — or NaN — is replaced by 1 ms, so a timer meant for a 30-day deadline fires at
 * once, and a timer that re-arms itself spins. Every computed delay goes through `timerDelay`;
 * a deadline further away than MAX_TIMER_MS is armed in steps (wake at the cap, look again).
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A delay setTimeout keeps as given: within [0, MAX_TIMER_MS], whole milliseconds. Infinity and
 * NaN (a deadline that is no time at all) become the cap, never an instant wake-up.
 */
export function timerDelay(ms: number): number {
  if (Number.isNaN(ms)) return MAX_TIMER_MS;
  return Math.min(MAX_TIMER_MS, Math.max(0, Math.ceil(ms)));
}

/**
 * The next step towards a deadline: the delay to arm now and whether the deadline is reached when
 * it fires (`final`), or whether the timer must look again (a step of a longer wait).
 */
export function deadlineStep(deadline: number, now: number): { delay: number; final: boolean } {
  const left = deadline - now;
  if (!(left < MAX_TIMER_MS)) return { delay: MAX_TIMER_MS, final: false };
  return { delay: timerDelay(left), final: true };
}
