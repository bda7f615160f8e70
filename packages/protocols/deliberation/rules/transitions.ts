import type { ApplyResult, Transition } from '@db8/core';
import { type DeliberationAction, reject, type Step, type TurnAction, type TurnKind } from './actions.ts';
import { addVersion, measureVersion } from './code.ts';
import { OPERATOR, phaseSettings } from './config.ts';
import { settleTasks, tasksFor } from './coordination.ts';
import { advance, ok, proceed, readyNow, turnsOf } from './phases.ts';
import { activeSpecs, type DeliberationState, specOf, type Turn } from './state.ts';
import { audienceOf, buildLayout } from './topology.ts';

type S = DeliberationState;
type Result = ApplyResult<S>;

/** The action kind each step takes (besides `failed`). */
export const KIND_FOR_STEP: Record<Step, (phase: string) => TurnKind> = {
  answer: () => 'clarify',
  refine: () => 'evolve',
  plan: () => 'plan',
  work: (phase) =>
    phase === 'proposal'
      ? 'propose'
      : phase === 'critique'
        ? 'critique'
        : phase === 'review'
          ? 'review'
          : phase === 'optimization'
            ? 'optimize'
            : 'converge',
  red: () => 'red',
  blue: () => 'blue',
};

const bump = (s: S): S => ({ ...s, counter: s.counter + 1 });
const done = (state: S): Result => ({ ok: true, state: bump(state) });

/** Candidates (this round's proposal authors) that `seat` may name: itself and those it can read. */
export function visibleCandidates(state: S, seat: string): string[] {
  return turnsOf(state, state.round, 'proposal')
    .filter((t) => ok(t) && t.action.type === 'propose' && (t.seat === seat || t.audience.includes(seat)))
    .map((t) => t.seat);
}

/** Findings of this pass that `seat` can read, as `redSeat/findingId`. */
export function visibleFindings(state: S, seat: string): string[] {
  return turnsOf(state, state.round, 'adversarial', state.pass, 'red').flatMap((t) =>
    t.action.type === 'red' && (t.seat === seat || t.audience.includes(seat))
      ? t.action.findings.map((f) => `${t.seat}/${f.id}`)
      : [],
  );
}

function validate(state: S, seat: string, a: TurnAction): Result | null {
  const cands = visibleCandidates(state, seat);
  const isCode = state.config.task.kind === 'code';
  switch (a.type) {
    case 'propose':
    case 'optimize':
    case 'blue': {
      if (isCode && a.type !== 'blue' && a.code === null)
        return reject('MISSING_CODE', 'a code task needs code in this draft');
      if (a.reflections.length > state.config.reflexion.maxAttempts)
        return reject('TOO_MANY_REFLECTIONS', `at most ${state.config.reflexion.maxAttempts} reflections`);
      if (a.type === 'propose') {
        const mine = tasksFor(state.plan, seat).map((t) => t.id);
        const bad = a.taskIds.find((id) => !mine.includes(id));
        if (bad !== undefined) return reject('BAD_TASK', `task ${bad} is not ready for ${seat}`);
      }
      if (a.type === 'blue') {
        const seen = visibleFindings(state, seat);
        const bad = a.patches.find((p) => !seen.includes(p.finding));
        if (bad) return reject('BAD_FINDING', `no finding ${bad.finding} visible to ${seat}`);
      }
      if (a.type === 'optimize' && a.target !== null && !cands.includes(a.target))
        return reject('BAD_TARGET', `${a.target} is no proposal ${seat} can see`);
      if (a.type === 'optimize' && a.support !== null && !cands.includes(a.support))
        return reject('BAD_TARGET', `${a.support} is no proposal ${seat} can see`);
      return null;
    }
    case 'critique':
    case 'review':
      for (const x of [a.target, a.support])
        if (x !== null && !cands.includes(x))
          return reject('BAD_TARGET', `${x} is no proposal ${seat} can see`);
      return null;
    case 'converge':
      if (new Set(a.ranking).size !== a.ranking.length || a.ranking.some((x) => !cands.includes(x)))
        return reject('BAD_RANKING', `rank distinct proposals you can see: ${cands.join(', ') || 'none'}`);
      return null;
    default:
      return null;
  }
}

