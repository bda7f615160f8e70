import {
  type ApplyResult,
  hashCanonical,
  type Transition as ProtocolTransition,
  truncateCodePoints,
} from '@db8/core';
import { ACTION_FOR_STAGE, type CouncilAction, reject, type TurnError } from './actions.ts';
import { isoDate } from './artifacts.ts';
import { assessableRoles, computeConsensus } from './consensus.ts';
import { buildPacket, FinalPacketSchema } from './packet.ts';
import { CHALLENGE_MAP, OPERATOR, ROLES, type Role, roleOfSeat } from './roles.ts';
import {
  checkTransition,
  isRoundStage,
  nextStage,
  roundNumber,
  type Stage,
  type TransitionStatus,
  type TurnStage,
} from './stages.ts';
import type { CouncilState } from './state.ts';
import { stageOfTurn, type TurnRecord, turnOf } from './turns.ts';

/**
 * Every state change of a council run. Each returns a NEW state with `counter` bumped. State
 * changes go through `enter`, which runs the transition validator and appends to the log.
 */

type Result = ApplyResult<CouncilState>;
type Step = ProtocolTransition<CouncilState>;
type TurnAction = Exclude<CouncilAction, { type: 'writeback' | 'abort' }>;

export class IllegalTransitionError extends Error {}

function bump(state: CouncilState, patch: Partial<CouncilState>): CouncilState {
  return { ...state, ...patch, counter: state.counter + 1 };
}

/** Append one validated line to the transition log; an illegal move is a protocol bug, so it throws. */
export function logTransition(
  state: CouncilState,
  seq: number,
  at: number,
  to: Stage | null,
  status: TransitionStatus,
  detail: string | null,
): CouncilState {
  const from = state.transitions.length === 0 ? null : state.stage;
  const check = checkTransition(from, to, status);
  if (!check.ok) throw new IllegalTransitionError(check.reason);
  const line = { index: state.transitions.length, seq, at, from, to, status, detail };
  return { ...state, transitions: [...state.transitions, line] };
}

/** Roles a turn stage waits for. */
export function expectedRoles(stage: Stage): readonly Role[] {
  if (isRoundStage(stage)) return ROLES;
  if (stage === 'Consensus') return ['Synthesizer'];
  if (stage === 'Judge') return ['Judge'];
  return [];
}

export function isTurnStage(stage: Stage): stage is TurnStage {
  return expectedRoles(stage).length > 0;
}

export function missingRoles(state: CouncilState): Role[] {
  if (!isTurnStage(state.stage)) return [];
  const stage = state.stage;
  return expectedRoles(stage).filter((r) => !turnOf(state.turns, stage, r));
}

/** A role's turn: its payload for the live stage, or its recorded failure. */
export function applyTurn(
  state: CouncilState,
  seat: string,
  action: TurnAction,
  now: number,
  seq: number,
): Result {
  const role = roleOfSeat(seat);
  if (!role) return reject('NOT_YOUR_TURN', `${seat} is not a council role`);
  const stage = state.stage;
  if (!isTurnStage(stage)) return reject('WRONG_STAGE', `no turns during ${stage}`);
  const wanted = action.type === 'failed' ? action.stage : null;
  if (action.type === 'failed' ? wanted !== stage : ACTION_FOR_STAGE[stage] !== action.type) {
    return reject('WRONG_STAGE', `${stage} takes ${ACTION_FOR_STAGE[stage]}, not ${action.type}`, { stage });
  }
  if (!expectedRoles(stage).includes(role)) return reject('NOT_YOUR_TURN', `${role} has no turn in ${stage}`);
  if (turnOf(state.turns, stage, role))
    return reject('ALREADY_SUBMITTED', `${role} already has a ${stage} turn`);
  if (state.stageDeadline !== null && now >= state.stageDeadline) {
    return reject('STAGE_EXPIRED', `${stage} closed at its deadline`, { deadline: state.stageDeadline });
  }

  let turn: TurnRecord;
  const base = { role, seq, at: now, call: action.call };
  switch (action.type) {
    case 'failed':
      turn = { kind: 'failed', ...base, stage, error: action.error };
      break;
    case 'challenge':
      if (action.payload.target !== CHALLENGE_MAP[role]) {
        return reject('WRONG_TARGET', `${role} challenges ${CHALLENGE_MAP[role]}`, {
          target: CHALLENGE_MAP[role],
        });
      }
      turn = { kind: 'challenge', ...base, payload: action.payload };
      break;
    case 'assessment': {
      const allowed = assessableRoles(state.turns);
      const roles = action.payload.positions.map((p) => p.role);
      const bad = roles.filter((r, i) => !allowed.includes(r) || roles.indexOf(r) !== i);
      if (bad.length > 0) {
        return reject('BAD_ASSESSMENT', 'assess each role with a round-3 position at most once', {
          allowed,
          bad,
        });
      }
      turn = { kind: 'assessment', ...base, payload: action.payload };
      break;
    }
    case 'verdict': {
      const today = isoDate(now);
      const late = action.payload.nextActions.filter((a) => a.due < today).map((a) => a.due);
      if (late.length > 0)
        return reject('BAD_DUE_DATE', `due dates must be ${today} or later`, { today, late });
      turn = { kind: 'verdict', ...base, payload: action.payload };
      break;
    }
    default:
      turn = { kind: action.type, ...base, payload: action.payload } as TurnRecord;
  }
  const turns = [...state.turns, turn];
  const complete = expectedRoles(stage).every((r) => turnOf(turns, stage, r));
  const out = bump(state, { turns, readyAt: complete ? now : null });
  // Round turns stay sealed to their author until the round closes, so openings are independent.
  return isRoundStage(stage)
    ? { ok: true, state: out, visibility: { kind: 'seat', seat } }
    : { ok: true, state: out };
}

