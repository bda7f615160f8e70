// The hand's forced transitions (posting, street changes, showdown, settlement). Every function here
// mutates a draft that the caller has already copied with `draft()`; nothing outside sees a mutation.
import { cardCode, UNKNOWN_CARD } from './cards.ts';
import { evaluateCodes } from './evaluator.ts';
import { awardPots, buildPots } from './pots.ts';
import type { PokerConfig, PokerState } from './state.ts';

/** Board size once each street's cards are out. */
export const BOARD_AT = [0, 3, 4, 5] as const;

export const seatName = (seat: number): string => `p${seat + 1}`;

/**
 * A copy whose arrays may be mutated (inner hole arrays are replaced, never mutated). Written out field
 * by field, in the same order as initialState, so every state shares one object shape (fast in V8).
 */
export function draft(s: PokerState): PokerState {
  return {
    config: s.config,
    phase: s.phase,
    street: s.street,
    stacks: s.stacks.slice(),
    bets: s.bets.slice(),
    committed: s.committed.slice(),
    antes: s.antes,
    folded: s.folded.slice(),
    hole: s.hole.slice(),
    board: s.board.slice(),
    queue: s.queue.slice(),
    minRaise: s.minRaise,
    acted: s.acted.slice(),
    opener: s.opener,
    bettingClosed: s.bettingClosed,
    shows: s.shows.slice(),
    deckPos: s.deckPos,
    pots: s.pots,
    winnings: s.winnings,
    log: s.log.slice(),
  };
}

/** PHH lists forced bets as [small, big, …]; heads-up the big blind is seat 0, so read them reversed. */
function forced(values: readonly number[], seat: number): number {
  return (values.length === 2 ? values[1 - seat] : values[seat]) ?? 0;
}

/** Posts antes and blinds and waits for the deal. */
export function initialState(config: PokerConfig): PokerState {
  const n = config.startingStacks.length;
  const stacks = config.startingStacks.slice();
  const antes = new Array<number>(n).fill(0);
  const bets = new Array<number>(n).fill(0);
  for (let i = 0; i < n; i++) {
    antes[i] = Math.min(forced(config.antes, i), stacks[i]!);
    stacks[i]! -= antes[i]!;
  }
  for (let i = 0; i < n; i++) {
    bets[i] = Math.min(Math.abs(forced(config.blindsOrStraddles, i)), stacks[i]!);
    stacks[i]! -= bets[i]!;
  }
  const s: PokerState = {
    config,
    phase: 'deal',
    street: 0,
    stacks,
    bets,
    committed: new Array<number>(n).fill(0),
    antes,
    folded: new Array<boolean>(n).fill(false),
    hole: Array.from({ length: n }, () => []),
    board: [],
    queue: [],
    minRaise: config.minBet,
    acted: new Array<number>(n).fill(-1),
    opener: 0,
    bettingClosed: false,
    shows: new Array<'hidden'>(n).fill('hidden'),
    deckPos: 0,
    pots: null,
    winnings: null,
    log: [],
  };
  autoDeal(s);
  return s;
}

export function maxOf(values: readonly number[]): number {
  let m = 0;
  for (const v of values) if (v > m) m = v;
  return m;
}

export function liveCount(s: PokerState): number {
  let c = 0;
  for (const f of s.folded) if (!f) c++;
  return c;
}

/** Chips the seat can still put in that some other live seat could match (PokerKit's effective stack). */
export function effectiveStack(s: PokerState, seat: number): number {
  let first = 0;
  let second = 0;
  for (let i = 0; i < s.stacks.length; i++) {
    if (s.folded[i]) continue;
    const total = s.bets[i]! + s.stacks[i]!;
    if (total > first) {
      second = first;
      first = total;
    } else if (total > second) second = total;
  }
  return Math.min(s.stacks[seat]!, Math.max(0, second - s.bets[seat]!));
}

