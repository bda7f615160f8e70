/**
 * How long a test waits for something that should happen (a message, a socket closing, a
 * condition): a safety limit against a hang, never a budget the code must meet. Generous because a
 * busy machine (a laptop building, CI beside other jobs, load 15 on two cores) runs ten times
 * slower than an idle one. vitest's own limits (vitest.config.ts) are longer still, so when
 * something does hang, the waiting helper's message (what it waited for) is the one reported.
 */
export const PATIENCE_MS = 120_000;
