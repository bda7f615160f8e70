// Public operations, PokerKit style: for each X a `verifyX` (undefined or a PokerError saying why not),
// a `canX` (boolean) and `X` (returns a new state; throws PokerRuleError when not allowed). States are
// never mutated: every operation copies the small per-seat arrays and changes the copy.
import { isCard, UNKNOWN_CARD } from './cards.ts';
import { checkConfig } from './config.ts';
import {
  afterDeal,
  BOARD_AT,
  checkShowdown,
  contenders,
  draft,
  effectiveStack,
  endBetting,
  holeKnown,
  initialState,
  liveCount,
  maxOf,
  resolved,
  seatName,
  settle,
  showdownOrder,
} from './flow.ts';
import {
  err,
  type PokerAction,
  type PokerConfigInput,
  type PokerError,
  PokerRuleError,
  type PokerState,
} from './state.ts';

function ensure(e: PokerError | undefined): void {
  if (e) throw new PokerRuleError(e);
}

/** Starts a hand: validates the table, posts antes and blinds, and deals if the config has a deck. */
export function setup(config: PokerConfigInput): PokerState {
  const checked = checkConfig(config);
  if ('code' in checked) throw new PokerRuleError(checked);
  return initialState(checked);
}

function checkSeat(s: PokerState, seat: number): PokerError | undefined {
  if (!Number.isInteger(seat) || seat < 0 || seat >= s.stacks.length)
    return err('NO_SUCH_SEAT', `seat ${seat} is not at this table`);
  return undefined;
}

function checkActor(s: PokerState, seat: number): PokerError | undefined {
  if (s.phase === 'complete') return err('HAND_COMPLETE', 'the hand is over');
  const bad = checkSeat(s, seat);
  if (bad) return bad;
  if (s.phase !== 'betting') return err('WRONG_PHASE', `no betting now (phase ${s.phase})`);
  if (s.queue[0] !== seat)
    return err('NOT_YOUR_TURN', `${seatName(s.queue[0]!)} is to act, not ${seatName(seat)}`);
  return undefined;
}

/** Known cards must be distinct from each other and from every known card already out. */
function checkNewCards(s: PokerState, cards: readonly string[], replacing?: number): PokerError | undefined {
  const seen = new Set<string>();
  for (const c of s.board) seen.add(c);
  s.hole.forEach((h, i) => {
    if (i !== replacing) for (const c of h) seen.add(c);
  });
  for (const c of cards) {
    if (c === UNKNOWN_CARD) continue;
    if (!isCard(c)) return err('BAD_CARDS', `not a card: ${String(c)}`);
    if (seen.has(c)) return err('DUPLICATE_CARD', `${c} is already out`);
    seen.add(c);
  }
  return undefined;
}

// ── dealing ────────────────────────────────────────────────────────────────────────────────────────

/** Hole cards go to the seat with the most still to come (lowest seat first), one or two at a time. */
export function holeDealee(s: PokerState): number | null {
  if (s.phase !== 'deal' || s.street !== 0) return null;
  let seat: number | null = null;
  let most = 0;
  s.hole.forEach((h, i) => {
    if (2 - h.length > most) {
      most = 2 - h.length;
      seat = i;
    }
  });
  return seat;
}

export function verifyDealHole(
  s: PokerState,
  seat: number,
  cards: readonly string[],
): PokerError | undefined {
  if (s.phase === 'complete') return err('HAND_COMPLETE', 'the hand is over');
  if (s.config.deck) return err('AUTO_DEAL', 'this hand is dealt from its committed deck');
  if (s.phase !== 'deal' || s.street !== 0) return err('WRONG_PHASE', 'hole cards are not being dealt');
  const bad = checkSeat(s, seat);
  if (bad) return bad;
  const dealee = holeDealee(s);
  if (dealee !== seat) return err('NOT_YOUR_TURN', `hole cards go to ${seatName(dealee ?? 0)} next`);
  if (!Array.isArray(cards) || cards.length < 1 || cards.length > 2 - s.hole[seat]!.length)
    return err('WRONG_CARD_COUNT', `${seatName(seat)} takes ${2 - s.hole[seat]!.length} more hole card(s)`);
  return checkNewCards(s, cards);
}

export const canDealHole = (s: PokerState, seat: number, cards: readonly string[]): boolean =>
  verifyDealHole(s, seat, cards) === undefined;