/** The seat after the largest positive blind or straddle opens pre-flop (ties: the later seat). */
function preflopOpener(s: PokerState): number {
  const n = s.stacks.length;
  let best = -1;
  let bestSeat = n - 1;
  for (let i = 0; i < n; i++) {
    const posted = forced(s.config.blindsOrStraddles, i) > 0 ? s.bets[i]! : 0;
    if (posted >= best) {
      best = posted;
      bestSeat = i;
    }
  }
  return (bestSeat + 1) % n;
}

export function beginBetting(s: PokerState): void {
  const n = s.stacks.length;
  if (s.street === 0) {
    s.opener = preflopOpener(s);
    s.minRaise = Math.max(s.config.minBet, maxOf(s.config.blindsOrStraddles));
  } else {
    s.opener = 0;
    s.minRaise = s.config.minBet;
  }
  s.acted.fill(-1);
  s.queue = [];
  for (let k = 0; k < n; k++) {
    const i = (s.opener + k) % n;
    if (!s.folded[i] && s.stacks[i]! > 0 && effectiveStack(s, i) > 0) s.queue.push(i);
  }
  s.phase = 'betting';
  const head = s.queue[0];
  if (head === undefined || (s.queue.length === 1 && s.bets[head]! >= maxOf(s.bets))) endBetting(s);
}

/** Returns the uncalled part of the largest bet and moves this street's bets into the pot. */
export function collectBets(s: PokerState): void {
  let first = 0;
  let second = 0;
  for (const b of s.bets) {
    if (b > first) {
      second = first;
      first = b;
    } else if (b > second) second = b;
  }
  for (let i = 0; i < s.bets.length; i++) {
    const b = s.bets[i]!;
    if (b > second) s.stacks[i]! += b - second;
    s.committed[i]! += Math.min(b, second);
    s.bets[i] = 0;
  }
}

export function endBetting(s: PokerState): void {
  collectBets(s);
  s.queue = [];
  if (liveCount(s) <= 1) {
    settle(s);
    return;
  }
  if (s.street === 3) {
    beginShowdown(s);
    return;
  }
  let withChips = 0;
  for (let i = 0; i < s.stacks.length; i++) if (!s.folded[i] && s.stacks[i]! > 0) withChips++;
  if (withChips <= 1) s.bettingClosed = true;
  s.street += 1;
  s.phase = 'deal';
  autoDeal(s);
}

/** Called when the cards for the current street are all out. */
export function afterDeal(s: PokerState): void {
  if (s.street === 0 || !s.bettingClosed) beginBetting(s);
  else if (s.street < 3) {
    s.street += 1;
    autoDeal(s);
  } else beginShowdown(s);
}

/** With a committed deck the engine deals for itself: hole cards round by round from seat 0, then the board. */
export function autoDeal(s: PokerState): void {
  const deck = s.config.deck;
  if (!deck || s.phase !== 'deal') return;
  const n = s.stacks.length;
  if (s.street === 0) {
    for (let i = 0; i < n; i++) {
      const cards = [deck[i]!, deck[n + i]!];
      s.hole[i] = cards;
      s.log.push(`d dh ${seatName(i)} ${cards.join('')}`);
    }
    s.deckPos = 2 * n;
  } else {
    const need = BOARD_AT[s.street as 1 | 2 | 3] - s.board.length;
    const cards = deck.slice(s.deckPos, s.deckPos + need);
    s.deckPos += need;
    s.board.push(...cards);
    s.log.push(`d db ${cards.join('')}`);
  }
  afterDeal(s);
}

/** Live seats in showdown order: from the last aggressor (or the first to act) of the final round. */
export function showdownOrder(s: PokerState): number[] {
  const n = s.stacks.length;
  const order: number[] = [];
  for (let k = 0; k < n; k++) {
    const i = (s.opener + k) % n;
    if (!s.folded[i]) order.push(i);
  }
  return order;
}

