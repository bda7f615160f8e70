import { dealDeck } from '../deck.ts';
import {
  checkOrCall,
  completeBetOrRaiseTo,
  fold,
  setup,
  verifyCompleteBetOrRaiseTo,
  verifyFold,
} from '../engine.ts';
import { type LegalActions, legalActions } from '../legal.ts';
import type { PokerState } from '../state.ts';
import { type BettingKind, reject, type TableRejectionCode } from './actions.ts';
import { engineConfigFor } from './export.ts';
import {
  type HandAction,
  type HandSummary,
  type LiveHand,
  RECENT_HANDS,
  type SeatState,
  type TableState,
} from './state.ts';

/**
 * A hand's life at the table: dealing it from the seeded deck, applying a betting action (the
 * engine enforces every rule), and settling it back into the table's stacks.
 */

export const STREETS = ['preflop', 'flop', 'turn', 'river'] as const;
export type Street = (typeof STREETS)[number];

const streetOf = (e: PokerState): Street => STREETS[e.street] ?? 'river';

/** Seats that can be dealt into the next hand, in seat order. */
export function eligibleSeats(s: TableState): number[] {
  const out: number[] = [];
  s.seats.forEach((seat, i) => {
    if (seat.status === 'active' && seat.stack + seat.pending > 0) out.push(i);
  });
  return out;
}

/** Keeps `nextHandAt` honest: set while two or more seats can play and no hand runs, else null. */
export function schedule(s: TableState, now: number, restart = false): TableState {
  let next: number | null = null;
  if (!s.stopped && s.hand === null && eligibleSeats(s).length >= s.config.minPlayers) {
    next = restart || s.nextHandAt === null ? now + s.config.handIntervalMs : s.nextHandAt;
  }
  return next === s.nextHandAt ? s : { ...s, nextHandAt: next };
}

/** A seat that left or was kicked: the table folds for it at its turn, without the timeout. */
export function isGone(seat: SeatState): boolean {
  return seat.sitOutReason === 'left' || seat.sitOutReason === 'kicked';
}

export function turnDeadline(s: TableState): number | null {
  const h = s.hand;
  if (!h || h.turnStartedAt === null || h.engine.phase !== 'betting') return null;
  const actor = seatToAct(s);
  if (actor !== null && isGone(s.seats[actor]!)) return h.turnStartedAt;
  return h.turnStartedAt + s.config.actionTimeoutMs;
}

/** When an idle table stops: every seat that sat in is out, for `idleStopMs` (null: not idle, or never). */
export function idleDeadline(s: TableState): number | null {
  if (s.stopped || s.config.idleStopMs === null || s.idleSince === null) return null;
  return s.idleSince + s.config.idleStopMs;
}

/** `idleSince` follows the seats: set when the last seat that sat in goes out, cleared when one is back. */
export function trackIdle(s: TableState, now: number): TableState {
  const out =
    s.hand === null &&
    s.seats.some((seat) => seat.status !== 'empty') &&
    !s.seats.some((seat) => seat.status === 'active');
  const since = out ? (s.idleSince ?? now) : null;
  return since === s.idleSince ? s : { ...s, idleSince: since };
}

/** The table seat to act now, or null. */
export function seatToAct(s: TableState): number | null {
  const h = s.hand;
  if (h?.engine.phase !== 'betting') return null;
  const actor = h.engine.queue[0];
  return actor === undefined ? null : (h.seats[actor] ?? null);
}