export function dealHole(s: PokerState, seat: number, cards: readonly string[]): PokerState {
  ensure(verifyDealHole(s, seat, cards));
  const d = draft(s);
  d.hole[seat] = [...s.hole[seat]!, ...cards];
  d.log.push(`d dh ${seatName(seat)} ${cards.join('')}`);
  if (d.hole.every((h) => h.length === 2)) afterDeal(d);
  return d;
}

export function verifyDealBoard(s: PokerState, cards: readonly string[]): PokerError | undefined {
  if (s.phase === 'complete') return err('HAND_COMPLETE', 'the hand is over');
  if (s.config.deck) return err('AUTO_DEAL', 'this hand is dealt from its committed deck');
  if (s.phase !== 'deal' || s.street === 0) return err('WRONG_PHASE', 'the board is not being dealt');
  const want = BOARD_AT[s.street as 1 | 2 | 3] - s.board.length;
  if (!Array.isArray(cards) || cards.length < 1 || cards.length > want)
    return err('WRONG_CARD_COUNT', `the board takes ${want} more card(s) now`);
  return checkNewCards(s, cards);
}

export const canDealBoard = (s: PokerState, cards: readonly string[]): boolean =>
  verifyDealBoard(s, cards) === undefined;

export function dealBoard(s: PokerState, cards: readonly string[]): PokerState {
  ensure(verifyDealBoard(s, cards));
  const d = draft(s);
  d.board.push(...cards);
  d.log.push(`d db ${cards.join('')}`);
  if (d.board.length === BOARD_AT[d.street as 1 | 2 | 3]) afterDeal(d);
  return d;
}

// ── betting ────────────────────────────────────────────────────────────────────────────────────────

function afterBet(d: PokerState): void {
  if (d.queue.length === 0 || liveCount(d) <= 1) endBetting(d);
}

/**
 * The actor may always fold, even when checking is free: PokerKit accepts that fold in cash-game
 * mode and card rooms allow it, so hand histories that contain one replay (docs/poker.md).
 */
export function verifyFold(s: PokerState, seat: number): PokerError | undefined {
  return checkActor(s, seat);
}

export const canFold = (s: PokerState, seat: number): boolean => verifyFold(s, seat) === undefined;

export function fold(s: PokerState, seat: number): PokerState {
  ensure(verifyFold(s, seat));
  const d = draft(s);
  d.queue.shift();
  d.folded[seat] = true;
  d.log.push(`${seatName(seat)} f`);
  afterBet(d);
  return d;
}

export function verifyCheckOrCall(s: PokerState, seat: number): PokerError | undefined {
  return checkActor(s, seat);
}

export const canCheckOrCall = (s: PokerState, seat: number): boolean =>
  verifyCheckOrCall(s, seat) === undefined;

/** Chips the actor puts in to check or call (a call is capped at the stack: all-in for less). */
export function callAmount(s: PokerState, seat: number): number {
  return Math.min(s.stacks[seat]!, maxOf(s.bets) - s.bets[seat]!);
}

export function checkOrCall(s: PokerState, seat: number): PokerState {
  ensure(verifyCheckOrCall(s, seat));
  const d = draft(s);
  const top = maxOf(s.bets);
  const amount = callAmount(s, seat);
  d.stacks[seat]! -= amount;
  d.bets[seat]! += amount;
  d.acted[seat] = top;
  d.queue.shift();
  d.log.push(`${seatName(seat)} cc`);
  afterBet(d);
  return d;
}

/** Why the actor may not bet or raise at all, if so (ignoring the amount). */
function raiseBlocker(s: PokerState, seat: number): PokerError | undefined {
  const top = maxOf(s.bets);
  if (s.stacks[seat]! <= top - s.bets[seat]!) return err('CANNOT_RAISE', 'not enough chips to raise');
  let opponent = false;
  for (let i = 0; i < s.stacks.length; i++) {
    if (i !== seat && !s.folded[i] && s.stacks[i]! + s.bets[i]! > top) opponent = true;
  }
  if (!opponent) return err('CANNOT_RAISE', 'no opponent has chips left to call a raise');
  const acted = s.acted[seat]!;
  if (acted >= 0 && top - acted < s.minRaise)
    return err(
      'CANNOT_RAISE',
      'betting was not reopened: the raises since you acted are less than a full raise',
    );
  return undefined;
}