export function holeKnown(s: PokerState, seat: number): boolean {
  const h = s.hole[seat]!;
  return h.length === 2 && h[0] !== UNKNOWN_CARD && h[1] !== UNKNOWN_CARD;
}

/** A seat has nothing more to do at showdown once it folded, mucked, or has its cards face up. */
export function resolved(s: PokerState, seat: number): boolean {
  return s.folded[seat]! || s.shows[seat] === 'mucked' || (s.shows[seat] === 'shown' && holeKnown(s, seat));
}

/** Seats still contesting the pots: neither folded nor mucked. */
export function contenders(s: PokerState): number {
  let c = 0;
  for (let i = 0; i < s.folded.length; i++) if (!s.folded[i] && s.shows[i] !== 'mucked') c++;
  return c;
}

export function beginShowdown(s: PokerState): void {
  s.phase = 'showdown';
  if (s.config.autoShowdown) {
    for (const i of showdownOrder(s)) {
      if (s.shows[i] === 'shown') continue;
      s.shows[i] = 'shown';
      s.log.push(`${seatName(i)} sm ${s.hole[i]!.join('')}`);
    }
  }
  checkShowdown(s);
}

export function checkShowdown(s: PokerState): void {
  if (contenders(s) > 1) {
    if (s.phase !== 'showdown') return;
    for (let i = 0; i < s.stacks.length; i++) if (!resolved(s, i)) return;
  }
  settle(s);
}

/** Hand value; -1 for an unknown hand, -2 for a mucked one (it wins only a pot nobody else claims). */
function strengthOf(s: PokerState, seat: number, board: readonly number[]): number {
  if (s.shows[seat] === 'mucked') return -2;
  if (s.folded[seat] || !holeKnown(s, seat) || board.length < 3) return -1;
  const h = s.hole[seat]!;
  return evaluateCodes([cardCode(h[0]!), cardCode(h[1]!), ...board]);
}

/**
 * Chips above the largest contribution of any seat still in have no claimant: they go back to whoever
 * put them in, as an uncalled bet does. Only folds when checking is free can leave such chips (every
 * seat that matched them folded while an all-in seat for less stays in); otherwise the seat that put in
 * the most is still in.
 */
function returnUnclaimed(s: PokerState): void {
  let top = 0;
  for (let i = 0; i < s.committed.length; i++)
    if (!s.folded[i] && s.committed[i]! > top) top = s.committed[i]!;
  for (let i = 0; i < s.committed.length; i++) {
    const over = s.committed[i]! - top;
    if (over > 0) {
      s.stacks[i]! += over;
      s.committed[i] = top;
    }
  }
}

/** Ends the hand with the cards known now: collect, return unclaimed chips, build pots, pay. */
export function settle(s: PokerState): void {
  collectBets(s);
  returnUnclaimed(s);
  const n = s.stacks.length;
  const board = s.board.filter((c) => c !== UNKNOWN_CARD).map(cardCode);
  const strength = Array.from({ length: n }, (_, i) => strengthOf(s, i, board));
  const layers =
    liveCount(s) === 1
      ? [{ amount: sumOf(s.committed) + sumOf(s.antes), eligible: [s.folded.indexOf(false)] }]
      : buildPots(s.committed, s.antes, s.folded);
  const { pots, winnings } = awardPots(layers, strength, s.config.splitUnit);
  for (let i = 0; i < n; i++) s.stacks[i]! += winnings[i]!;
  s.pots = pots;
  s.winnings = winnings;
  s.queue = [];
  s.phase = 'complete';
}

export function sumOf(values: readonly number[]): number {
  let t = 0;
  for (const v of values) t += v;
  return t;
}

/** Every chip at the table: stacks, bets and (until it is paid out) the pot. Constant through a hand. */
export function chipTotal(s: PokerState): number {
  const pot = s.phase === 'complete' ? 0 : sumOf(s.committed) + sumOf(s.antes);
  return sumOf(s.stacks) + sumOf(s.bets) + pot;
}
