import type { ApplyResult, Transition } from '@db8/core';
import { reject, type SealedBidAction } from './actions.ts';
import { bidderSeats } from './config.ts';
import {
  biddingEndsAt,
  confirmTurn,
  isBidder,
  offers,
  priceFor,
  rank,
  tiebreakTurn,
  tiedAtTop,
  turnTokenOf,
} from './rules.ts';
import type { Outcome, SealedBidState } from './state.ts';

/**
 * Every state change of the auction. Each function returns a NEW state (inputs are never mutated)
 * with `counter` bumped, so any turn token handed out before the change goes stale.
 */

type Result = ApplyResult<SealedBidState>;
type BidAction = Extract<SealedBidAction, { type: 'bid' }>;
type TurnAction = Exclude<SealedBidAction, BidAction>;

function next(state: SealedBidState, patch: Partial<SealedBidState>): SealedBidState {
  return { ...state, ...patch, counter: state.counter + 1 };
}

/** A sealed bid: stored with seat visibility, so the public log carries only its commitment. */
export function applyBid(
  state: SealedBidState,
  seat: string,
  action: BidAction,
  now: number,
  seq: number,
): Result {
  if (!isBidder(state, seat)) return reject('NOT_A_BIDDER', `${seat} is not a bidder`);
  if (state.phase !== 'bidding') return reject('PHASE_CLOSED', 'bidding is over');
  // Past the deadline but not yet ticked: the deadline, not the tick, is what closes bidding.
  if (now >= biddingEndsAt(state)) {
    return reject('PHASE_CLOSED', 'bidding has ended', { endedAt: biddingEndsAt(state) });
  }
  if (action.amount < state.config.reservePrice) {
    return reject('BELOW_RESERVE', `bids start at ${state.config.reservePrice}`, {
      reservePrice: state.config.reservePrice,
    });
  }
  const previous = state.bids[seat];
  const bids = {
    ...state.bids,
    [seat]: { amount: action.amount, seq, at: now, count: (previous?.count ?? 0) + 1 },
  };
  const everyone = bidderSeats(state.config).every((s) => bids[s] !== undefined);
  return {
    ok: true,
    state: next(state, { bids, allBidAt: everyone ? now : null }),
    visibility: { kind: 'seat', seat },
  };
}

/** Tie-break and confirmation moves: only the seat whose turn it is, with a current token, in time. */
export function applyTurnAction(
  state: SealedBidState,
  seat: string,
  action: TurnAction,
  now: number,
  seq: number,
): Result {
  const turn = state.turn;
  if (state.phase !== 'reveal' || !turn) {
    return reject('WRONG_PHASE', `no ${action.type} during ${state.phase}`);
  }
  const wants = action.type === 'raise' || action.type === 'pass' ? 'tiebreak' : 'confirm';
  if (turn.kind !== wants) return reject('WRONG_PHASE', `the live turn is a ${turn.kind} turn`);
  if (seat !== turn.seat) return reject('NOT_YOUR_TURN', `it is ${turn.seat}'s turn`, { turn: turn.seat });
  if (action.turnToken !== undefined && action.turnToken !== turnTokenOf(state)) {
    return reject('BAD_TURN_TOKEN', 'the turn token is not the current one');
  }
  if (now >= turn.deadline) {
    return reject('TURN_EXPIRED', 'the turn has timed out', { deadline: turn.deadline });
  }

  switch (action.type) {
    case 'raise': {
      const high = rank(offers(state))[0]?.amount ?? 0;
      if (action.amount <= high) {
        return reject('RAISE_TOO_LOW', `a raise must exceed ${high}`, { minAmount: high + 1 });
      }
      const raises = { ...state.raises, [seat]: { amount: action.amount, seq, at: now } };
      return { ok: true, ...endTiebreakTurn({ ...state, raises }, now) };
    }
    case 'pass':
      return { ok: true, ...endTiebreakTurn(state, now) };
    case 'confirm':
      return { ok: true, ...close(state, now, 'auctioneer', false) };
    case 'withdraw':
      return { ok: true, ...close(state, now, 'auctioneer', true) };
  }
}

/**
 * Bidding ends: every bidder's latest bid is revealed at once, by this one public entry. No bids
 * means nothing to reveal and the auction closes unsold; a tie at the top opens tie-break turns.
 */
export function endBidding(state: SealedBidState, now: number): Transition<SealedBidState> {
  const revealed = Object.values(state.bids)
    .map((b) => b.seq)
    .sort((a, b) => a - b);
  if (revealed.length === 0) return close(state, now, 'no-bids', false);
  const tied = tiedAtTop(state, rank(offers(state)));
  const turn = tied.length > 0 ? tiebreakTurn(state, tied, now) : confirmTurn(state, now);
  return {
    state: next(state, { phase: 'reveal', revealedAt: now, revealed, turn }),
    reveal: revealed,
    milestone: 'bids-revealed',
  };
}

/** The live tie-break turn is over (raise, pass or timeout): hand the turn on, or to the auctioneer. */
export function endTiebreakTurn(state: SealedBidState, now: number): Transition<SealedBidState> {
  const order = state.turn?.kind === 'tiebreak' ? state.turn.next : [];
  return { state: next(state, { turn: tiebreakTurn(state, order, now) }) };
}

export function close(
  state: SealedBidState,
  now: number,
  closedBy: Outcome['closedBy'],
  withdrawn: boolean,
): Transition<SealedBidState> {
  const ranking = rank(offers(state));
  const winner = ranking[0];
  const sold = winner !== undefined && !withdrawn;
  const outcome: Outcome = {
    item: state.config.item,
    rule: state.config.rule,
    sold,
    reason: sold ? 'sold' : withdrawn ? 'withdrawn' : 'no-bids',
    winner: sold ? winner.seat : null,
    price: sold ? priceFor(state.config.rule, ranking, state.config.reservePrice) : null,
    ranking,
    closedBy,
    closedAt: now,
  };
  return { state: next(state, { phase: 'closed', turn: null, outcome }), milestone: 'closed' };
}
