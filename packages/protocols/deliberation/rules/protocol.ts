import { createRng, type Protocol } from '@db8/core';
import { type DeliberationAction, DeliberationActionSchema } from './actions.ts';
import { sealAction, sealTick } from './audience.ts';
import { type DeliberationConfig, DeliberationConfigSchema, deliberationSeats, OPERATOR } from './config.ts';
import { openPhase } from './phases.ts';
import { type DeliberationState, isOver, type Outcome } from './state.ts';
import { buildLayout } from './topology.ts';
import { applyAction, deadlineOf, tickAt } from './transitions.ts';
import { type DeliberationView, legalFor, viewOf } from './view.ts';

export interface DeliberationResult {
  status: 'completed' | 'failed' | 'cancelled';
  sessionId: string;
  rounds: number;
  finalConsensus: number | null;
  outcome: Outcome | null;
  failure: DeliberationState['failure'];
  cancellation: DeliberationState['cancellation'];
}

/**
 * `deliberation` (seed 004): orchestrated multi-seat deliberation — topologies that restrict who
 * sees and speaks, cpde/dpde/adaptive coordination, eight phases per round, consensus and voting,
 * approval gates, code versions and reflexion. Model calls happen in drivers; their outputs (or
 * recorded failures) enter as actions. Time only from `now`; randomness only from the room seed
 * (the tie-break lottery, drawn once at setup).
 */
export const deliberation: Protocol<
  DeliberationConfig,
  DeliberationState,
  DeliberationAction,
  DeliberationView,
  DeliberationResult
> = {
  name: 'deliberation',
  version: 1,
  configSchema: DeliberationConfigSchema,
  actionSchema: DeliberationActionSchema,
  seats: deliberationSeats,
  /** The operator records sandbox measurements and decides gates: given by the room's admin, never taken. */
  privilegedRoles: [OPERATOR],

  setup(config, ctx) {
    const lottery = createRng(ctx.seed, 'deliberation/lottery').shuffle(config.seats.map((s) => s.id).sort());
    const empty: DeliberationState = {
      config,
      status: 'running',
      round: 1,
      phase: 'dehallucination',
      step: 'answer',
      pass: 1,
      stepOpenedAt: ctx.now,
      stepDeadline: null,
      sessionDeadline: ctx.now + config.timeoutMs,
      lottery,
      active: config.seats.map((s) => s.id),
      forfeits: [],
      layout: buildLayout(config.topology, config.seats, lottery, config.treeBranching),
      turns: [],
      plan: null,
      signals: null,
      phases: [],
      rounds: [],
      outcome: null,
      gates: [],
      codeVersions: [],
      failure: null,
      cancellation: null,
      sealedSeqs: [],
      counter: 0,
    };
    return openPhase(empty, 'dehallucination', ctx.now);
  },

  apply: (state, input) => sealAction(state, input, applyAction(state, input)),
  tick: (state, now, seq) => sealTick(state, tickAt(state, now, seq)),
  deadline: deadlineOf,
  view: viewOf,
  legal: legalFor,

  result(state) {
    if (!isOver(state)) return null;
    return {
      status: state.status as DeliberationResult['status'],
      sessionId: state.config.sessionId,
      rounds: state.round,
      finalConsensus: state.outcome?.confidence ?? null,
      outcome: state.outcome,
      failure: state.failure,
      cancellation: state.cancellation,
    };
  },
  isOver,
};
