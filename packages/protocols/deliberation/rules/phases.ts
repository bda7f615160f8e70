import type { Step, TurnAction } from './actions.ts';
import { PHASES, type Phase, phaseSettings } from './config.ts';
import { consensusOf, type Response } from './consensus.ts';
import { mergePlans, selectStyle, taskReady } from './coordination.ts';
import type { DeliberationState, Outcome, Turn } from './state.ts';
import { rankSeats, readySeats } from './topology.ts';
import { tally } from './voting.ts';

/**
 * The eight phases, in order, every round, and their sub-loops:
 *   dehallucination  step `answer`, repeated while the pass's mean confidence is below the skip
 *                    threshold and questions were asked (at most 3 passes); skipped outright when
 *                    the prior confidence (the task's, then the last round's consensus) reaches it.
 *   self_evolvement  step `refine`, repeated while a self-test failed (at most 2 passes).
 *   proposal         step `plan` (coordination), then `work`.
 *   critique, review, optimization, convergence: step `work`.
 *   adversarial      `red` then, if there were findings, `blue`; repeated unless there were no
 *                    findings, the red team's risk fell below the threshold, or 3 passes ran.
 * A step closes when every participant has a turn (a missed deadline writes a failed one).
 */

type S = DeliberationState;

const WEIGHT = { low: 0.1, medium: 0.4, high: 0.7, critical: 1 } as const;

export { WEIGHT as SEVERITY_WEIGHT };

export const ok = (t: Turn) => t.action.type !== 'failed';

export function turnsOf(state: S, round: number, phase: Phase, pass?: number, step?: Step): Turn[] {
  return state.turns.filter(
    (t) =>
      t.round === round &&
      t.phase === phase &&
      (pass === undefined || t.pass === pass) &&
      (step === undefined || t.step === step),
  );
}

const current = (state: S) => turnsOf(state, state.round, state.phase, state.pass, state.step);

export function participants(state: S): string[] {
  const roles = phaseSettings(state.config, state.phase).requiredRoles;
  const role = (id: string) => state.config.seats.find((s) => s.id === id)?.role;
  const base = state.layout.order.filter((id) => roles.length === 0 || roles.includes(role(id)!));
  const lead = base.includes(state.layout.leader) ? state.layout.leader : base[0];
  switch (state.step) {
    case 'plan':
      return styleOf(state) === 'dpde' ? base : lead ? [lead] : [];
    case 'red': {
      const red = base.filter((id) => role(id) === 'red_team');
      const rest = base.filter((id) => id !== lead);
      return red.length ? red : rest.length ? rest : base;
    }
    case 'blue': {
      const blue = base.filter((id) => role(id) === 'blue_team');
      return blue.length ? blue : lead ? [lead] : [];
    }
    default:
      return base;
  }
}

export function styleOf(state: S): 'cpde' | 'dpde' {
  const c = state.config.coordination;
  return c === 'adaptive' ? selectStyle(signalsOf(state)) : c;
}

function signalsOf(state: S) {
  return (
    state.signals ?? { complexity: state.config.task.complexity, ambiguity: 0.5, seats: state.active.length }
  );
}

/** Seats holding the turn now (empty unless running). */
export function readyNow(state: S): string[] {
  if (state.status !== 'running') return [];
  const acted = new Set(current(state).map((t) => t.seat));
  const max = phaseSettings(state.config, state.phase).maxParallelism;
  const prefer =
    state.phase === 'proposal' && state.step === 'work'
      ? (id: string) => taskReady(state.plan, id)
      : undefined;
  return readySeats(state.layout, participants(state), acted, max, prefer);
}

export function textOf(a: TurnAction): string {
  switch (a.type) {
    case 'clarify':
      return [a.content, ...a.questions.map((q) => q.question)].join('\n');
    case 'plan':
      return a.tasks.map((t) => t.description).join('\n');
    case 'failed':
      return '';
    default:
      return a.content;
  }
}

export function supportOf(t: Turn): string | null {
  const a = t.action;
  if (a.type === 'propose') return t.seat;
  if (a.type === 'converge') return a.ranking[0] ?? null;
  if (a.type === 'critique' || a.type === 'review' || a.type === 'optimize') return a.support;
  return null;
}

export function responsesOf(turns: readonly Turn[]): Response[] {
  return turns
    .filter((t) => ok(t) && t.action.type !== 'plan')
    .map((t) => ({
      confidence: (t.action as { confidence: number }).confidence,
      support: supportOf(t),
      text: textOf(t.action),
    }));
}

const meanConfidence = (turns: readonly Turn[]) => {
  const r = responsesOf(turns);
  return r.length ? r.reduce((s, x) => s + x.confidence, 0) / r.length : null;
};

