import type { Rejection } from '@db8/core';
import { z } from 'zod';

/**
 * Actions a seat may send. Turn actions may carry the `turnToken` that `legal` handed out; when
 * present the protocol checks it, so a move made against an older state is refused even when the
 * transport does not check tokens itself. It is recorded in the log, which shows which turn a move
 * answered.
 */

const amount = z.number().int().positive();
const turnToken = z.string().min(1).max(200).optional();

export const SealedBidActionSchema = z.discriminatedUnion('type', [
  /** A sealed bid; sending another replaces it until bidding ends. */
  z.object({ type: z.literal('bid'), amount }).strict(),
  /** Tie-break turn: offer more than the current leading amount. */
  z.object({ type: z.literal('raise'), amount, turnToken }).strict(),
  /** Tie-break turn: keep your offer as it is. */
  z.object({ type: z.literal('pass'), turnToken }).strict(),
  /** Auctioneer: accept the outcome and close the sale. */
  z.object({ type: z.literal('confirm'), turnToken }).strict(),
  /** Auctioneer: withdraw the item; the auction closes unsold. */
  z.object({ type: z.literal('withdraw'), turnToken }).strict(),
]);
export type SealedBidAction = z.infer<typeof SealedBidActionSchema>;

export const REJECTION_CODES = [
  'UNKNOWN_SEAT',
  'NOT_A_BIDDER',
  'PHASE_CLOSED',
  'BELOW_RESERVE',
  'WRONG_PHASE',
  'NOT_YOUR_TURN',
  'BAD_TURN_TOKEN',
  'TURN_EXPIRED',
  'RAISE_TOO_LOW',
] as const;
export type SealedBidRejectionCode = (typeof REJECTION_CODES)[number];

export function reject(
  code: SealedBidRejectionCode,
  message: string,
  details?: Record<string, unknown>,
): { ok: false; error: Rejection } {
  return { ok: false, error: details ? { code, message, details } : { code, message } };
}