/** Record a turn (validated or a timeout) and its effects on the plan and the code history. */
function record(state: S, seat: string, action: TurnAction, now: number, seq: number): S {
  const spec = specOf(state, seat)!;
  let s = state;
  let codeVersion: number | null = null;
  const code = 'code' in action ? action.code : null;
  if (code) {
    s = {
      ...s,
      codeVersions: addVersion(s.codeVersions, code, { turnSeq: seq, seat, round: s.round, phase: s.phase }),
    };
    codeVersion = s.codeVersions.at(-1)!.version;
  }
  if (s.plan && s.phase === 'proposal' && s.step === 'work') {
    if (action.type === 'propose') s = { ...s, plan: settleTasks(s.plan!, action.taskIds, 'done', seq) };
    if (action.type === 'failed') {
      const mine = s.plan!.tasks.filter((t) => t.assignee === seat).map((t) => t.id);
      s = { ...s, plan: settleTasks(s.plan!, mine, 'failed', seq) };
    }
  }
  const turn: Turn = {
    seq,
    at: now,
    round: s.round,
    phase: s.phase,
    pass: s.pass,
    step: s.step,
    seat,
    role: spec.role,
    provider: spec.provider,
    model: spec.model,
    action,
    audience: audienceOf(s.layout, seat),
    codeVersion,
  };
  return { ...s, turns: [...s.turns, turn] };
}

function applyTurn(state: S, seat: string, action: TurnAction, now: number, seq: number): Result {
  if (state.status === 'paused') return reject('PAUSED', 'the session waits at an approval gate');
  if (!readyNow(state).includes(seat)) return reject('NOT_YOUR_TURN', `${seat} does not hold the turn`);
  const kind = KIND_FOR_STEP[state.step](state.phase);
  if (action.type !== kind && action.type !== 'failed')
    return reject('WRONG_ACTION', `${state.phase}/${state.step} takes ${kind} (or failed)`);
  const bad = validate(state, seat, action);
  if (bad) return bad;
  return done(advance(record(state, seat, action, now, seq), now));
}

/** How many timeouts in a row rebalance a seat out of the session (docs/deliberation.md). */
export const SILENT_TIMEOUTS = 2;

/** Take `seat` out: a new layout (and leader) over the seats that remain; its pending tasks go to anyone. */
function rebalanceOut(state: S, seat: string, reason: string, now: number, seq: number): S {
  const active = state.active.filter((id) => id !== seat);
  let s: S = { ...state, active, forfeits: [...state.forfeits, { seat, reason, at: now, seq }] };
  s = { ...s, layout: buildLayout(s.config.topology, activeSpecs(s), s.lottery, s.config.treeBranching) };
  if (s.plan)
    s = {
      ...s,
      plan: {
        ...s.plan,
        tasks: s.plan.tasks.map((t) =>
          t.assignee === seat && t.status === 'pending' ? { ...t, assignee: null } : t,
        ),
      },
    };
  return s;
}

function applyForfeit(state: S, seat: string, reason: string, now: number, seq: number): Result {
  if (!state.active.includes(seat)) return reject('NOT_YOUR_TURN', `${seat} has already left`);
  const s = rebalanceOut(state, seat, reason, now, seq);
  return done(s.status === 'running' ? advance(s, now) : s);
}

const timedOut = (t: Turn) => t.action.type === 'failed' && t.action.error.code === 'PHASE_TIMEOUT';

/** Did `seat`'s last SILENT_TIMEOUTS turns all time out? */
function silent(state: S, seat: string): boolean {
  const last = state.turns.filter((t) => t.seat === seat).slice(-SILENT_TIMEOUTS);
  return last.length === SILENT_TIMEOUTS && last.every(timedOut);
}

function decideGate(state: S, by: string, decision: 'approve' | 'reject', reason: string, now: number): S {
  const gate = state.gates.at(-1)!;
  const gates = [...state.gates.slice(0, -1), { ...gate, decision, by, reason, decidedAt: now }];
  if (decision === 'reject')
    return { ...state, gates, status: 'cancelled', cancellation: { by, reason }, stepDeadline: null };
  const resumed: S = {
    ...state,
    gates,
    status: 'running',
    sessionDeadline: state.sessionDeadline + (now - gate.openedAt),
  };
  return proceed(resumed, now);
}

