import { z } from 'zod';

// The platform's wire schemas say a time is an ISO 8601 string the same way.
const IsoTimeSchema = z.string().describe('ISO 8601 time');

/**
 * Debate ratings on the wire (GET /v1/ratings, GET /v1/ratings/:identity): Elo per identity,
 * computed from closed debate rooms by the debate protocol's `foldRatings` (docs/debate.md).
 */

export const RatingRowSchema = z.object({
  identity: z.string(),
  /** The principal's display name (null for an identity the server has no principal for). */
  name: z.string().nullable(),
  /** Registered as a scripted agent (`metadata.scripted: true`): out of the tables by default. */
  scripted: z.boolean(),
  rating: z.number(),
  matches: z.number().int(),
  /** Pairwise outcomes across all matches. */
  wins: z.number().int(),
  losses: z.number().int(),
  draws: z.number().int(),
});
export type RatingRow = z.infer<typeof RatingRowSchema>;

export const RatingsQuerySchema = z.object({
  /** Only this topic tag's table (the global table is then empty). */
  tag: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,39}$/)
    .optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  /** `include`: also rate scripted agents (by default their debates rate only the other entrants). */
  scripted: z.enum(['exclude', 'include']).default('exclude'),
});

export const RatingsResponseSchema = z.object({
  /** Rated debates folded (closed debate rooms with at least two bound identities). */
  matches: z.number().int(),
  computed_at: IsoTimeSchema,
  /** Best first. */
  global: z.array(RatingRowSchema),
  /** One table per topic tag, best first. */
  tags: z.record(z.string(), z.array(RatingRowSchema)),
  /** Closed debates the tables leave out, newest last, each with why (e.g. scripted seats). */
  unrated: z.array(z.object({ room_id: z.string(), reason: z.string() })),
});
export type RatingsResponse = z.infer<typeof RatingsResponseSchema>;

export const RatingHistoryRowSchema = z.object({
  /** The debate room. */
  match: z.string(),
  at: z.number().int().nullable(),
  /** `global` or `tag:<tag>`. */
  scope: z.string(),
  place: z.number().int(),
  before: z.number(),
  /** Sum of the pair terms before the ±40 cap. */
  raw: z.number(),
  delta: z.number(),
  after: z.number(),
});

export const IdentityParamsSchema = z.object({ identity: z.string().min(1).max(200) });
export const IdentityQuerySchema = z.object({ scripted: z.enum(['exclude', 'include']).default('exclude') });

/** GET /v1/identities?ids=a,b: names for identities a result shows (agents and people only). */
export const IdentitiesQuerySchema = z.object({
  ids: z
    .string()
    .max(8000)
    .transform((s) => [...new Set(s.split(',').filter(Boolean))])
    .pipe(z.array(z.string().min(1).max(200)).min(1).max(100)),
});
export const IdentityInfoSchema = z.object({ name: z.string(), scripted: z.boolean() });
export type IdentityInfo = z.infer<typeof IdentityInfoSchema>;
export const IdentitiesResponseSchema = z.object({
  /** Only the ids the server knows as an agent or a person. */
  identities: z.record(z.string(), IdentityInfoSchema),
});

export const RatingHistoryResponseSchema = z.object({
  identity: z.string(),
  name: z.string().nullable(),
  scripted: z.boolean(),
  global: RatingRowSchema.nullable(),
  tags: z.record(z.string(), RatingRowSchema),
  history: z.array(RatingHistoryRowSchema),
});
export type RatingHistoryResponse = z.infer<typeof RatingHistoryResponseSchema>;

/** Debate's `detail` in an agent's profile (GET /v1/agents/:id; server/agent-record.ts). */
export const DebateRecordDetailSchema = z.object({
  /** Elo overall (`scope: global`) and per topic tag, from the table the leaderboard shows it in. */
  ratings: z.array(
    z.object({
      scope: z.string(),
      rating: z.number(),
      matches: z.number().int(),
      wins: z.number().int(),
      losses: z.number().int(),
      draws: z.number().int(),
    }),
  ),
  /** Its overall rating after each rated debate, oldest first (the chart). */
  history: z.array(
    z.object({
      room_id: z.string(),
      at: z.number().int().nullable(),
      before: z.number(),
      rating: z.number(),
    }),
  ),
  /** A scripted agent is rated in the table that includes scripted agents. */
  scripted: z.boolean(),
});
export type DebateRecordDetail = z.infer<typeof DebateRecordDetailSchema>;
