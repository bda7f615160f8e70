import type { ApplyResult, Transition } from '@db8/core';
import { legalActions } from '../legal.ts';
import { BETTING_KINDS, type BettingKind, reject, type TableAction } from './actions.ts';
import { HOUSE, seatIndex } from './config.ts';
import {
  finishHand,
  idleDeadline,
  isGone,
  playBet,
  schedule,
  seatToAct,
  startHand,
  trackIdle,
  turnDeadline,
} from './hand.ts';
import { handNote } from './notes.ts';
import type { SeatState, TableState } from './state.ts';

/**
 * The table's transitions. Every accepted input bumps `counter` (turn tokens derive from it) and
 * re-derives `nextHandAt`; a finished hand asks for a signed checkpoint (`hand-N`).
 */

export function turnTokenOf(s: TableState, seat: number): string {
  return `h${s.hand?.number ?? 0}.${s.counter}.${seat}`;
}

function done(prev: TableState, s: TableState, now: number, milestone?: string): Transition<TableState> {
  const state = trackIdle(schedule({ ...s, counter: s.counter + 1 }, now), now);
  const note = handNote(prev, state);
  return { state, ...(milestone ? { milestone } : {}), ...(note ? { note } : {}) };
}

const handMilestone = (s: TableState) => `hand-${s.recent.at(-1)?.number ?? 0}`;

export function applyAction(
  s: TableState,
  seat: string,
  action: TableAction,
  now: number,
): ApplyResult<TableState> {
  if (s.stopped) return reject('TABLE_STOPPED', 'the table has stopped');
  if (seat === HOUSE) return applyHouse(s, action, now);
  const i = seatIndex(s.config, seat);
  if (i < 0) return reject('UNKNOWN_SEAT', `this table has no seat ${seat}`);
  if (action.kind === 'topUp' || action.kind === 'stop')
    return reject('HOUSE_ONLY', 'only the house may do that');
  if (action.kind === 'kick') return reject('HOUSE_ONLY', 'only the house may do that');
  if ((BETTING_KINDS as readonly string[]).includes(action.kind)) {
    return applyBet(s, i, action as Extract<TableAction, { kind: BettingKind }>, now);
  }
  if (action.kind === 'leave') return leaveSeat(s, i, 'left', now);
  const cur = s.seats[i]!;
  let next: SeatState;
  if (action.kind === 'sitIn') {
    if (cur.sitOutReason === 'kicked') return reject('KICKED', 'the house removed you from this table');
    if (cur.status === 'active') return reject('ALREADY_SITTING', 'you are already sitting in');
    if (cur.status === 'empty') {
      const buy = s.config.startingStack;
      next = {
        ...cur,
        status: 'active',
        sitOutReason: null,
        stack: buy,
        bought: cur.bought + buy,
        timeouts: 0,
      };
    } else {
      if (cur.stack + cur.pending === 0) return reject('BUSTED', 'no chips left: ask the house for a top-up');
      next = { ...cur, status: 'active', sitOutReason: null, timeouts: 0 };
    }
  } else {
    if (cur.status !== 'active') return reject('ALREADY_OUT', 'you are not sitting in');
    next = { ...cur, status: 'sittingOut', sitOutReason: 'self' };
  }
  return { ok: true, ...done(s, withSeat(s, i, next), now) };
}

/**
 * Leave (or be kicked): out from now on, and a hand the seat is still in is folded for it at its
 * turn — at once if that is now — instead of waiting out the action timeout.
 */
function leaveSeat(
  s: TableState,
  i: number,
  reason: 'left' | 'kicked',
  now: number,
): ApplyResult<TableState> {
  const cur = s.seats[i];
  if (!cur) return reject('UNKNOWN_SEAT', `this table has no seat ${i}`);
  if (cur.status === 'empty') return reject('EMPTY_SEAT', `seat ${i} has never sat in`);
  if (cur.sitOutReason === reason)
    return reject('ALREADY_OUT', `seat ${i} has already ${reason === 'left' ? 'left' : 'been kicked'}`);
  const state = withSeat(s, i, { ...cur, status: 'sittingOut', sitOutReason: reason });
  if (seatToAct(state) === i) {
    const r = playBet(state, i, 'fold', undefined, now, true);
    if (r.ok) return { ok: true, ...done(s, r.state, now, r.ended ? handMilestone(r.state) : undefined) };
  }
  return { ok: true, ...done(s, state, now) };
}

