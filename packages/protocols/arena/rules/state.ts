import { z } from 'zod';
import { ArenaConfigSchema } from './config.ts';

/** The tournament's log folded: the schedule published so far and every reported result. */

/** One scheduled match: who sits where (entrants[i] takes the game's i-th player seat) and its seed. */
export const MatchSchema = z
  .object({
    id: z.string().min(1).max(40),
    round: z.number().int().min(1),
    /** The unit standings count: a duplicate set's rotations share one; otherwise the match id. */
    set: z.string().min(1).max(40),
    entrants: z.array(z.string()).min(2),
    /** The match room's seed (64 hex), derived from the tournament seed. */
    seed: z.string().regex(/^[0-9a-f]{64}$/),
  })
  .strict();
export type Match = z.infer<typeof MatchSchema>;

/** The match room's signed tree head as the runner reported it. */
export const TreeHeadSchema = z
  .object({
    size: z.number().int().min(1),
    rootHash: z.string().regex(/^[0-9a-f]{64}$/),
    /** The signed checkpoint note (C2SP signed note: origin, size, root hash, signature lines). */
    note: z.string().min(1).max(4000),
  })
  .strict();
export type TreeHead = z.infer<typeof TreeHeadSchema>;

/** An entrant's outcome in one match: its place (1 is best; equal places tie) and its score (chips, surplus…). */
export const PlacementSchema = z
  .object({
    entrant: z.string(),
    place: z.number().int().min(1).max(100),
    score: z.number().int().min(-1e12).max(1e12),
  })
  .strict();
export type Placement = z.infer<typeof PlacementSchema>;

export const ResultSchema = z
  .object({
    match: z.string(),
    /** The match room's id. */
    room: z.string().min(1).max(200),
    head: TreeHeadSchema,
    /** One row per entrant of the match, in its seat order. */
    placements: z.array(PlacementSchema).min(2),
    /** Hands the match played (poker; bb/100 is per hand). Absent in results recorded before. */
    hands: z.number().int().min(1).max(10_000_000).optional(),
  })
  .strict();
export type MatchResult = z.infer<typeof ResultSchema>;

export const ArenaStateSchema = z.object({
  config: ArenaConfigSchema,
  phase: z.enum(['running', 'closed']),
  counter: z.number().int().nonnegative(),
  /** Rounds published so far (round-robin and duplicate formats publish one). */
  rounds: z.number().int().nonnegative(),
  matches: z.array(MatchSchema),
  results: z.record(z.string(), ResultSchema),
  closedAt: z.number().int().nullable(),
});
export type ArenaState = z.infer<typeof ArenaStateSchema>;
