import { z } from 'zod';

/**
 * The fixed state machine (seed 001, Decision 2). The eight states, in the only order allowed;
 * `checkTransition` is the validator every state change goes through, and the transition log in
 * the state records each change (ordered, timestamped, with a status).
 */

export const STAGES = [
  'Intake',
  'Round1',
  'Round2',
  'Round3',
  'Consensus',
  'Judge',
  'Packetize',
  'Writeback',
] as const;
export const StageSchema = z.enum(STAGES);
export type Stage = z.infer<typeof StageSchema>;

/** Stages in which council roles submit turns. */
export const TURN_STAGES = ['Round1', 'Round2', 'Round3', 'Consensus', 'Judge'] as const;
export const TurnStageSchema = z.enum(TURN_STAGES);
export type TurnStage = z.infer<typeof TurnStageSchema>;

export const ROUND_STAGES = ['Round1', 'Round2', 'Round3'] as const;
export type RoundStage = (typeof ROUND_STAGES)[number];

export function roundNumber(stage: RoundStage): 1 | 2 | 3 {
  return stage === 'Round1' ? 1 : stage === 'Round2' ? 2 : 3;
}

export function isRoundStage(stage: Stage): stage is RoundStage {
  return stage === 'Round1' || stage === 'Round2' || stage === 'Round3';
}

/** The single successor of each state; Writeback has none (the run completes there). */
export function nextStage(stage: Stage): Stage | null {
  const i = STAGES.indexOf(stage);
  return STAGES[i + 1] ?? null;
}

export const TransitionStatusSchema = z.enum(['ok', 'degraded', 'completed', 'aborted']);
export type TransitionStatus = z.infer<typeof TransitionStatusSchema>;

/**
 * One line of the transition log. `from: null` is the run's start (entering Intake); `to: null`
 * ends the run, as `completed` (from Writeback only) or `aborted` (from any state).
 * `degraded` marks a state left with failed turns in it.
 */
export const TransitionSchema = z
  .object({
    index: z.number().int().nonnegative(),
    /** Log position of the entry that made the change (0 = the room's genesis). */
    seq: z.number().int().nonnegative(),
    at: z.number().int(),
    from: StageSchema.nullable(),
    to: StageSchema.nullable(),
    status: TransitionStatusSchema,
    detail: z.string().nullable(),
  })
  .strict();
export type Transition = z.infer<typeof TransitionSchema>;

export type TransitionCheck = { ok: true } | { ok: false; reason: string };

/**
 * The transition validator: the only legal moves are start → Intake, each state → its successor,
 * Writeback → completed, and any state → aborted. Everything else is refused.
 */
export function checkTransition(
  from: Stage | null,
  to: Stage | null,
  status: TransitionStatus,
): TransitionCheck {
  if (from === null) {
    return to === 'Intake' && status === 'ok'
      ? { ok: true }
      : { ok: false, reason: 'a run starts at Intake' };
  }
  if (to === null) {
    if (status === 'aborted') return { ok: true };
    if (status === 'completed' && from === 'Writeback') return { ok: true };
    return { ok: false, reason: `a run cannot end in ${from} as ${status}` };
  }
  if (status === 'completed' || status === 'aborted') {
    return { ok: false, reason: `${status} ends the run; it does not enter ${to}` };
  }
  const expected = nextStage(from);
  if (to !== expected) {
    return { ok: false, reason: `${from} → ${to} is not allowed (next is ${expected ?? 'none'})` };
  }
  return { ok: true };
}

/** True when `log` is a well-formed history: it starts at Intake and every step passes the validator. */
export function checkTransitionLog(log: readonly Transition[]): TransitionCheck {
  let current: Stage | null = null;
  let ended = false;
  for (const [i, t] of log.entries()) {
    if (ended) return { ok: false, reason: `entry ${i} follows the end of the run` };
    if (t.index !== i) return { ok: false, reason: `entry ${i} has index ${t.index}` };
    if (t.from !== current)
      return { ok: false, reason: `entry ${i} leaves ${t.from}, but the run is in ${current}` };
    const prev = log[i - 1];
    if (prev && (t.at < prev.at || t.seq < prev.seq))
      return { ok: false, reason: `entry ${i} goes back in time` };
    const check = checkTransition(t.from, t.to, t.status);
    if (!check.ok) return check;
    current = t.to;
    ended = t.to === null;
  }
  return { ok: true };
}