function openStep(state: S, step: Step, pass: number, now: number): S {
  const timeout = phaseSettings(state.config, state.phase).timeoutMs;
  return { ...state, step, pass, stepOpenedAt: now, stepDeadline: now + timeout };
}

/** Open `phase` of the current round (skipping disabled or already-confident phases), then advance. */
export function openPhase(state: S, phase: Phase, now: number): S {
  const settings = phaseSettings(state.config, phase);
  const record = {
    round: state.round,
    phase,
    passes: 0,
    openedAt: now,
    closedAt: null,
    skipped: null,
    consensus: null,
  };
  let s: S = { ...state, phase };
  const skip = (why: string, extra: Partial<S> = {}) =>
    proceed({ ...s, ...extra, phases: [...s.phases, { ...record, closedAt: now, skipped: why }] }, now);
  if (!settings.enabled) return skip('disabled');
  if (phase === 'dehallucination') {
    const prior = state.round === 1 ? state.config.task.confidence : (state.rounds.at(-1)?.confidence ?? 0);
    if (prior >= state.config.dehallucination.skipConfidence)
      return skip('confident', {
        signals: { ...signalsOf(s), ambiguity: 1 - prior, seats: s.active.length },
      });
  }
  if (phase === 'proposal') {
    s = { ...s, plan: null, signals: { ...signalsOf(s), seats: s.active.length } };
  }
  const first: Step =
    phase === 'dehallucination'
      ? 'answer'
      : phase === 'self_evolvement'
        ? 'refine'
        : phase === 'proposal'
          ? 'plan'
          : phase === 'adversarial'
            ? 'red'
            : 'work';
  s = openStep({ ...s, phases: [...s.phases, record] }, first, 1, now);
  return advance(s, now);
}

/** Close steps for as long as nobody is left to act in them. */
export function advance(state: S, now: number): S {
  let s = state;
  for (let guard = 0; guard < 64 && s.status === 'running'; guard++) {
    const acted = new Set(current(s).map((t) => t.seat));
    if (participants(s).some((id) => !acted.has(id))) return s;
    s = closeStep(s, now);
  }
  return s;
}

function closeStep(state: S, now: number): S {
  const { config, phase, pass } = state;
  const here = current(state);
  const again = (step: Step) => openStep(state, step, pass + 1, now);
  switch (state.step) {
    case 'answer': {
      const conf = meanConfidence(here);
      const asked = here.some((t) => t.action.type === 'clarify' && t.action.questions.length > 0);
      const s = {
        ...state,
        signals: { ...signalsOf(state), ambiguity: 1 - (conf ?? 0.5), seats: state.active.length },
      };
      if (
        conf !== null &&
        conf < config.dehallucination.skipConfidence &&
        asked &&
        pass < config.dehallucination.maxPasses
      )
        return { ...again('answer'), signals: s.signals };
      return closePhase(s, now);
    }
    case 'refine': {
      const failing = here.some(
        (t) => t.action.type === 'evolve' && t.action.selfTests.some((x) => !x.passed),
      );
      return failing && pass < config.selfEvolvement.maxPasses ? again('refine') : closePhase(state, now);
    }
    case 'plan': {
      const parts = here
        .filter((t) => t.action.type === 'plan')
        .map((t) => ({ author: t.seat, tasks: t.action.type === 'plan' ? t.action.tasks : [] }));
      const plan = parts.length ? mergePlans(styleOf(state), parts) : null;
      return openStep({ ...state, plan }, 'work', pass, now);
    }
    case 'red': {
      const findings = here.some((t) => t.action.type === 'red' && t.action.findings.length > 0);
      return findings ? openStep(state, 'blue', pass, now) : closePhase(state, now);
    }
    case 'blue': {
      const reds = turnsOf(state, state.round, phase, pass, 'red');
      const risk = Math.max(0, ...reds.map((t) => (t.action.type === 'red' ? t.action.risk : 0)));
      return risk >= config.adversarial.riskThreshold && pass < config.adversarial.maxPasses
        ? again('red')
        : closePhase(state, now);
    }
    default:
      return closePhase(state, now);
  }
}

