import type { Legal, Viewer } from '@db8/core';
import type { Step } from './actions.ts';
import type { CodeVersion } from './code.ts';
import { type DeliberationConfig, OPERATOR, type Phase } from './config.ts';
import { type Plan, tasksFor } from './coordination.ts';
import { readyNow, styleOf } from './phases.ts';
import {
  type DeliberationState,
  type GateRecord,
  isOver,
  type Outcome,
  type PhaseRecord,
  type Status,
  type Turn,
} from './state.ts';
import type { Layout } from './topology.ts';
import { KIND_FOR_STEP, visibleCandidates, visibleFindings } from './transitions.ts';

/**
 * What one viewer may see. A debater sees its own turns and the turns whose audience (fixed by the
 * topology when the turn was made) includes it — nothing else: not the turns, not code versions
 * from them, not diffs against them, not round summaries or dissents quoting them. The task plan,
 * the layout, phase timings and consensus numbers are coordination data and public. The operator
 * and admins see everything; everyone sees every turn once the session is over, when the log
 * reveals them (audience.ts seals each turn to exactly the seats that see it here).
 */

export interface DeliberationView {
  config: DeliberationConfig;
  status: Status;
  round: number;
  phase: Phase;
  step: Step;
  pass: number;
  deadline: number | null;
  you: { kind: 'debater' | 'operator' | 'observer' | 'admin'; seat: string | null; ready: boolean };
  layout: Layout;
  active: string[];
  waitingFor: string[];
  turns: Turn[];
  plan: Plan | null;
  phases: PhaseRecord[];
  rounds: Outcome[];
  outcome: Outcome | null;
  gates: GateRecord[];
  codeVersions: CodeVersion[];
  failure: DeliberationState['failure'];
  cancellation: DeliberationState['cancellation'];
}

export type LegalAction =
  | { type: 'clarify' | 'evolve' | 'red' | 'failed' | 'forfeit' | 'approve' | 'reject' | 'cancel' }
  | { type: 'plan'; style: 'cpde' | 'dpde'; seats: string[] }
  | { type: 'propose'; tasks: string[]; code: boolean; maxReflections: number }
  | { type: 'critique' | 'review'; candidates: string[] }
  | { type: 'optimize'; candidates: string[]; code: boolean; maxReflections: number }
  | { type: 'blue'; findings: string[]; maxReflections: number }
  | { type: 'converge'; candidates: string[] }
  | { type: 'measure'; versions: number[] };

function outcomeFor(o: Outcome, can: (seq: number) => boolean): Outcome {
  return {
    ...o,
    summary: o.summarySeq !== null && can(o.summarySeq) ? o.summary : null,
    dissents: o.dissents.filter((d) => can(d.seq)),
  };
}

export function viewOf(state: DeliberationState, viewer: Viewer): DeliberationView {
  const seat = viewer.kind === 'seat' ? viewer.seat : null;
  const debater = seat !== null && state.config.seats.some((s) => s.id === seat);
  // Once the session is over its end entry has revealed every turn to everyone (audience.ts).
  const all = viewer.kind === 'admin' || seat === OPERATOR || isOver(state);
  const canTurn = (t: Turn) => all || (debater && (t.seat === seat || t.audience.includes(seat)));
  const turns = state.turns.filter(canTurn);
  const seqs = new Set(turns.map((t) => t.seq));
  const can = (seq: number) => seqs.has(seq);
  const codeVersions = state.codeVersions
    .filter((v) => can(v.turnSeq))
    .map((v) => {
      const prev = state.codeVersions.find((p) => p.version === v.version - 1);
      return prev && !can(prev.turnSeq) ? { ...v, diff: null } : v;
    });
  const kind =
    viewer.kind === 'admin' ? 'admin' : seat === OPERATOR ? 'operator' : debater ? 'debater' : 'observer';
  const waitingFor = readyNow(state);
  return {
    config: state.config,
    status: state.status,
    round: state.round,
    phase: state.phase,
    step: state.step,
    pass: state.pass,
    deadline:
      state.status === 'paused'
        ? (state.gates.at(-1)?.deadline ?? null)
        : isOver(state)
          ? null
          : state.stepDeadline,
    you: {
      kind,
      seat: kind === 'observer' || kind === 'admin' ? null : seat,
      ready: seat !== null && waitingFor.includes(seat),
    },
    layout: state.layout,
    active: state.active,
    waitingFor,
    turns,
    plan: state.plan,
    phases: state.phases,
    rounds: state.rounds.map((o) => outcomeFor(o, can)),
    outcome: state.outcome && outcomeFor(state.outcome, can),
    gates: state.gates,
    codeVersions,
    failure: state.failure,
    cancellation: state.cancellation,
  };
}

export function legalFor(state: DeliberationState, seat: string): Legal<LegalAction> {
  if (isOver(state)) return { actions: [] };
  const cfg = state.config;
  const actions: LegalAction[] = [];
  if (state.status === 'paused' && cfg.gates.reviewers.includes(seat))
    actions.push({ type: 'approve' }, { type: 'reject' });
  if (seat === OPERATOR) actions.push({ type: 'cancel' });
  if (seat === OPERATOR && state.codeVersions.length)
    actions.push({ type: 'measure', versions: state.codeVersions.map((v) => v.version) });
  if (!state.active.includes(seat)) return { actions };
  const ready = readyNow(state).includes(seat);
  if (ready) {
    const kind = KIND_FOR_STEP[state.step](state.phase);
    const code = cfg.task.kind === 'code';
    const maxReflections = cfg.reflexion.maxAttempts;
    const candidates = visibleCandidates(state, seat);
    if (kind === 'plan') actions.push({ type: 'plan', style: styleOf(state), seats: state.active });
    else if (kind === 'propose')
      actions.push({
        type: 'propose',
        tasks: tasksFor(state.plan, seat).map((t) => t.id),
        code,
        maxReflections,
      });
    else if (kind === 'critique' || kind === 'review') actions.push({ type: kind, candidates });
    else if (kind === 'optimize') actions.push({ type: 'optimize', candidates, code, maxReflections });
    else if (kind === 'blue')
      actions.push({ type: 'blue', findings: visibleFindings(state, seat), maxReflections });
    else if (kind === 'converge') actions.push({ type: 'converge', candidates });
    else actions.push({ type: kind });
    actions.push({ type: 'failed' });
  }
  actions.push({ type: 'forfeit' });
  const turnToken = ready
    ? `${state.round}.${state.phase}.${state.pass}.${state.step}.${state.counter}`
    : undefined;
  return turnToken ? { actions, turnToken } : { actions };
}
