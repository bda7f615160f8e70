import { AUCTIONEER, type AuctionRule, bidderSeats } from './config.ts';
import type { SealedBidState, Standing, Turn } from './state.ts';

/** The auction's rules as pure functions of state: who leads, what they pay, whose turn it is. */

export function isBidder(state: SealedBidState, seat: string): boolean {
  return bidderSeats(state.config).includes(seat);
}

export function isSeat(state: SealedBidState, seat: string): boolean {
  return seat === AUCTIONEER || isBidder(state, seat);
}

/** Each bidder's standing offer: their latest raise if they raised, else their latest sealed bid. */
export function offers(state: SealedBidState): Standing[] {
  const out: Standing[] = [];
  for (const seat of bidderSeats(state.config)) {
    const bid = state.bids[seat];
    if (!bid) continue;
    out.push({ seat, amount: state.raises[seat]?.amount ?? bid.amount, seq: bid.seq });
  }
  return out;
}

/** Best first: higher amount wins; equal amounts go to the earlier bid (lower seq). */
export function rank(list: readonly Standing[]): Standing[] {
  return [...list].sort((a, b) => b.amount - a.amount || a.seq - b.seq);
}

/** Bidders tied at the top amount, in seat order (the tie-break turn order). Empty when no tie. */
export function tiedAtTop(state: SealedBidState, ranking: readonly Standing[]): string[] {
  const top = ranking[0];
  if (!top) return [];
  const tied = new Set(ranking.filter((o) => o.amount === top.amount).map((o) => o.seat));
  return tied.size < 2 ? [] : bidderSeats(state.config).filter((s) => tied.has(s));
}

/** First price: the winner's own offer. Second price (Vickrey): the runner-up's offer, never below reserve. */
export function priceFor(rule: AuctionRule, ranking: readonly Standing[], reserve: number): number | null {
  const [first, second] = ranking;
  if (!first) return null;
  if (rule === 'first-price') return first.amount;
  return Math.max(reserve, second?.amount ?? reserve);
}

/** When bidding ends: the window's close, or as soon as every bidder has a bid in. */
export function biddingEndsAt(state: SealedBidState): number {
  return state.allBidAt === null ? state.closesAt : Math.min(state.closesAt, state.allBidAt);
}

/** The next instant at which `tick` has something to do, or null once closed. */
export function nextDeadline(state: SealedBidState): number | null {
  if (state.phase === 'bidding') return biddingEndsAt(state);
  return state.turn?.deadline ?? null;
}

/**
 * The token for the live turn: phase + turn kind + seat + transition counter. Deterministic (replay
 * reproduces it) and stale after any accepted transition, which is what makes it a turn token.
 */
export function turnTokenOf(state: SealedBidState): string | undefined {
  const turn = state.turn;
  if (state.phase !== 'reveal' || !turn) return undefined;
  return `sb:${state.phase}:${turn.kind}:${turn.seat}:${state.counter}`;
}

export function confirmTurn(state: SealedBidState, now: number): Turn {
  return { kind: 'confirm', seat: AUCTIONEER, deadline: now + state.config.revealWindowMs };
}

export function tiebreakTurn(state: SealedBidState, order: readonly string[], now: number): Turn {
  const [seat, ...next] = order;
  if (seat === undefined) return confirmTurn(state, now);
  return { kind: 'tiebreak', seat, deadline: now + state.config.turnWindowMs, next };
}
