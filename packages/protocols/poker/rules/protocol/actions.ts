import type { Rejection } from '@db8/core';
import { z } from 'zod';

/**
 * What a seat may send. Betting actions (`fold`, `check`, `call`, `raiseTo`) come from the seat to
 * act; `raiseTo` takes the total this street (as the engine's completeBetOrRaiseTo). `sitIn` /
 * `sitOut` come from any player seat at any time and take effect from the next hand. `leave` is a
 * sit-out that does not wait: a hand the seat is still in is folded at its turn, without waiting
 * for the timeout. `topUp`, `kick` (a leave the house makes; the seat may not sit in again) and
 * `stop` come only from the `house` seat. A betting action may carry the `turnToken` that `legal`
 * handed out; when present it is checked here too, so a stale move is refused on every transport.
 */

const turnToken = z.string().min(1).max(200).optional();
const amount = z.number().int().min(1).max(1e12);

export const TableActionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('fold'), turnToken }).strict(),
  z.object({ kind: z.literal('check'), turnToken }).strict(),
  z.object({ kind: z.literal('call'), turnToken }).strict(),
  z.object({ kind: z.literal('raiseTo'), amount, turnToken }).strict(),
  z.object({ kind: z.literal('sitIn') }).strict(),
  z.object({ kind: z.literal('sitOut') }).strict(),
  z.object({ kind: z.literal('leave') }).strict(),
  /** House: remove a seat from play (seed 002 §10.1's kick); its chips stay counted as its result. */
  z.object({ kind: z.literal('kick'), seat: z.number().int().min(0).max(9) }).strict(),
  /** House: give a seat play-money chips (added now, or at the end of the hand it is playing). */
  z.object({ kind: z.literal('topUp'), seat: z.number().int().min(0).max(9), amount }).strict(),
  /** House: stop the table; a hand in progress is called off and every chip goes back. */
  z.object({ kind: z.literal('stop') }).strict(),
]);
export type TableAction = z.infer<typeof TableActionSchema>;
export type BettingKind = 'fold' | 'check' | 'call' | 'raiseTo';
export const BETTING_KINDS: readonly BettingKind[] = ['fold', 'check', 'call', 'raiseTo'];

export const TABLE_REJECTION_CODES = [
  'UNKNOWN_SEAT',
  'TABLE_STOPPED',
  'HOUSE_ONLY',
  'PLAYERS_ONLY',
  'NO_HAND',
  'NOT_IN_HAND',
  'NOT_YOUR_TURN',
  'BAD_TURN_TOKEN',
  'TURN_EXPIRED',
  'CANNOT_CHECK',
  'NOTHING_TO_CALL',
  'CANNOT_RAISE',
  'RAISE_TOO_SMALL',
  'RAISE_TOO_LARGE',
  'ALREADY_SITTING',
  'ALREADY_OUT',
  'BUSTED',
  'EMPTY_SEAT',
  'KICKED',
] as const;
export type TableRejectionCode = (typeof TABLE_REJECTION_CODES)[number];

export function reject(
  code: TableRejectionCode,
  message: string,
  details?: Record<string, unknown>,
): { ok: false; error: Rejection } {
  return { ok: false, error: details ? { code, message, details } : { code, message } };
}