/** Deals hand `handsStarted + 1`: moves the button, posts, deals from the committed deck. */
export function startHand(s: TableState, now: number): { state: TableState; finished: boolean } {
  const { config } = s;
  const n = config.seats;
  const seats = s.seats.map((seat) => (seat.pending > 0 ? applyPending(seat) : seat));
  const live = eligibleSeats({ ...s, seats });
  // The button moves to the next seat (clockwise) that is dealt in.
  let button = live[0]!;
  for (let k = 1; k <= n; k++) {
    const i = (s.button + k + n) % n;
    if (live.includes(i)) {
      button = i;
      break;
    }
  }
  const order: number[] = [];
  for (let k = 1; k <= n; k++) {
    const i = (button + k) % n;
    if (live.includes(i)) order.push(i);
  }
  const number = s.handsStarted + 1;
  const { deck, salt, commitment } = dealDeck(s.seed, number);
  const k = order.length;
  const engine = setup(
    engineConfigFor(
      config,
      order.map((i) => seats[i]!.stack),
      deck,
    ),
  );
  const actions: HandAction[] = [];
  engine.antes.forEach((a, e) => {
    if (a > 0) actions.push({ seat: order[e]!, kind: 'ante', amount: a, street: 'preflop' });
  });
  // Heads-up the button (engine seat 1) posts the small blind; otherwise engine seats 0 and 1.
  const [sbSeat, bbSeat] = k === 2 ? [1, 0] : [0, 1];
  actions.push({ seat: order[sbSeat]!, kind: 'smallBlind', amount: engine.bets[sbSeat]!, street: 'preflop' });
  actions.push({ seat: order[bbSeat]!, kind: 'bigBlind', amount: engine.bets[bbSeat]!, street: 'preflop' });
  const hand: LiveHand = {
    number,
    commitment,
    salt,
    button,
    seats: order,
    engine,
    turnStartedAt: engine.phase === 'betting' ? now : null,
    startedAt: now,
    actions,
  };
  const started: TableState = {
    ...s,
    seats,
    button,
    handsStarted: number,
    hand,
    nextHandAt: null,
  };
  // Everyone all-in on the blinds: the engine ran the board out already.
  if (engine.phase === 'complete') return { state: finishHand(started, now, false), finished: true };
  return { state: started, finished: false };
}

function applyPending(seat: SeatState): SeatState {
  return { ...seat, stack: seat.stack + seat.pending, pending: 0 };
}

type Bet = { ok: true; engine: PokerState; amount?: number } | ReturnType<typeof reject>;

/** One betting decision by the engine seat to act; refusals carry what the seat could do instead. */
export function bet(e: PokerState, actor: number, kind: BettingKind, amount?: number): Bet {
  const la = legalActions(e);
  const options = legalDetails(la);
  switch (kind) {
    case 'fold': {
      const why = verifyFold(e, actor);
      if (why) return reject(why.code as TableRejectionCode, why.reason, options);
      return { ok: true, engine: fold(e, actor) };
    }
    case 'check':
      if (!la.check) return reject('CANNOT_CHECK', `${la.call} to call: call, raise or fold`, options);
      return { ok: true, engine: checkOrCall(e, actor) };
    case 'call':
      if (la.check) return reject('NOTHING_TO_CALL', 'nothing to call: check instead', options);
      return { ok: true, engine: checkOrCall(e, actor), amount: la.call };
    case 'raiseTo': {
      const to = amount ?? 0;
      const why = verifyCompleteBetOrRaiseTo(e, actor, to);
      if (why) return reject(why.code as TableRejectionCode, why.reason, options);
      return { ok: true, engine: completeBetOrRaiseTo(e, actor, to), amount: to };
    }
  }
}

function legalDetails(la: LegalActions): Record<string, unknown> {
  return {
    check: la.check,
    call: la.call,
    raise: la.raise ? { min: la.raise.min, max: la.raise.max } : null,
  };
}

