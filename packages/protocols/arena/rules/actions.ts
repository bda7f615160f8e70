import type { Rejection } from '@db8/core';
import { z } from 'zod';
import { MatchSchema, PlacementSchema, TreeHeadSchema } from './state.ts';

/**
 * The organizer's entries. A schedule entry carries the round in full (readable in the log) and is
 * accepted only when it is exactly the round the rules derive from the config and the results so far.
 */
export const ArenaActionSchema = z.discriminatedUnion('type', [
  z
    .object({ type: z.literal('schedule'), round: z.number().int().min(1), matches: z.array(MatchSchema) })
    .strict(),
  z
    .object({
      type: z.literal('result'),
      match: z.string().min(1).max(40),
      room: z.string().min(1).max(200),
      head: TreeHeadSchema,
      placements: z.array(PlacementSchema).min(2).max(10),
      /** Hands the match played (poker): what bb/100 divides by. */
      hands: z.number().int().min(1).max(10_000_000).optional(),
    })
    .strict(),
  z.object({ type: z.literal('close') }).strict(),
]);
export type ArenaAction = z.infer<typeof ArenaActionSchema>;

export const ARENA_REJECTION_CODES = [
  'NOT_ORGANIZER',
  'CLOSED',
  'NOT_DUE',
  'SCHEDULE_MISMATCH',
  'UNKNOWN_MATCH',
  'ALREADY_REPORTED',
  'WRONG_ENTRANTS',
] as const;
export type ArenaRejectionCode = (typeof ARENA_REJECTION_CODES)[number];

export function reject(
  code: ArenaRejectionCode,
  message: string,
  details?: Record<string, unknown>,
): { ok: false; error: Rejection } {
  return { ok: false, error: details ? { code, message, details } : { code, message } };
}