/** The smallest legal raise-to: a full raise, or all the chips an opponent could still call. */
export function minRaiseTo(s: PokerState, seat: number): number {
  return Math.min(effectiveStack(s, seat) + s.bets[seat]!, maxOf(s.bets) + s.minRaise);
}

export function maxRaiseTo(s: PokerState, seat: number): number {
  return s.stacks[seat]! + s.bets[seat]!;
}

export function verifyCompleteBetOrRaiseTo(
  s: PokerState,
  seat: number,
  amount: number,
): PokerError | undefined {
  const bad = checkActor(s, seat) ?? raiseBlocker(s, seat);
  if (bad) return bad;
  if (!Number.isSafeInteger(amount))
    return err('BAD_AMOUNT', `not a whole number of chips: ${String(amount)}`);
  const min = minRaiseTo(s, seat);
  if (amount < min) return err('RAISE_TOO_SMALL', `raise to at least ${min}`);
  const max = maxRaiseTo(s, seat);
  if (amount > max) return err('RAISE_TOO_LARGE', `raise to at most ${max} (all in)`);
  return undefined;
}

export const canCompleteBetOrRaiseTo = (s: PokerState, seat: number, amount: number): boolean =>
  verifyCompleteBetOrRaiseTo(s, seat, amount) === undefined;

export function completeBetOrRaiseTo(s: PokerState, seat: number, amount: number): PokerState {
  ensure(verifyCompleteBetOrRaiseTo(s, seat, amount));
  const d = draft(s);
  const n = s.stacks.length;
  d.minRaise = Math.max(s.minRaise, amount - maxOf(s.bets));
  d.stacks[seat]! -= amount - s.bets[seat]!;
  d.bets[seat] = amount;
  d.acted[seat] = amount;
  d.opener = seat;
  d.queue = [];
  for (let k = 1; k < n; k++) {
    const i = (seat + k) % n;
    if (!d.folded[i] && d.stacks[i]! > 0) d.queue.push(i);
  }
  d.log.push(`${seatName(seat)} cbr ${amount}`);
  afterBet(d);
  return d;
}

// ── showdown ───────────────────────────────────────────────────────────────────────────────────────

/** The seat expected to show next, or null when showing is not in order now. */
export function showdownActor(s: PokerState): number | null {
  if (s.phase !== 'showdown') return null;
  for (const i of showdownOrder(s)) if (!resolved(s, i)) return i;
  return null;
}

export type ShowOptions = { cards?: readonly string[] | null; muck?: boolean };

/**
 * Show or muck. Allowed for a live seat at showdown (in order; re-showing the same cards is a no-op, and
 * order is not enforced past a hand whose cards are unknown); once betting is closed by all-ins, at any
 * time before the board is out (the all-in hands are tabled); and after the hand, a seat that still
 * holds its cards (the winner of an uncontested pot) may show them — chips do not move.
 */
export function verifyShowOrMuck(
  s: PokerState,
  seat: number,
  opts: ShowOptions = {},
): PokerError | undefined {
  const bad = checkSeat(s, seat);
  if (bad) return bad;
  if (s.phase === 'complete' && (opts.muck || s.folded[seat] || s.shows[seat] === 'mucked'))
    return err('HAND_COMPLETE', 'the hand is over (a player still holding cards may only show them)');
  if (!(s.phase === 'showdown' || s.phase === 'complete' || (s.phase === 'deal' && s.bettingClosed)))
    return err('WRONG_PHASE', 'hands are shown only at showdown or once all-in betting is closed');
  if (s.folded[seat] || s.shows[seat] === 'mucked')
    return err('NOT_IN_HAND', `${seatName(seat)} has folded or mucked`);
  if (opts.muck && opts.cards) return err('INVALID_ACTION', 'muck or show, not both');
  if (s.phase === 'showdown') {
    const next = showdownActor(s);
    const reshow = s.shows[seat] === 'shown';
    if (next !== null && next !== seat && !reshow && holeKnown(s, next))
      return err('NOT_YOUR_TURN', `${seatName(next)} shows first`);
  }
  const cards = opts.cards;
  if (cards == null || opts.muck) return undefined;
  if (!Array.isArray(cards) || cards.length !== 2) return err('WRONG_CARD_COUNT', 'show both hole cards');
  const hole = s.hole[seat]!;
  for (let k = 0; k < 2; k++) {
    const c = cards[k]!;
    if (c !== UNKNOWN_CARD && !isCard(c)) return err('BAD_CARDS', `not a card: ${String(c)}`);
    if (c !== UNKNOWN_CARD && hole.includes(c)) continue;
    if (c !== UNKNOWN_CARD && holeKnown(s, seat))
      return err('CARDS_MISMATCH', `${seatName(seat)} does not hold ${c}`);
  }
  if (!holeKnown(s, seat)) return checkNewCards(s, cards, seat);
  return undefined;
}