/** Applies a betting action for the table seat to act; settles the hand if it ended. */
export function playBet(
  s: TableState,
  seat: number,
  kind: BettingKind,
  amount: number | undefined,
  now: number,
  auto: boolean,
): { ok: true; state: TableState; ended: boolean } | ReturnType<typeof reject> {
  const h = s.hand!;
  const actor = h.seats.indexOf(seat);
  const r = bet(h.engine, actor, kind, amount);
  if (!r.ok) return r;
  const act: HandAction = { seat, kind, street: streetOf(h.engine) };
  if (r.amount !== undefined) act.amount = r.amount;
  if (auto) act.auto = true;
  const hand: LiveHand = {
    ...h,
    engine: r.engine,
    turnStartedAt: r.engine.phase === 'betting' ? now : null,
    actions: [...h.actions, act],
  };
  const last = { seat, kind, at: now, ...(r.amount !== undefined ? { amount: r.amount } : {}) };
  const next: TableState = { ...s, hand, lastAction: auto ? { ...last, auto: true } : last };
  if (r.engine.phase === 'complete') return { ok: true, state: finishHand(next, now, false), ended: true };
  return { ok: true, state: next, ended: false };
}

/**
 * Settles the hand into the table: stacks (plus top-ups that waited), busted seats sit out, the
 * summary (with the deck and salt revealed) joins `recent`. `cancelled` calls the hand off and
 * returns every chip to where it was when the hand began.
 */
export function finishHand(s: TableState, now: number, cancelled: boolean): TableState {
  const h = s.hand!;
  const e = h.engine;
  const start = e.config.startingStacks;
  const end = cancelled ? start.slice() : e.stacks.slice();
  const seats = s.seats.slice();
  h.seats.forEach((t, i) => {
    const prev = seats[t]!;
    const stack = end[i]! + prev.pending;
    const busted = stack === 0;
    seats[t] = {
      ...prev,
      stack,
      pending: 0,
      handsPlayed: prev.handsPlayed + 1,
      ...(busted ? { status: 'sittingOut' as const, sitOutReason: 'busted' as const } : {}),
    };
  });
  const summary: HandSummary = {
    number: h.number,
    button: h.button,
    seats: h.seats.slice(),
    startStacks: start.slice(),
    endStacks: end,
    board: e.board.slice(),
    shown: cancelled
      ? []
      : h.seats.flatMap((t, i) => (e.shows[i] === 'shown' ? [{ seat: t, cards: e.hole[i]!.slice() }] : [])),
    pots: cancelled
      ? []
      : (e.pots ?? []).map((p) => ({
          amount: p.amount,
          winners: p.winners.map((w) => h.seats[w]!),
          shares: p.shares.slice(),
        })),
    net: end.map((x, i) => x - start[i]!),
    actions: h.actions,
    log: e.log.slice(),
    commitment: h.commitment,
    deck: e.config.deck ? e.config.deck.slice() : [],
    salt: h.salt,
    cancelled,
    startedAt: h.startedAt,
    endedAt: now,
  };
  const maxed = s.config.maxHands !== null && h.number >= s.config.maxHands;
  const done: TableState = {
    ...s,
    seats,
    hand: null,
    recent: [...s.recent, summary].slice(-RECENT_HANDS),
    stopped: s.stopped || maxed,
    stopReason: s.stopReason ?? (maxed ? 'maxHands' : null),
    nextHandAt: null,
  };
  return schedule(done, now, true);
}

/** Every chip at the table: stacks behind, pending top-ups, and the chips in the hand. */
export function tableChips(s: TableState): number {
  let total = 0;
  const inHand = new Set(s.hand?.seats ?? []);
  s.seats.forEach((seat, i) => {
    total += seat.pending;
    if (!inHand.has(i)) total += seat.stack;
  });
  const e = s.hand?.engine;
  if (e) {
    for (const x of e.stacks) total += x;
    for (const x of e.bets) total += x;
    if (e.phase !== 'complete') for (const x of [...e.committed, ...e.antes]) total += x;
  }
  return total;
}

/** Chips given to the table (buy-ins and top-ups): tableChips always equals this. */
export function chipsBought(s: TableState): number {
  return s.seats.reduce((t, seat) => t + seat.bought, 0);
}