function closePhase(state: S, now: number): S {
  const { config, phase, round } = state;
  const settings = phaseSettings(config, phase);
  const all = turnsOf(state, round, phase);
  const consensus = consensusOf(responsesOf(all));
  const phases = state.phases.map((p, i) =>
    i === state.phases.length - 1 ? { ...p, passes: state.pass, closedAt: now, consensus } : p,
  );
  let s: S = { ...state, phases, stepDeadline: null };
  const answered = all.filter((t) => ok(t) && t.action.type !== 'plan');
  const fail = (code: string, message: string): S => ({ ...s, status: 'failed', failure: { code, message } });
  if (answered.length < settings.minResponses)
    return fail(
      'PHASE_UNDERFILLED',
      `${phase} of round ${round} got ${answered.length} responses, needs ${settings.minResponses}`,
    );
  const role = (id: string) => config.seats.find((x) => x.id === id)?.role;
  const missing = settings.requiredRoles.filter((r) => !answered.some((t) => role(t.seat) === r));
  if (missing.length)
    return fail(
      'REQUIRED_ROLE_MISSING',
      `${phase} of round ${round} had no answer from ${missing.join(', ')}`,
    );
  if (phase === 'convergence') {
    const outcome = roundOutcome(s, consensus.score);
    s = { ...s, rounds: [...s.rounds, outcome], outcome };
  }
  if (config.gates.phases.includes(phase))
    return {
      ...s,
      status: 'paused',
      gates: [
        ...s.gates,
        {
          round,
          phase,
          openedAt: now,
          deadline: now + config.gates.timeoutMs,
          decision: null,
          by: null,
          reason: null,
          decidedAt: null,
        },
      ],
    };
  return proceed(s, now);
}

/** After a phase (and its gate, if any): the next phase, the next round, or the end. */
export function proceed(state: S, now: number): S {
  const i = PHASES.indexOf(state.phase);
  if (i < PHASES.length - 1) return openPhase(state, PHASES[i + 1]!, now);
  const last = state.outcome;
  const done =
    state.round >= state.config.maxRounds ||
    (state.config.earlyStop && last !== null && last.round === state.round && last.reachedConsensus);
  if (done && last?.noPassingCode)
    return {
      ...state,
      status: 'failed',
      stepDeadline: null,
      failure: {
        code: 'NO_PASSING_CODE',
        message: `no proposal's code passed its tests in round ${last.round}`,
      },
    };
  if (done) return { ...state, status: 'completed', stepDeadline: null };
  return openPhase({ ...state, round: state.round + 1 }, PHASES[0], now);
}

function roundOutcome(state: S, score: number): Outcome {
  const { config, round } = state;
  const drafted = turnsOf(state, round, 'proposal').filter((t) => ok(t) && t.action.type === 'propose');
  // A code task with tests: a proposal whose code has not passed every test cannot win.
  const failingTests = drafted.filter((t) => !passesTests(state, t)).map((t) => t.seat);
  const proposals = drafted.filter((t) => !failingTests.includes(t.seat));
  const specs = config.seats.filter((x) => proposals.some((t) => t.seat === x.id));
  const candidates = rankSeats(specs, state.lottery).map((x) => x.id);
  const votes = turnsOf(state, round, 'convergence').filter((t) => ok(t) && t.action.type === 'converge');
  const ballots = votes.map((t) => {
    const a = t.action as Extract<TurnAction, { type: 'converge' }>;
    const seatScore = config.seats.find((x) => x.id === t.seat)?.score ?? 0;
    const ranking = a.ranking.filter((id) => candidates.includes(id));
    return { voter: t.seat, ranking, weight: seatScore * a.confidence };
  });
  const t = tally(config.voting, ballots, candidates);
  const winning = proposals.find((p) => p.seat === t.winner);
  return {
    round,
    winner: t.winner,
    method: config.voting,
    confidence: score,
    summary: winning ? textOf(winning.action).slice(0, 4000) : null,
    summarySeq: winning?.seq ?? null,
    dissents: votes
      .filter((v) => v.action.type === 'converge' && v.action.ranking[0] !== t.winner)
      .map((v) => {
        const a = v.action as Extract<TurnAction, { type: 'converge' }>;
        return { seat: v.seat, choice: a.ranking[0] ?? null, reason: a.dissent ?? a.content, seq: v.seq };
      }),
    voteBreakdown: t.breakdown,
    tieBroken: t.tieBroken,
    via: t.via,
    reachedConsensus: t.winner !== null && score >= config.minConsensus,
    failingTests,
    noPassingCode: drafted.length > 0 && proposals.length === 0,
  };
}

/** Does a tested code task's test suite pass (rate 1) on the proposal's code or its author's later code this round? */
function passesTests(state: S, proposal: Turn): boolean {
  const { task } = state.config;
  if (task.kind !== 'code' || task.tests === null) return true;
  return state.codeVersions.some(
    (v) =>
      v.seat === proposal.seat &&
      v.round === proposal.round &&
      v.version >= (proposal.codeVersion ?? Number.POSITIVE_INFINITY) &&
      v.testPassRate === 1,
  );
}