function withSeat(s: TableState, i: number, seat: SeatState): TableState {
  const seats = s.seats.slice();
  seats[i] = seat;
  return { ...s, seats };
}

function applyBet(
  s: TableState,
  i: number,
  action: Extract<TableAction, { kind: BettingKind }>,
  now: number,
): ApplyResult<TableState> {
  const h = s.hand;
  if (!h) return reject('NO_HAND', 'no hand is being played');
  if (!h.seats.includes(i)) return reject('NOT_IN_HAND', 'you were not dealt into this hand');
  const actor = seatToAct(s);
  if (actor !== i) return reject('NOT_YOUR_TURN', `seat ${actor} is to act`, { toAct: actor });
  if (action.turnToken !== undefined && action.turnToken !== turnTokenOf(s, i)) {
    return reject('BAD_TURN_TOKEN', 'that turn token is not the current one');
  }
  const deadline = turnDeadline(s);
  // Late input is refused as if the timeout had already been ticked.
  if (deadline !== null && now >= deadline) return reject('TURN_EXPIRED', 'your time to act ran out');
  const amount = action.kind === 'raiseTo' ? action.amount : undefined;
  const r = playBet(s, i, action.kind, amount, now, false);
  if (!r.ok) return r;
  const seats = r.state.seats.slice();
  seats[i] = { ...seats[i]!, timeouts: 0 };
  const state = { ...r.state, seats };
  return { ok: true, ...done(s, state, now, r.ended ? handMilestone(state) : undefined) };
}

function applyHouse(s: TableState, action: TableAction, now: number): ApplyResult<TableState> {
  if (action.kind === 'stop') {
    const ended = s.hand ? finishHand(s, now, true) : s;
    return { ok: true, ...done(s, { ...ended, stopped: true, stopReason: 'house', nextHandAt: null }, now) };
  }
  if (action.kind === 'kick') return leaveSeat(s, action.seat, 'kicked', now);
  if (action.kind !== 'topUp') return reject('PLAYERS_ONLY', 'the house does not play');
  const i = action.seat;
  const cur = s.seats[i];
  if (!cur) return reject('UNKNOWN_SEAT', `this table has no seat ${i}`);
  if (cur.status === 'empty') return reject('EMPTY_SEAT', `seat ${i} has never sat in`);
  const inHand = s.hand?.seats.includes(i) ?? false;
  let next: SeatState = {
    ...cur,
    bought: cur.bought + action.amount,
    ...(inHand ? { pending: cur.pending + action.amount } : { stack: cur.stack + action.amount }),
  };
  // A seat that sat out because it went broke plays again once it has chips.
  if (next.sitOutReason === 'busted') next = { ...next, status: 'active', sitOutReason: null };
  return { ok: true, ...done(s, withSeat(s, i, next), now) };
}

/** Deadlines: the seat to act timed out (check if free, else fold), or the next hand is due. */
export function tickTable(s: TableState, now: number): Transition<TableState> | null {
  if (s.stopped) return null;
  const deadline = turnDeadline(s);
  if (deadline !== null) {
    if (now < deadline) return null;
    const seat = seatToAct(s)!;
    // A seat that left folds; one that is only slow checks when that is free.
    const free = legalActions(s.hand!.engine).check && !isGone(s.seats[seat]!);
    const r = playBet(s, seat, free ? 'check' : 'fold', undefined, now, true);
    if (!r.ok) return null; // unreachable: the default move is always legal
    const prev = r.state.seats[seat]!;
    const timeouts = prev.timeouts + 1;
    const limit = s.config.maxConsecutiveTimeouts;
    const out = limit !== null && timeouts >= limit && prev.status === 'active';
    const seats = r.state.seats.slice();
    seats[seat] = out
      ? { ...prev, timeouts, status: 'sittingOut', sitOutReason: 'timeouts' }
      : { ...prev, timeouts };
    const state = { ...r.state, seats };
    return done(s, state, now, r.ended ? handMilestone(state) : undefined);
  }
  const idleAt = idleDeadline(s);
  if (!s.hand && idleAt !== null && now >= idleAt) {
    return done(s, { ...s, stopped: true, stopReason: 'idle', nextHandAt: null }, now);
  }
  if (s.hand || s.nextHandAt === null || now < s.nextHandAt) return null;
  const { state, finished } = startHand(s, now);
  return done(s, state, now, finished ? handMilestone(state) : undefined);
}
