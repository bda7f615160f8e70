import type { Legal, Viewer } from '@db8/core';
import { z } from 'zod';
import { UNKNOWN_CARD } from '../cards.ts';
import { legalActions } from '../legal.ts';
import { HOUSE, seatIndex } from './config.ts';
import { idleDeadline, STREETS, seatToAct, turnDeadline } from './hand.ts';
import {
  HandActionSchema,
  HandSummarySchema,
  LastActionSchema,
  SeatStatusSchema,
  SitOutReasonSchema,
  type TableState,
} from './state.ts';
import { turnTokenOf } from './transitions.ts';

/**
 * What one viewer may see. The single secrecy rule: a hole card is shown only to its own seat, to
 * admins, and to everyone once the engine has shown that hand (showdown). The deck and its salt
 * appear only in finished hands' summaries (revealed at hand end); the room seed never appears.
 */

const int = z.number().int();

export const TableSeatViewSchema = z.object({
  seat: int,
  id: z.string(),
  status: SeatStatusSchema,
  sitOutReason: SitOutReasonSchema.nullable(),
  /** Chips behind now (in a hand: what is not yet bet). */
  stack: int,
  /** Chips bet on this street. */
  bet: int,
  inHand: z.boolean(),
  folded: z.boolean(),
  allIn: z.boolean(),
  /** Two cards ('??' when hidden) for a seat in the hand, else null. */
  hole: z.array(z.string()).nullable(),
  bought: int,
  timeouts: int,
  handsPlayed: int,
});

export const HandViewSchema = z.object({
  number: int,
  commitment: z.string(),
  button: int,
  smallBlindSeat: int,
  bigBlindSeat: int,
  street: z.enum([...STREETS, 'showdown', 'complete']),
  board: z.array(z.string()),
  /** Chips in the middle: earlier streets plus this street's bets. */
  pot: int,
  toAct: int.nullable(),
  turnDeadline: int.nullable(),
  actions: z.array(HandActionSchema),
});

export const TableViewSchema = z.object({
  config: z.object({
    seats: int,
    smallBlind: int,
    bigBlind: int,
    ante: int,
    startingStack: int,
    actionTimeoutMs: int,
    handIntervalMs: int,
    maxHands: int.nullable(),
    minPlayers: int,
  }),
  status: z.enum(['waiting', 'playing', 'between', 'stopped']),
  you: z.object({ kind: z.enum(['player', 'house', 'observer', 'admin']), seat: int.nullable() }),
  handsStarted: int,
  button: int,
  nextHandAt: int.nullable(),
  deadline: int.nullable(),
  seats: z.array(TableSeatViewSchema),
  hand: HandViewSchema.nullable(),
  /** Finished hands, newest last (deck and salt revealed). */
  recent: z.array(HandSummarySchema),
  lastAction: LastActionSchema.nullable(),
  stopReason: z.enum(['house', 'maxHands', 'idle']).nullable(),
});
export type TableView = z.infer<typeof TableViewSchema>;
export type TableSeatView = z.infer<typeof TableSeatViewSchema>;
export type HandView = z.infer<typeof HandViewSchema>;

export const LegalTableActionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('fold') }),
  z.object({ kind: z.literal('check') }),
  /** `amount`: the chips calling costs (capped at the stack: all-in for less). */
  z.object({ kind: z.literal('call'), amount: int }),
  /** Raise-to bounds for this street (`max` is all-in). */
  z.object({ kind: z.literal('raiseTo'), min: int, max: int }),
  z.object({ kind: z.literal('sitIn') }),
  z.object({ kind: z.literal('sitOut') }),
  z.object({ kind: z.literal('leave') }),
  z.object({ kind: z.literal('topUp') }),
  z.object({ kind: z.literal('kick') }),
  z.object({ kind: z.literal('stop') }),
]);
export type LegalTableAction = z.infer<typeof LegalTableActionSchema>;

function you(s: TableState, viewer: Viewer): TableView['you'] {
  if (viewer.kind === 'admin') return { kind: 'admin', seat: null };
  if (viewer.kind === 'seat') {
    if (viewer.seat === HOUSE) return { kind: 'house', seat: null };
    const i = seatIndex(s.config, viewer.seat);
    if (i >= 0) return { kind: 'player', seat: i };
  }
  return { kind: 'observer', seat: null };
}

