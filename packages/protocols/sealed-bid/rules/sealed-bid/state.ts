import { z } from 'zod';
import { SealedBidConfigSchema } from './config.ts';

/**
 * The auction's state. It holds every bid amount (the runtime keeps state server-side and only
 * ever hands out `view(state, viewer)`), so secrecy is the view's job, not the state's.
 * A schema rather than a bare type so a stored snapshot can be checked when it is loaded.
 */

const Amount = z.number().int().nonnegative();
const Seq = z.number().int().nonnegative();
const Time = z.number().int();

/** A bidder's current sealed bid: the latest one they sent (earlier ones stay sealed forever). */
export const BidSchema = z.object({
  amount: Amount,
  /** Log position of the entry that carried it; what `reveal` names and what breaks ties. */
  seq: Seq,
  at: Time,
  /** How many bids this bidder has sent, replacements included. */
  count: z.number().int().positive(),
});
export type Bid = z.infer<typeof BidSchema>;

/** A public raise made on a tie-break turn. */
export const RaiseSchema = z.object({ amount: Amount, seq: Seq, at: Time });
export type Raise = z.infer<typeof RaiseSchema>;

/** Whose move it is after the reveal. Only one seat is ever to act, so one turn token is live. */
export const TurnSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('tiebreak'),
    seat: z.string(),
    deadline: Time,
    /** Tied bidders still to have their turn after `seat`, in seat order. */
    next: z.array(z.string()),
  }),
  z.object({ kind: z.literal('confirm'), seat: z.string(), deadline: Time }),
]);
export type Turn = z.infer<typeof TurnSchema>;

export const StandingSchema = z.object({ seat: z.string(), amount: Amount, seq: Seq });
export type Standing = z.infer<typeof StandingSchema>;

export const OutcomeSchema = z.object({
  item: z.string(),
  rule: SealedBidConfigSchema.shape.rule,
  sold: z.boolean(),
  reason: z.enum(['sold', 'no-bids', 'withdrawn']),
  winner: z.string().nullable(),
  price: Amount.nullable(),
  /** Every bidder's final offer, best first (amount desc, then earliest bid seq). */
  ranking: z.array(StandingSchema),
  closedBy: z.enum(['auctioneer', 'timeout', 'no-bids']),
  closedAt: Time,
});
export type Outcome = z.infer<typeof OutcomeSchema>;

export const PhaseSchema = z.enum(['bidding', 'reveal', 'closed']);
export type Phase = z.infer<typeof PhaseSchema>;

export const SealedBidStateSchema = z.object({
  config: SealedBidConfigSchema,
  phase: PhaseSchema,
  /** Bumped by every accepted transition; turn tokens are derived from it, so a token goes stale. */
  counter: z.number().int().nonnegative(),
  openedAt: Time,
  closesAt: Time,
  /** Set when the last bidder without a bid bids: bidding then ends at the next tick. */
  allBidAt: Time.nullable(),
  bids: z.record(z.string(), BidSchema),
  raises: z.record(z.string(), RaiseSchema),
  revealedAt: Time.nullable(),
  /** The seqs published by the reveal (each bidder's latest bid), ascending. */
  revealed: z.array(Seq),
  turn: TurnSchema.nullable(),
  outcome: OutcomeSchema.nullable(),
});
export type SealedBidState = z.infer<typeof SealedBidStateSchema>;
