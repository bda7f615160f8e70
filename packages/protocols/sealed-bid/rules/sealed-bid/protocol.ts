import type { Protocol } from '@db8/core';
import { reject, type SealedBidAction, SealedBidActionSchema } from './actions.ts';
import { type SealedBidConfig, SealedBidConfigSchema, sealedBidSeats } from './config.ts';
import { biddingEndsAt, isSeat, nextDeadline } from './rules.ts';
import type { Outcome, SealedBidState } from './state.ts';
import { applyBid, applyTurnAction, close, endBidding, endTiebreakTurn } from './transitions.ts';
import { legalFor, type SealedBidView, viewOf } from './view.ts';

/**
 * `sealed-bid`: the example protocol. Bidders send sealed bids (seat-visible entries, committed in
 * the public log); bidding ends at the deadline or once everyone has bid, when one public tick
 * entry reveals every latest bid at once; a tie at the top gets one round of public tie-break
 * turns; the auctioneer then confirms or withdraws (silence confirms). No randomness is used, so
 * the room seed is ignored; time only ever comes from `now`.
 */
export const sealedBid: Protocol<SealedBidConfig, SealedBidState, SealedBidAction, SealedBidView, Outcome> = {
  name: 'sealed-bid',
  version: 1,
  configSchema: SealedBidConfigSchema,
  actionSchema: SealedBidActionSchema,

  seats: sealedBidSeats,
  // The auctioneer confirms or withdraws the sale: a seat the room's admin gives, never a bidder's pick.
  privilegedRoles: ['auctioneer'],

  setup(config, ctx) {
    return {
      config,
      phase: 'bidding',
      counter: 0,
      openedAt: ctx.now,
      closesAt: ctx.now + config.biddingWindowMs,
      allBidAt: null,
      bids: {},
      raises: {},
      revealedAt: null,
      revealed: [],
      turn: null,
      outcome: null,
    };
  },

  apply(state, { seat, action, now, seq }) {
    if (!isSeat(state, seat)) return reject('UNKNOWN_SEAT', `this room has no seat ${seat}`);
    if (state.phase === 'closed') return reject('PHASE_CLOSED', 'the auction is closed');
    if (action.type === 'bid') return applyBid(state, seat, action, now, seq);
    return applyTurnAction(state, seat, action, now, seq);
  },

  tick(state, now) {
    if (state.phase === 'bidding') return now >= biddingEndsAt(state) ? endBidding(state, now) : null;
    const turn = state.turn;
    if (state.phase !== 'reveal' || !turn || now < turn.deadline) return null;
    // A silent tied bidder passes; a silent auctioneer confirms (the sale goes ahead by default).
    return turn.kind === 'tiebreak' ? endTiebreakTurn(state, now) : close(state, now, 'timeout', false);
  },

  deadline: nextDeadline,
  view: viewOf,
  legal: legalFor,
  result: (state) => (state.phase === 'closed' ? state.outcome : null),
  isOver: (state) => state.phase === 'closed',
};
