import type { SeatInfo } from '@db8/core';
import { z } from 'zod';

/**
 * Room configuration for a sealed-bid auction. Amounts are integers in the smallest currency
 * unit (cents, chips…) so every price is exact and canonical JSON never sees a float.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const windowMs = z
  .number()
  .int()
  .min(1)
  .max(30 * DAY_MS);

export const SealedBidConfigSchema = z
  .object({
    item: z.string().min(1).max(200),
    /** How many bidders the room seats (`bidder_1` … `bidder_N`). */
    bidders: z.number().int().min(2).max(10),
    /** Bids below this are rejected; in a second-price auction it is also the floor of the price. */
    reservePrice: z.number().int().min(0),
    /** How long bidding stays open after setup. */
    biddingWindowMs: windowMs,
    /** How long the auctioneer has to confirm or withdraw once the outcome is settled. */
    revealWindowMs: windowMs,
    /** How long each tied bidder has for their one tie-break turn; silence counts as a pass. */
    turnWindowMs: windowMs.default(30_000),
    rule: z.enum(['first-price', 'second-price']),
  })
  .strict();
export type SealedBidConfig = z.infer<typeof SealedBidConfigSchema>;
export type AuctionRule = SealedBidConfig['rule'];

export const AUCTIONEER = 'auctioneer';

export function bidderSeat(index: number): string {
  return `bidder_${index}`;
}

/** Bidder seats in seat order; seat order is also the tie-break turn order. */
export function bidderSeats(config: SealedBidConfig): string[] {
  return Array.from({ length: config.bidders }, (_, i) => bidderSeat(i + 1));
}

export function sealedBidSeats(config: SealedBidConfig): SeatInfo[] {
  return [
    ...bidderSeats(config).map((id) => ({ id, role: 'bidder' })),
    { id: AUCTIONEER, role: 'auctioneer' },
  ];
}
