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

/** What every viewer of one state sees alike: all but `you` and the hole cards a viewer may read. */
interface SharedView {
  /** The view with every hole card hidden (an observer's), `you` aside. */
  base: Omit<TableView, 'you'>;
  /** Per table seat: its hole in the engine, when that seat is in the hand (else null). */
  holes: Array<readonly string[] | null>;
}

// Each state is viewed by every seat of its table after each append: the shared part is built once
// per state (states are immutable values, so a state's view cannot go stale) and each viewer's view
// differs only in `you` and the rows whose cards it may read (its own; admins all).
const shared = new WeakMap<TableState, SharedView>();

function sharedView(s: TableState): SharedView {
  let v = shared.get(s);
  if (v) return v;
  const h = s.hand;
  const e = h?.engine;
  const seats: TableSeatView[] = [];
  const holes: Array<readonly string[] | null> = [];
  for (let i = 0; i < s.seats.length; i++) {
    const seat = s.seats[i]!;
    const k = h ? h.seats.indexOf(i) : -1;
    const inHand = e !== undefined && k >= 0;
    const hole = inHand ? e.hole[k]! : null;
    holes.push(hole);
    seats.push({
      seat: i,
      id: `seat_${i}`,
      status: seat.status,
      sitOutReason: seat.sitOutReason,
      stack: inHand ? e.stacks[k]! : seat.stack,
      bet: inHand ? e.bets[k]! : 0,
      inHand,
      folded: inHand ? e.folded[k]! : false,
      allIn: inHand ? e.stacks[k] === 0 && !e.folded[k] : false,
      // Shown hands (showdown) are everyone's to read; any other hole card is hidden here.
      hole: hole === null ? null : e?.shows[k] === 'shown' ? hole.slice() : hole.map(hidden),
      bought: seat.bought,
      timeouts: seat.timeouts,
      handsPlayed: seat.handsPlayed,
    });
  }
  let hand: TableView['hand'] = null;
  if (h && e) {
    const k = h.seats.length;
    let pot = 0;
    for (const chips of [e.committed, e.antes, e.bets]) for (const c of chips) pot += c;
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
  v = {
    base: {
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
      handsStarted: s.handsStarted,
      button: s.button,
      nextHandAt: s.nextHandAt,
      deadline: nextDeadline(s),
      seats,
      hand,
      recent: s.recent,
      lastAction: s.lastAction,
      stopReason: s.stopReason,
    },
    holes,
  };
  shared.set(s, v);
  return v;
}

function hidden(): string {
  return UNKNOWN_CARD;
}

/** `row` showing its own hole cards (a copy: views never alias the state's arrays). */
function revealed(row: TableSeatView, hole: readonly string[]): TableSeatView {
  return { ...row, hole: hole.slice() };
}

export function viewOf(s: TableState, viewer: Viewer): TableView {
  const me = you(s, viewer);
  const { base, holes } = sharedView(s);
  let seats = base.seats;
  if (me.kind === 'admin') {
    seats = base.seats.map((row, i) => (holes[i] ? revealed(row, holes[i]!) : row));
  } else if (me.seat !== null && holes[me.seat]) {
    seats = base.seats.slice();
    seats[me.seat] = revealed(seats[me.seat]!, holes[me.seat]!);
  }
  return {
    config: base.config,
    status: base.status,
    you: me,
    handsStarted: base.handsStarted,
    button: base.button,
    nextHandAt: base.nextHandAt,
    deadline: base.deadline,
    seats,
    hand: base.hand,
    recent: base.recent,
    lastAction: base.lastAction,
    stopReason: base.stopReason,
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