export function viewOf(s: TableState, viewer: Viewer): TableView {
  const me = you(s, viewer);
  const h = s.hand;
  const e = h?.engine;
  const mayRead = (engineSeat: number, tableSeat: number) =>
    me.kind === 'admin' || me.seat === tableSeat || e?.shows[engineSeat] === 'shown';
  const seats = s.seats.map((seat, i) => {
    const k = h ? h.seats.indexOf(i) : -1;
    const inHand = e !== undefined && k >= 0;
    return {
      seat: i,
      id: `seat_${i}`,
      status: seat.status,
      sitOutReason: seat.sitOutReason,
      stack: inHand ? e.stacks[k]! : seat.stack,
      bet: inHand ? e.bets[k]! : 0,
      inHand,
      folded: inHand ? e.folded[k]! : false,
      allIn: inHand ? e.stacks[k] === 0 && !e.folded[k] : false,
      hole: inHand ? (mayRead(k, i) ? e.hole[k]!.slice() : e.hole[k]!.map(() => UNKNOWN_CARD)) : null,
      bought: seat.bought,
      timeouts: seat.timeouts,
      handsPlayed: seat.handsPlayed,
    };
  });
  let hand: TableView['hand'] = null;
  if (h && e) {
    const k = h.seats.length;
    const pot = [...e.committed, ...e.antes, ...e.bets].reduce((a, b) => a + b, 0);
    hand = {
      number: h.number,
      commitment: h.commitment,
      button: h.button,
      smallBlindSeat: h.seats[k === 2 ? 1 : 0]!,
      bigBlindSeat: h.seats[k === 2 ? 0 : 1]!,
      street: e.phase === 'showdown' || e.phase === 'complete' ? e.phase : STREETS[e.street]!,
      board: e.board.slice(),
      pot,
      toAct: seatToAct(s),
      turnDeadline: turnDeadline(s),
      actions: h.actions,
    };
  }
  const c = s.config;
  return {
    config: {
      seats: c.seats,
      smallBlind: c.smallBlind,
      bigBlind: c.bigBlind,
      ante: c.ante,
      startingStack: c.startingStack,
      actionTimeoutMs: c.actionTimeoutMs,
      handIntervalMs: c.handIntervalMs,
      maxHands: c.maxHands,
      minPlayers: c.minPlayers,
    },
    status: s.stopped ? 'stopped' : h ? 'playing' : s.handsStarted > 0 ? 'between' : 'waiting',
    you: me,
    handsStarted: s.handsStarted,
    button: s.button,
    nextHandAt: s.nextHandAt,
    deadline: nextDeadline(s),
    seats,
    hand,
    recent: s.recent,
    lastAction: s.lastAction,
    stopReason: s.stopReason,
  };
}

export function nextDeadline(s: TableState): number | null {
  if (s.stopped) return null;
  if (s.hand) return turnDeadline(s);
  const idle = idleDeadline(s);
  if (s.nextHandAt === null) return idle;
  return idle === null ? s.nextHandAt : Math.min(idle, s.nextHandAt);
}

/** Legal moves for `seat`; betting actions and the turn token only for the seat to act. */
export function legalFor(s: TableState, seat: string): Legal<LegalTableAction> {
  if (s.stopped) return { actions: [] };
  if (seat === HOUSE) return { actions: [{ kind: 'topUp' }, { kind: 'kick' }, { kind: 'stop' }] };
  const i = seatIndex(s.config, seat);
  if (i < 0) return { actions: [] };
  if (seatToAct(s) === i) {
    const la = legalActions(s.hand!.engine);
    const actions: LegalTableAction[] = [];
    // Folding when checking is free is accepted but not offered: it only gives a hand away, and
    // agents that pick any listed kind would do it.
    if (la.fold && !la.check) actions.push({ kind: 'fold' });
    actions.push(la.check ? { kind: 'check' } : { kind: 'call', amount: la.call });
    if (la.raise) actions.push({ kind: 'raiseTo', min: la.raise.min, max: la.raise.max });
    return { actions, turnToken: turnTokenOf(s, i) };
  }
  const st = s.seats[i]!;
  if (st.sitOutReason === 'kicked') return { actions: [] };
  const leave: LegalTableAction[] = st.status === 'empty' ? [] : [{ kind: 'leave' }];
  return { actions: [st.status === 'active' ? { kind: 'sitOut' } : { kind: 'sitIn' }, ...leave] };
}
