import type { DebateState, Phase, Round } from './state.ts';

/** Small immutable updates shared by the transitions; inputs are never mutated. */

/** Replace round `round.index` in the state. */
export function withRound(state: DebateState, round: Round): DebateState {
  const rounds = state.rounds.slice();
  rounds[round.index - 1] = round;
  return { ...state, rounds };
}

/** Enter `phase` at `now` by the entry at `seq`, recording it in the history. */
export function enter(
  state: DebateState,
  phase: Phase,
  now: number,
  seq: number,
  phaseDeadline: number | null,
): DebateState {
  return {
    ...state,
    phase,
    phase_at: now,
    phase_deadline: phaseDeadline,
    history: [...state.history, { phase, round: state.round, at: now, seq }],
  };
}

/** Record an instantaneous state (`verify` skipped, `published`, `final_published`) in the history only. */
export function pass(state: DebateState, phase: Phase, now: number, seq: number): DebateState {
  return { ...state, history: [...state.history, { phase, round: state.round, at: now, seq }] };
}