export function applyAction(
  state: S,
  input: { seat: string; action: DeliberationAction; now: number; seq: number },
): Result {
  const { seat, action, now, seq } = input;
  const debater = specOf(state, seat) !== undefined;
  if (!debater && seat !== OPERATOR) return reject('UNKNOWN_SEAT', `this session has no seat ${seat}`);
  if (state.status !== 'running' && state.status !== 'paused')
    return reject('SESSION_OVER', `the session is ${state.status}`);
  switch (action.type) {
    case 'approve':
    case 'reject':
      if (state.status !== 'paused') return reject('NOT_PAUSED', 'no gate is open');
      if (!state.config.gates.reviewers.includes(seat))
        return reject('NOT_AUTHORISED', `${seat} may not decide gates`);
      return done(decideGate(state, seat, action.type, action.reason, now));
    case 'measure':
      if (seat !== OPERATOR) return reject('NOT_AUTHORISED', 'only the operator records measurements');
      if (!state.codeVersions.some((v) => v.version === action.version))
        return reject('UNKNOWN_VERSION', `no code version ${action.version}`);
      return done({
        ...state,
        codeVersions: measureVersion(state.codeVersions, action.version, action.measurement, now),
      });
    case 'cancel':
      if (seat !== OPERATOR) return reject('NOT_AUTHORISED', 'only the operator cancels a session');
      return done({
        ...state,
        status: 'cancelled',
        stepDeadline: null,
        cancellation: { by: action.by ?? seat, reason: action.reason },
      });
    case 'forfeit':
      if (!debater) return reject('NOT_AUTHORISED', 'only a debater can forfeit');
      return applyForfeit(state, seat, action.reason, now, seq);
    default:
      if (!debater) return reject('NOT_AUTHORISED', 'the operator does not take turns');
      return applyTurn(state, seat, action, now, seq);
  }
}

export function deadlineOf(state: S): number | null {
  if (state.status === 'paused') return state.gates.at(-1)?.deadline ?? null;
  if (state.status !== 'running') return null;
  return Math.min(state.stepDeadline ?? Number.POSITIVE_INFINITY, state.sessionDeadline);
}

/** Time-driven moves: the session timeout, a step's deadline (missing turns fail), a gate's timeout. */
export function tickAt(state: S, now: number, seq: number): Transition<S> | null {
  const due = deadlineOf(state);
  if (due === null || now < due) return null;
  if (state.status === 'paused') {
    const policy = state.config.gates.onTimeout;
    return { state: bump(decideGate(state, 'timeout', policy, `gate timed out (policy: ${policy})`, now)) };
  }
  if (now >= state.sessionDeadline)
    return {
      state: bump({
        ...state,
        status: 'failed',
        stepDeadline: null,
        failure: { code: 'SESSION_TIMEOUT', message: 'the session ran out of time' },
      }),
    };
  // Only the seats that held the turn time out; seats still waiting for them (a star's hub, the
  // rest of a chain) get a fresh deadline. A seat silent SILENT_TIMEOUTS times in a row leaves.
  const late = readyNow(state);
  let s = state;
  for (const id of late)
    s = record(
      s,
      id,
      {
        type: 'failed',
        error: { code: 'PHASE_TIMEOUT', message: `no ${state.phase} turn before the deadline` },
        call: null,
      },
      now,
      seq,
    );
  for (const id of late.filter((x) => silent(s, x)))
    s = rebalanceOut(s, id, `silent: ${SILENT_TIMEOUTS} timeouts in a row`, now, seq);
  const key = (x: S) => `${x.round}|${x.phase}|${x.pass}|${x.step}`;
  const next = advance(s, now);
  const still = next.status === 'running' && key(next) === key(state);
  const timeout = phaseSettings(next.config, next.phase).timeoutMs;
  return { state: bump(still ? { ...next, stepDeadline: now + timeout } : next) };
}
