export { isRfc3339, parseRfc3339, Rfc3339Schema } from './rfc3339.ts';
export { deadlineStep, MAX_TIMER_MS, timerDelay } from './timer.ts';
