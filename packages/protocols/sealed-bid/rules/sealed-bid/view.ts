import type { Legal, Viewer } from '@db8/core';
import { z } from 'zod';
import { AUCTIONEER, bidderSeats } from './config.ts';
import { isBidder, nextDeadline, offers, priceFor, rank, turnTokenOf } from './rules.ts';
import { OutcomeSchema, PhaseSchema, type SealedBidState, TurnSchema } from './state.ts';

/**
 * What one viewer may see. The single secrecy rule: before the reveal a bid amount is shown only
 * to the bidder who made it and to admins. Everything else in the view is already public in the
 * log (who sent a sealed entry, and when), so it may be shown to all.
 */

export const BidderRowSchema = z.object({
  seat: z.string(),
  hasBid: z.boolean(),
  /** Sealed bids sent, replacements included (public: each is a sealed entry in the log). */
  bids: z.number().int().nonnegative(),
  /** Present only when this viewer may see it. */
  amount: z.number().int().optional(),
  seq: z.number().int().optional(),
  raised: z.number().int().optional(),
});

export const SealedBidViewSchema = z.object({
  item: z.string(),
  rule: z.enum(['first-price', 'second-price']),
  reservePrice: z.number().int(),
  phase: PhaseSchema,
  openedAt: z.number().int(),
  closesAt: z.number().int(),
  /** When the protocol next acts on its own (end of bidding, turn timeout), or null. */
  deadline: z.number().int().nullable(),
  you: z.object({ kind: z.enum(['bidder', 'auctioneer', 'observer', 'admin']), seat: z.string().optional() }),
  bidders: z.array(BidderRowSchema),
  revealedAt: z.number().int().nullable(),
  revealed: z.array(z.number().int()),
  turn: TurnSchema.nullable(),
  /** After the reveal: who leads and what they would pay if the auction closed now. */
  standing: z.object({ seat: z.string(), amount: z.number().int(), price: z.number().int() }).nullable(),
  outcome: OutcomeSchema.nullable(),
});
export type SealedBidView = z.infer<typeof SealedBidViewSchema>;

export const LegalActionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('bid'), minAmount: z.number().int(), current: z.number().int().optional() }),
  z.object({ type: z.literal('raise'), minAmount: z.number().int() }),
  z.object({ type: z.literal('pass') }),
  z.object({ type: z.literal('confirm') }),
  z.object({ type: z.literal('withdraw') }),
]);
export type LegalAction = z.infer<typeof LegalActionSchema>;

function mayRead(state: SealedBidState, viewer: Viewer, bidder: string): boolean {
  if (state.phase !== 'bidding' || viewer.kind === 'admin') return true;
  return viewer.kind === 'seat' && viewer.seat === bidder;
}

function who(state: SealedBidState, viewer: Viewer): SealedBidView['you'] {
  if (viewer.kind !== 'seat') return { kind: viewer.kind };
  if (viewer.seat === AUCTIONEER) return { kind: 'auctioneer', seat: AUCTIONEER };
  return isBidder(state, viewer.seat) ? { kind: 'bidder', seat: viewer.seat } : { kind: 'observer' };
}

export function viewOf(state: SealedBidState, viewer: Viewer): SealedBidView {
  const bidders = bidderSeats(state.config).map((seat) => {
    const bid = state.bids[seat];
    const row: z.infer<typeof BidderRowSchema> = { seat, hasBid: bid !== undefined, bids: bid?.count ?? 0 };
    if (bid && mayRead(state, viewer, seat)) {
      row.amount = bid.amount;
      row.seq = bid.seq;
    }
    const raised = state.raises[seat];
    if (raised) row.raised = raised.amount;
    return row;
  });
  const ranking = state.phase === 'reveal' ? rank(offers(state)) : [];
  const lead = ranking[0];
  const price = priceFor(state.config.rule, ranking, state.config.reservePrice);
  return {
    item: state.config.item,
    rule: state.config.rule,
    reservePrice: state.config.reservePrice,
    phase: state.phase,
    openedAt: state.openedAt,
    closesAt: state.closesAt,
    deadline: nextDeadline(state),
    you: who(state, viewer),
    bidders,
    revealedAt: state.revealedAt,
    revealed: state.revealed,
    turn: state.turn,
    standing: lead && price !== null ? { seat: lead.seat, amount: lead.amount, price } : null,
    outcome: state.outcome,
  };
}

/** Legal moves for `seat`; `turnToken` only for the one seat whose turn it is. */
export function legalFor(state: SealedBidState, seat: string): Legal<LegalAction> {
  if (state.phase === 'bidding') {
    if (!isBidder(state, seat) || state.allBidAt !== null) return { actions: [] };
    const current = state.bids[seat]?.amount;
    const minAmount = Math.max(1, state.config.reservePrice);
    const bid: LegalAction =
      current === undefined ? { type: 'bid', minAmount } : { type: 'bid', minAmount, current };
    return { actions: [bid] };
  }
  const turn = state.turn;
  if (state.phase !== 'reveal' || !turn || turn.seat !== seat) return { actions: [] };
  const turnToken = turnTokenOf(state);
  if (turn.kind === 'confirm') return { actions: [{ type: 'confirm' }, { type: 'withdraw' }], turnToken };
  const high = rank(offers(state))[0]?.amount ?? 0;
  return { actions: [{ type: 'raise', minAmount: high + 1 }, { type: 'pass' }], turnToken };
}