export const canShowOrMuck = (s: PokerState, seat: number, opts: ShowOptions = {}): boolean =>
  verifyShowOrMuck(s, seat, opts) === undefined;

export function showOrMuck(s: PokerState, seat: number, opts: ShowOptions = {}): PokerState {
  ensure(verifyShowOrMuck(s, seat, opts));
  const d = draft(s);
  if (opts.muck) {
    // A muck concedes every pot contested by someone else; it does not fold (see awardPots).
    d.shows[seat] = 'mucked';
    d.log.push(`${seatName(seat)} sm`);
  } else {
    const given = opts.cards;
    // Unknown hole cards become the shown ones; shown '??' keeps what is known.
    if (given && !holeKnown(s, seat))
      d.hole[seat] = given.map((c, k) => (c === UNKNOWN_CARD ? s.hole[seat]![k]! : c));
    d.shows[seat] = 'shown';
    d.log.push(`${seatName(seat)} sm ${(given ?? d.hole[seat]!).join('')}`);
  }
  if (d.phase === 'showdown' || (d.phase === 'deal' && contenders(d) <= 1)) checkShowdown(d);
  return d;
}

// ── finishing early ────────────────────────────────────────────────────────────────────────────────

export function verifyFinish(s: PokerState): PokerError | undefined {
  if (s.phase === 'complete') return err('HAND_COMPLETE', 'the hand is over');
  return undefined;
}

export const canFinish = (s: PokerState): boolean => verifyFinish(s) === undefined;

/**
 * Ends the hand now with no more cards: uncalled bets return, pots go to the best known hands among
 * the seats still in (a PHH file may stop before the hand is over). Not written to the log.
 */
export function finish(s: PokerState): PokerState {
  ensure(verifyFinish(s));
  const d = draft(s);
  settle(d);
  return d;
}

// ── one entry point for wrappers ───────────────────────────────────────────────────────────────────

export function verifyAction(s: PokerState, a: PokerAction): PokerError | undefined {
  switch (a?.type) {
    case 'dealHole':
      return verifyDealHole(s, a.seat, a.cards);
    case 'dealBoard':
      return verifyDealBoard(s, a.cards);
    case 'fold':
      return verifyFold(s, a.seat);
    case 'checkOrCall':
      return verifyCheckOrCall(s, a.seat);
    case 'completeBetOrRaiseTo':
      return verifyCompleteBetOrRaiseTo(s, a.seat, a.amount);
    case 'showOrMuck':
      return verifyShowOrMuck(s, a.seat, { cards: a.cards ?? null, muck: a.muck ?? false });
    case 'finish':
      return verifyFinish(s);
    default:
      return err('INVALID_ACTION', 'unknown action type');
  }
}

export const canApply = (s: PokerState, a: PokerAction): boolean => verifyAction(s, a) === undefined;

/** Applies any action (each operation verifies itself); throws PokerRuleError when it is not allowed. */
export function applyAction(s: PokerState, a: PokerAction): PokerState {
  switch (a?.type) {
    case 'dealHole':
      return dealHole(s, a.seat, a.cards);
    case 'dealBoard':
      return dealBoard(s, a.cards);
    case 'fold':
      return fold(s, a.seat);
    case 'checkOrCall':
      return checkOrCall(s, a.seat);
    case 'completeBetOrRaiseTo':
      return completeBetOrRaiseTo(s, a.seat, a.amount);
    case 'showOrMuck':
      return showOrMuck(s, a.seat, { cards: a.cards ?? null, muck: a.muck ?? false });
    case 'finish':
      return finish(s);
    default:
      throw new PokerRuleError(err('INVALID_ACTION', 'unknown action type'));
  }
}
