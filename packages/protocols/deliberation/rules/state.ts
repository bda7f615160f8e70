import type { Step, TurnAction } from './actions.ts';
import type { CodeVersion } from './code.ts';
import type { DeliberationConfig, Phase, Role, SeatSpec, VotingMethod } from './config.ts';
import type { ConsensusScore } from './consensus.ts';
import type { Plan, Signals } from './coordination.ts';
import type { Layout } from './topology.ts';

/** A deliberation's state: plain JSON, folded from the room log (replay reproduces it exactly). */

export const STATUSES = ['running', 'paused', 'completed', 'failed', 'cancelled'] as const;
export type Status = (typeof STATUSES)[number];

export interface Turn {
  seq: number;
  at: number;
  round: number;
  phase: Phase;
  pass: number;
  step: Step;
  seat: string;
  role: Role;
  provider: string;
  model: string;
  /** The accepted action as sent (a `failed` one for a failed call or a missed deadline). */
  action: TurnAction;
  /** The seats allowed to read this turn besides its author, fixed when it was made. */
  audience: string[];
  codeVersion: number | null;
}

export interface PhaseRecord {
  round: number;
  phase: Phase;
  passes: number;
  openedAt: number;
  closedAt: number | null;
  /** Why the phase did not run (`disabled`, `confident`), else null. */
  skipped: string | null;
  consensus: ConsensusScore | null;
}

/** A phase as summaries show it (REST results, the storage projection, the CLI report). */
export function phaseSummary(p: PhaseRecord) {
  return {
    round: p.round,
    phase: p.phase,
    passes: p.passes,
    skipped: p.skipped,
    consensus: p.consensus?.score ?? null,
  };
}

export interface Dissent {
  seat: string;
  choice: string | null;
  reason: string;
  /** The convergence turn it comes from (views show it only to that turn's audience). */
  seq: number;
}

export interface Outcome {
  round: number;
  winner: string | null;
  method: VotingMethod;
  confidence: number;
  summary: string | null;
  /** The winner's proposal turn, which `summary` quotes. */
  summarySeq: number | null;
  dissents: Dissent[];
  voteBreakdown: Record<string, number>;
  tieBroken: boolean;
  via: string | null;
  reachedConsensus: boolean;
  /** Code tasks with tests: proposal authors left out of the vote because their code failed (or was never measured passing). */
  failingTests: string[];
  /** Every proposal's code failed its tests: no winner, and the session ends `failed` (`NO_PASSING_CODE`). */
  noPassingCode: boolean;
}

export interface GateRecord {
  round: number;
  phase: Phase;
  openedAt: number;
  deadline: number;
  decision: 'approve' | 'reject' | null;
  by: string | null;
  reason: string | null;
  decidedAt: number | null;
}

export interface DeliberationState {
  config: DeliberationConfig;
  status: Status;
  round: number;
  phase: Phase;
  step: Step;
  pass: number;
  stepOpenedAt: number;
  stepDeadline: number | null;
  /** When the session times out; moved on by the time spent paused. */
  sessionDeadline: number;
  /** Seat ids in the room's seeded order: the last tie-break everywhere. */
  lottery: string[];
  active: string[];
  forfeits: { seat: string; reason: string; at: number; seq: number }[];
  layout: Layout;
  turns: Turn[];
  plan: Plan | null;
  signals: Signals | null;
  phases: PhaseRecord[];
  rounds: Outcome[];
  outcome: Outcome | null;
  gates: GateRecord[];
  codeVersions: CodeVersion[];
  failure: { code: string; message: string } | null;
  cancellation: { by: string; reason: string } | null;
  /** Seqs of the entries sealed to an audience (turns, their measurements), revealed at the end. */
  sealedSeqs: number[];
  counter: number;
}

export function specOf(state: DeliberationState, seat: string): SeatSpec | undefined {
  return state.config.seats.find((s) => s.id === seat);
}

export function activeSpecs(state: DeliberationState): SeatSpec[] {
  return state.config.seats.filter((s) => state.active.includes(s.id));
}

export const isOver = (state: DeliberationState) => state.status !== 'running' && state.status !== 'paused';
