import type { Protocol } from '@db8/core';
import { type TableAction, TableActionSchema } from './actions.ts';
import { HOUSE_ROLE, type TableConfig, TableConfigSchema, tableSeats } from './config.ts';
import type { TableState } from './state.ts';
import { applyAction, tickTable } from './transitions.ts';
import { legalFor, nextDeadline, type TableView, viewOf } from './view.ts';

export interface TableResult {
  reason: 'house' | 'maxHands' | 'idle';
  hands: number;
  seats: Array<{ seat: number; stack: number; bought: number; net: number; handsPlayed: number }>;
}

/**
 * `poker`: a no-limit hold'em table (seed 002). Seats sit in, the table deals a hand whenever two
 * or more can play, the button moves a seat each hand, the seat to act has `actionTimeoutMs`
 * (then: check if free, else fold). Hand h's deck is the room seed's `poker/deck/h` shuffle; its
 * commitment is public from the deal, the deck and salt from the hand's end — in the view, and in
 * the log as entry notes (`{hand, deck_commitment}` on the deal, `{hand, deck, salt}` on the end;
 * see notes.ts). v2: entries carry those notes.
 */
export const poker: Protocol<TableConfig, TableState, TableAction, TableView, TableResult> = {
  name: 'poker',
  version: 2,
  configSchema: TableConfigSchema,
  actionSchema: TableActionSchema,
  seats: tableSeats,
  // The server holds the house seat (top-ups, stop); no client may join it.
  reservedRoles: [HOUSE_ROLE],
  // With no pause between hands the next deal is due with the action that ends a hand: same append.
  tickWithAction: true,

  setup(config, ctx) {
    return {
      config,
      seed: ctx.seed,
      counter: 0,
      seats: Array.from({ length: config.seats }, () => ({
        status: 'empty' as const,
        sitOutReason: null,
        stack: 0,
        bought: 0,
        pending: 0,
        timeouts: 0,
        handsPlayed: 0,
      })),
      button: -1,
      handsStarted: 0,
      hand: null,
      nextHandAt: null,
      recent: [],
      lastAction: null,
      stopped: false,
      stopReason: null,
      idleSince: null,
    };
  },

  apply: (state, { seat, action, now }) => applyAction(state, seat, action, now),
  tick: (state, now) => tickTable(state, now),
  deadline: nextDeadline,
  view: viewOf,
  legal: legalFor,
  result(state) {
    if (!state.stopped) return null;
    return {
      reason: state.stopReason ?? 'house',
      hands: state.handsStarted,
      seats: state.seats.map((s, seat) => ({
        seat,
        stack: s.stack,
        bought: s.bought,
        net: s.stack - s.bought,
        handsPlayed: s.handsPlayed,
      })),
    };
  },
  isOver: (state) => state.stopped,
};
