import type { ApplyResult } from '@db8/core';
import { type DebateAction, reject } from '../actions.ts';
import { debaterSeats, MODERATOR } from '../config.ts';
import { withRound } from '../ops.ts';
import { ACTIVE_PHASES, currentRound, publishedCount } from '../rules.ts';
import type { DebateState } from '../state.ts';

/**
 * Continue votes, final ballots, judges' rubric cards, viewers' stances and identity bindings.
 * All are sealed to their sender and revealed by the protocol when the rules publish them:
 * continue votes at the tally, ballots/cards/stances when results are computed, identities at
 * stats_and_reveal. A later one replaces the earlier (only the latest is ever revealed).
 */

type Result = ApplyResult<DebateState>;
type Act<T extends DebateAction['type']> = Extract<DebateAction, { type: T }>;

const sealed = (state: DebateState, seat: string): Result => ({
  ok: true,
  state,
  visibility: { kind: 'seat', seat },
});

/** Distinct debater seats, or the first problem with the list. */
function seatListProblem(state: DebateState, seats: readonly string[]): string | null {
  const debaters = debaterSeats(state.config);
  const bad = seats.find((s) => !debaters.includes(s));
  if (bad !== undefined) return `${bad} is not a debater`;
  if (new Set(seats).size !== seats.length) return 'a debater is listed twice';
  return null;
}

export function applyContinueVote(
  state: DebateState,
  seat: string,
  action: Act<'vote_continue'>,
  now: number,
  seq: number,
): Result {
  const round = currentRound(state);
  const cv = round?.continue_vote;
  if (state.phase !== 'published' || !round || !cv) {
    return reject('WRONG_PHASE', `the continue vote is not open during ${state.phase}`);
  }
  const votes = { ...cv.votes, [seat]: { choice: action.choice, seq, at: now } };
  const allIn = debaterSeats(state.config).every((s) => votes[s] !== undefined);
  const next = withRound(state, { ...round, continue_vote: { ...cv, votes, all_in_at: allIn ? now : null } });
  return sealed(next, seat);
}

export function applyFinalVote(
  state: DebateState,
  seat: string,
  action: Act<'final_vote'>,
  now: number,
  seq: number,
): Result {
  if (state.phase !== 'final_vote') return reject('WRONG_PHASE', `no final ballots during ${state.phase}`);
  const ranking = action.ranking ?? [];
  const problem = seatListProblem(state, action.approval) ?? seatListProblem(state, ranking);
  if (problem) return reject('BAD_BALLOT', problem);
  if (action.approval.includes(seat) || ranking.includes(seat)) {
    return reject('SELF_VOTE', 'a debater may not approve or rank themselves');
  }
  const ballots = { ...state.ballots, [seat]: { approval: action.approval, ranking, seq, at: now } };
  return sealed({ ...state, ballots }, seat);
}

export function applyScore(
  state: DebateState,
  seat: string,
  action: Act<'score'>,
  now: number,
  seq: number,
): Result {
  if (publishedCount(state) === 0 || !ACTIVE_PHASES.has(state.phase)) {
    return reject('WRONG_PHASE', 'judges score from the first published round until the final vote ends');
  }
  const problem = seatListProblem(
    state,
    action.cards.map((c) => c.debater),
  );
  if (problem) return reject('BAD_SCORE', problem);
  const cards: DebateState['scores'][string]['cards'] = {};
  for (const { debater, ...card } of action.cards) cards[debater] = card;
  return sealed({ ...state, scores: { ...state.scores, [seat]: { cards, seq, at: now } } }, seat);
}

/**
 * `before`: after the openings are published and until the next publication (the viewer has
 * read the positions but not the rebuttals). `after`: during the final vote.
 */
export function applyStance(
  state: DebateState,
  seat: string,
  action: Act<'stance'>,
  now: number,
  seq: number,
): Result {
  const open =
    action.when === 'after'
      ? state.phase === 'final_vote'
      : publishedCount(state) === 1 && ACTIVE_PHASES.has(state.phase);
  if (!open) {
    return reject(
      'WRONG_PHASE',
      action.when === 'after'
        ? 'after-stances are given during the final vote'
        : 'before-stances are given between the first and the second publication',
    );
  }
  const problem = seatListProblem(
    state,
    action.stances.map((s) => s.debater),
  );
  if (problem) return reject('BAD_STANCE', problem);
  const values: Record<string, number> = {};
  for (const s of action.stances) values[s.debater] = s.value;
  const mine = state.stances[seat] ?? { before: null, after: null };
  const stances = { ...state.stances, [seat]: { ...mine, [action.when]: { values, seq, at: now } } };
  return sealed({ ...state, stances }, seat);
}

export function applyBindIdentity(
  state: DebateState,
  action: Act<'bind_identity'>,
  now: number,
  seq: number,
): Result {
  if (!ACTIVE_PHASES.has(state.phase)) {
    return reject('WRONG_PHASE', 'identities are bound before results are computed');
  }
  if (!debaterSeats(state.config).includes(action.seat)) {
    return reject('UNKNOWN_SEAT', `${action.seat} is not a debater seat`);
  }
  const taken = Object.entries(state.identities).find(
    ([s, b]) => s !== action.seat && b.identity === action.identity,
  );
  if (taken) return reject('DUPLICATE_IDENTITY', 'this identity is bound to another seat');
  const identities = { ...state.identities, [action.seat]: { identity: action.identity, seq, at: now } };
  return sealed({ ...state, identities }, MODERATOR);
}