function openStage(state: CouncilState, stage: Stage, now: number): CouncilState {
  const waits = isTurnStage(stage) || stage === 'Writeback';
  return {
    ...state,
    stage,
    stageOpenedAt: now,
    stageDeadline: waits ? now + state.config.stageWindowMs : null,
    readyAt: waits ? null : now,
  };
}

/** Close a turn stage: missing roles time out, sealed round turns are revealed, the next state opens. */
function closeTurnStage(state: CouncilState, stage: TurnStage, now: number, seq: number): Step {
  const timedOut: TurnRecord[] = missingRoles(state).map((role) => ({
    kind: 'failed',
    role,
    seq,
    at: now,
    call: null,
    stage,
    error: { code: 'STAGE_TIMEOUT', message: `no ${stage} turn before the stage deadline` },
  }));
  const turns = [...state.turns, ...timedOut];
  const mine = turns.filter((t) => stageOfTurn(t) === stage);
  const failed = mine.filter((t) => t.kind === 'failed').map((t) => t.role);
  const status: TransitionStatus = failed.length > 0 ? 'degraded' : 'ok';
  const detail = failed.length > 0 ? `failed: ${failed.join(', ')}` : null;
  const to = nextStage(stage)!;
  const reveal = isRoundStage(stage) ? mine.filter((t) => t.seq < seq).map((t) => t.seq) : [];
  let s = logTransition({ ...state, turns }, seq, now, to, status, detail);
  s = openStage({ ...s, revealed: [...s.revealed, ...reveal] }, to, now);
  if (stage === 'Consensus') s = { ...s, consensus: computeConsensus(turns) };
  const milestone = isRoundStage(stage)
    ? `round-${roundNumber(stage)}`
    : stage === 'Consensus'
      ? 'consensus'
      : 'verdict';
  if (to === 'Packetize') return { ...packetize(bump(s, {}), now, seq), milestone: 'packet' };
  return reveal.length > 0 ? { state: bump(s, {}), reveal, milestone } : { state: bump(s, {}), milestone };
}

/** Build and validate the Final Packet; an invalid packet is a structural failure and aborts the run. */
function packetize(state: CouncilState, now: number, seq: number): Step {
  const consensus = state.consensus ?? computeConsensus(state.turns);
  const parsed = FinalPacketSchema.safeParse(buildPacket(state, consensus, now));
  if (!parsed.success) {
    const message = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    return {
      state: abortRun(
        state,
        { code: 'PACKET_INVALID', message: truncateCodePoints(message, 2000) },
        now,
        seq,
      ),
    };
  }
  // Packetize has nothing to wait for: the same step enters Writeback, so one tick settles the instant.
  const packed = { ...state, packet: parsed.data, packetSha256: hashCanonical(parsed.data) };
  return { state: openStage(logTransition(packed, seq, now, 'Writeback', 'ok', null), 'Writeback', now) };
}

function abortRun(state: CouncilState, error: TurnError, now: number, seq: number): CouncilState {
  const s = logTransition(state, seq, now, null, 'aborted', `${error.code}: ${error.message}`);
  return bump(s, {
    status: 'aborted',
    stageDeadline: null,
    readyAt: null,
    abort: { stage: state.stage, error, at: now, seq },
  });
}

/** When `tick` next has work: the stage is ready, or its deadline. */
export function dueAt(state: CouncilState): number | null {
  if (state.status !== 'running') return null;
  return state.readyAt ?? state.stageDeadline;
}

export function tickRun(state: CouncilState, now: number, seq: number): Step | null {
  const due = dueAt(state);
  if (due === null || now < due) return null;
  const stage = state.stage;
  if (isTurnStage(stage)) return closeTurnStage(state, stage, now, seq);
  if (stage === 'Writeback') {
    return {
      state: abortRun(
        state,
        { code: 'WRITEBACK_TIMEOUT', message: 'no writeback before the deadline' },
        now,
        seq,
      ),
      milestone: 'aborted',
    };
  }
  const to = nextStage(stage)!;
  const s = openStage(logTransition(state, seq, now, to, 'ok', null), to, now);
  return { state: bump(s, {}) };
}

export function applyWriteback(
  state: CouncilState,
  seat: string,
  action: Extract<CouncilAction, { type: 'writeback' }>,
  now: number,
  seq: number,
): Result {
  if (seat !== OPERATOR) return reject('NOT_YOUR_TURN', 'only the operator records the writeback');
  if (state.stage !== 'Writeback') return reject('WRONG_STAGE', `the run is in ${state.stage}`);
  if (state.stageDeadline !== null && now >= state.stageDeadline) {
    return reject('STAGE_EXPIRED', 'the writeback deadline has passed', { deadline: state.stageDeadline });
  }
  if (action.packetSha256 !== state.packetSha256) {
    return reject('PACKET_MISMATCH', 'the record must reference this run’s packet', {
      expected: state.packetSha256,
    });
  }
  const s = logTransition(state, seq, now, null, 'completed', `decision record ${action.recordPath}`);
  return {
    ok: true,
    state: bump(s, {
      status: 'completed',
      stageDeadline: null,
      readyAt: null,
      writeback: { recordPath: action.recordPath, packetSha256: action.packetSha256, at: now, seq },
    }),
    milestone: 'completed',
  };
}

export function applyAbort(
  state: CouncilState,
  seat: string,
  error: TurnError,
  now: number,
  seq: number,
): Result {
  if (seat !== OPERATOR) return reject('NOT_YOUR_TURN', 'only the operator aborts a run');
  return { ok: true, state: abortRun(state, error, now, seq), milestone: 'aborted' };
}
