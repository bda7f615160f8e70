import type { Protocol } from '@db8/core';
import { type CouncilAction, CouncilActionSchema, reject } from './actions.ts';
import { type CouncilConfig, CouncilConfigSchema, councilSeats } from './config.ts';
import { OPERATOR, roleOfSeat } from './roles.ts';
import type { CouncilResult, CouncilState } from './state.ts';
import { applyAbort, applyTurn, applyWriteback, dueAt, logTransition, tickRun } from './transitions.ts';
import { type CouncilView, legalFor, viewOf } from './view.ts';

/**
 * `council` (seed 001): one question, five fixed roles, three fixed rounds, then consensus, a
 * verdict, a validated Final Packet and a decision writeback — the eight states in order, nothing
 * else. Model calls happen outside, in drivers; their outputs (or recorded failures) enter as
 * actions. No randomness; time only from `now`.
 */
export const council: Protocol<CouncilConfig, CouncilState, CouncilAction, CouncilView, CouncilResult> = {
  name: 'council',
  version: 1,
  configSchema: CouncilConfigSchema,
  actionSchema: CouncilActionSchema,
  seats: councilSeats,
  // The operator confirms the writeback or aborts the run: the asker's seat, given by the room's
  // admin (an invite for it), never a plain join's pick. The five roles are the council's players.
  privilegedRoles: [OPERATOR],

  setup(config, ctx) {
    const empty: CouncilState = {
      config,
      stage: 'Intake',
      status: 'running',
      counter: 0,
      openedAt: ctx.now,
      stageOpenedAt: ctx.now,
      stageDeadline: null,
      // Intake holds only the validated request; the first tick (due at once) opens Round1.
      readyAt: ctx.now,
      transitions: [],
      turns: [],
      revealed: [],
      consensus: null,
      packet: null,
      packetSha256: null,
      writeback: null,
      abort: null,
    };
    return logTransition(empty, 0, ctx.now, 'Intake', 'ok', null);
  },

  apply(state, { seat, action, now, seq }) {
    if (seat !== OPERATOR && !roleOfSeat(seat)) return reject('UNKNOWN_SEAT', `this run has no seat ${seat}`);
    if (state.status !== 'running') return reject('RUN_OVER', `the run is ${state.status}`);
    if (action.type === 'writeback') return applyWriteback(state, seat, action, now, seq);
    if (action.type === 'abort') return applyAbort(state, seat, action.error, now, seq);
    return applyTurn(state, seat, action, now, seq);
  },

  tick: tickRun,
  deadline: dueAt,
  view: viewOf,
  legal: legalFor,

  result(state) {
    if (state.status === 'running') return null;
    return {
      status: state.status,
      runId: state.config.runId,
      packetSha256: state.packetSha256,
      recordPath: state.writeback?.recordPath ?? null,
      abort: state.abort?.error ?? null,
    };
  },
  isOver: (state) => state.status !== 'running',
};
