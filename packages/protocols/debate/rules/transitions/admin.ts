import type { ApplyResult } from '@db8/core';
import type { DebateAction } from '../actions.ts';
import { reject } from '../actions.ts';
import { debaterSeats } from '../config.ts';
import { enter, withRound } from '../ops.ts';
import { currentRound } from '../rules.ts';
import type { DebateState } from '../state.ts';

/**
 * The admin's operations (rules/admin-actions.ts), folded like any other entry: the deadlines
 * they move are computed from the entries' own times, so replay and `db8 verify` reproduce them.
 */

type Result = ApplyResult<DebateState>;
type Act<T extends DebateAction['type']> = Extract<DebateAction, { type: T }>;

/** Phases in which a no-show may still be replaced: a new holder can still argue. */
const REPLACE_PHASES: ReadonlySet<string> = new Set([
  'research',
  'submit',
  'verify',
  'published',
  'final_submit',
]);

/**
 * Moves the end of the current window by `delta` ms: the phase deadline and the round's own
 * record of it (submit deadline, verify bound or continue-vote close), which legal actions and
 * the submissions' `deadline_unix` read.
 */
export function shiftWindow(state: DebateState, delta: number): DebateState {
  if (state.phase_deadline === null) return state;
  let next: DebateState = { ...state, phase_deadline: state.phase_deadline + delta };
  const round = currentRound(state);
  if (!round) return next;
  switch (state.phase) {
    case 'research':
      // endResearch keeps the submit window's length (submit_deadline − opened_at).
      next = withRound(next, {
        ...round,
        opened_at: round.opened_at + delta,
        submit_deadline: round.submit_deadline + delta,
      });
      break;
    case 'submit':
    case 'final_submit':
      next = withRound(next, { ...round, submit_deadline: round.submit_deadline + delta });
      break;
    case 'verify':
    case 'final_verify':
      if (round.verify_deadline !== null) {
        next = withRound(next, { ...round, verify_deadline: round.verify_deadline + delta });
      }
      break;
    case 'published':
      if (round.continue_vote) {
        const cv = round.continue_vote;
        next = withRound(next, { ...round, continue_vote: { ...cv, closes_at: cv.closes_at + delta } });
      }
      break;
    default:
      break;
  }
  return next;
}

export function applyAbort(state: DebateState, action: Act<'abort'>, now: number, seq: number): Result {
  const aborted = { at: now, by: action.by, reason: action.reason ?? `aborted by ${action.by}`, seq };
  const { paused: _paused, ...rest } = state;
  return { ok: true, state: enter({ ...rest, aborted }, 'closed', now, seq, null), milestone: 'closed' };
}

export function applyPause(state: DebateState, action: Act<'pause'>, now: number, seq: number): Result {
  if (state.paused) return reject('PAUSED', 'the debate is already paused');
  const remaining = Math.max(0, (state.phase_deadline ?? now) - now);
  return { ok: true, state: { ...state, paused: { at: now, remaining, by: action.by, seq } } };
}

export function applyResume(state: DebateState, now: number): Result {
  if (!state.paused) return reject('NOT_PAUSED', 'the debate is not paused');
  const { paused, ...rest } = state;
  // The window ends `remaining` after the resume: every deadline of it moves by the same amount.
  const delta = rest.phase_deadline === null ? 0 : now + paused.remaining - rest.phase_deadline;
  return { ok: true, state: shiftWindow(rest, delta) };
}

export function applyExtend(state: DebateState, action: Act<'extend'>): Result {
  if (state.paused) {
    return {
      ok: true,
      state: { ...state, paused: { ...state.paused, remaining: state.paused.remaining + action.ms } },
    };
  }
  return { ok: true, state: shiftWindow(state, action.ms) };
}

export function applyReplaceSeat(state: DebateState, action: Act<'replace_seat'>): Result {
  if (!debaterSeats(state.config).includes(action.seat)) {
    return reject('UNKNOWN_SEAT', `${action.seat} is not a debater seat`);
  }
  if (!REPLACE_PHASES.has(state.phase)) {
    return reject('TOO_LATE', 'a seat is replaced only while arguments are still made', {
      phase: state.phase,
    });
  }
  const submitted = state.rounds.some((r) => r.slots[action.seat]?.submission != null);
  if (submitted) {
    return reject('NOT_A_NO_SHOW', `${action.seat} has submitted: only a seat that never did is replaced`);
  }
  // The seat's new holder is bound by the join that follows (its identity, sealed until unmasked).
  return { ok: true, state, note: { replaced: action.seat } };
}
