import type { ApplyResult, Protocol } from '@db8/core';
import { type DebateAction, DebateActionSchema, reject } from './actions.ts';
import { ADMIN_ACTIONS } from './admin-actions.ts';
import { type DebateConfig, DebateConfigSchema, debateSeats, normalizeKey, roleOf } from './config.ts';
import { legalFor } from './legal.ts';
import { nextDeadline, roomRefOf, ZERO_CHAIN } from './rules.ts';
import type { DebateResult, DebateState } from './state.ts';
import { applyAbort, applyExtend, applyPause, applyReplaceSeat, applyResume } from './transitions/admin.ts';
import {
  close,
  endContinueVote,
  endFinalVote,
  endResearch,
  endSubmit,
  endVerify,
  startFirstRound,
  unmask,
} from './transitions/flow.ts';
import { applyDraft, applyRegisterKey, applySubmit } from './transitions/submit.ts';
import { applyVerdict } from './transitions/verify.ts';
import {
  applyBindIdentity,
  applyContinueVote,
  applyFinalVote,
  applyScore,
  applyStance,
} from './transitions/votes.ts';
import { type DebateView, viewOf } from './view.ts';

/**
 * `debate` (seed 000): N anonymous debaters argue in barrier-synchronised rounds. Submissions
 * are sealed until every one of the round is settled, then revealed together by one public entry;
 * a fact-checker gives per-claim verdicts; debaters vote to continue; voters approve and rank;
 * judges score a rubric; viewers report stances; results, unmasking and close follow by time.
 * No randomness is used; the room seed only derives the public room reference.
 */

/** Which role may send each action. */
const ROLE_FOR: Record<DebateAction['type'], string | null> = {
  draft: 'debater',
  submit: 'debater',
  register_key: 'debater',
  verdict: 'fact_checker',
  vote_continue: 'debater',
  final_vote: null, // any role listed in config.final_voters
  score: 'judge',
  stance: 'viewer',
  bind_identity: 'moderator',
  abort: 'moderator',
  pause: 'moderator',
  resume: 'moderator',
  extend: 'moderator',
  replace_seat: 'moderator',
};

const isAdminAction = (type: string): boolean => (ADMIN_ACTIONS as readonly string[]).includes(type);

function dispatch(
  state: DebateState,
  seat: string,
  action: DebateAction,
  now: number,
  seq: number,
): ApplyResult<DebateState> {
  switch (action.type) {
    case 'draft':
      return applyDraft(state, seat, action, now, seq);
    case 'submit':
      return applySubmit(state, seat, action, now, seq);
    case 'register_key':
      return applyRegisterKey(state, seat, action.public_key);
    case 'verdict':
      return applyVerdict(state, action, now, seq);
    case 'vote_continue':
      return applyContinueVote(state, seat, action, now, seq);
    case 'final_vote':
      return applyFinalVote(state, seat, action, now, seq);
    case 'score':
      return applyScore(state, seat, action, now, seq);
    case 'stance':
      return applyStance(state, seat, action, now, seq);
    case 'bind_identity':
      return applyBindIdentity(state, action, now, seq);
    case 'abort':
      return applyAbort(state, action, now, seq);
    case 'pause':
      return applyPause(state, action, now, seq);
    case 'resume':
      return applyResume(state, now);
    case 'extend':
      return applyExtend(state, action);
    case 'replace_seat':
      return applyReplaceSeat(state, action);
  }
}

export function setupDebate(config: DebateConfig, ctx: { seed: string; now: number }): DebateState {
  const keys: Record<string, string[]> = {};
  for (const [seat, list] of Object.entries(config.trust.keys)) {
    keys[seat] = [...new Set(list.map((k) => normalizeKey(k)!))];
  }
  const base: DebateState = {
    config,
    room_ref: roomRefOf(ctx.seed),
    phase: 'research',
    round: 0,
    phase_at: ctx.now,
    phase_deadline: null,
    rounds: [],
    keys,
    ca_keys: [...new Set(config.trust.ca_keys.map((k) => normalizeKey(k)!))],
    identities: {},
    ballots: {},
    scores: {},
    stances: {},
    chain: ZERO_CHAIN,
    results: null,
    journal_published: false,
    history: [],
  };
  return startFirstRound(base, ctx.now);
}

export const debate: Protocol<DebateConfig, DebateState, DebateAction, DebateView, DebateResult> = {
  name: 'debate',
  version: 1,
  configSchema: DebateConfigSchema,
  actionSchema: DebateActionSchema,

  seats: debateSeats,
  // The moderator sees who sits where before the unmask; the fact-checker's verdicts score every
  // debater: seats the room's admin gives (an invite for the seat), never a plain join's pick.
  privilegedRoles: ['moderator', 'fact_checker'],
  // Who sits in each anonymous seat is the server's to record (its join hook), never a seat's claim:
  // a moderator binding a seat to itself would take the unmask's name and the Elo.
  // The admin's operations likewise: the server writes them after checking the caller is an admin.
  serverActions: ['bind_identity', ...ADMIN_ACTIONS],
  setup: (config, ctx) => setupDebate(config, ctx),

  apply(state, { seat, action, now, seq }) {
    const role = roleOf(state.config, seat);
    if (role === null) return reject('UNKNOWN_SEAT', `this room has no seat ${seat}`);
    if (state.phase === 'closed') {
      const code = isAdminAction(action.type) ? 'DEBATE_OVER' : 'PHASE_CLOSED';
      return reject(code, 'the debate is closed');
    }
    const wanted = ROLE_FOR[action.type];
    const allowed =
      wanted === null ? (state.config.final_voters as readonly string[]).includes(role) : role === wanted;
    if (!allowed) return reject('WRONG_ROLE', `a ${role} cannot ${action.type}`, { role });
    // An admin operates the room whatever its clock says; a late deadline is ticked after it.
    if (isAdminAction(action.type)) return dispatch(state, seat, action, now, seq);
    if (state.paused) {
      // Binding who took a seat is bookkeeping, not a move: a seat joined or replaced while the
      // debate is paused must still be unmasked at the results (refused, the runtime skips it).
      if (action.type === 'bind_identity') return dispatch(state, seat, action, now, seq);
      return reject('PAUSED', 'the debate is paused by an admin');
    }
    const due = nextDeadline(state)!;
    // Past a deadline that has not been ticked yet: the deadline, not the tick, ends the phase.
    if (now >= due) return reject('PHASE_CLOSED', `the ${state.phase} phase has ended`, { endedAt: due });
    return dispatch(state, seat, action, now, seq);
  },

  tick(state, now, seq) {
    const due = nextDeadline(state);
    if (due === null || now < due) return null;
    switch (state.phase) {
      case 'research':
        return endResearch(state, now, seq);
      case 'submit':
      case 'final_submit':
        return endSubmit(state, now, seq);
      case 'verify':
      case 'final_verify':
        return endVerify(state, now, seq);
      case 'published':
        return endContinueVote(state, now, seq);
      case 'final_vote':
        return endFinalVote(state, now, seq);
      case 'results':
        return unmask(state, now, seq);
      case 'stats_and_reveal':
        return close(state, now, seq);
      default:
        return null;
    }
  },

  deadline: nextDeadline,
  view: viewOf,
  legal: legalFor,
  // An aborted debate has no result (it is not rated), even when it was aborted after the results.
  result: (state) => (state.phase === 'closed' && !state.aborted ? state.results : null),
  isOver: (state) => state.phase === 'closed',
};
