import { fromHex, parseSshPublicKey, type SeatInfo, toHex } from '@db8/core';
import { z } from 'zod';

/**
 * Room configuration for a debate (seed 000). The config is public: it is stored in the room's
 * genesis entry, so nothing secret belongs here — identities are bound later by a sealed
 * `bind_identity` action (see docs/debate.md). Defaults follow the seed (5 debaters, a 5-minute
 * submit window, a 30–60 s continue vote, rubric weights 35/30/20/5/10, α = 10).
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const window = (min: number) => z.number().int().min(min).max(DAY_MS);

/** An Ed25519 public key: an `ssh-ed25519 AAAA…` line or 64 hex chars (raw key, e.g. from WebCrypto). */
export const PublicKeyInputSchema = z
  .string()
  .min(1)
  .max(1000)
  .refine((s) => normalizeKey(s) !== null, 'expected an ssh-ed25519 public key line or 64 hex chars');

/** Raw key hex from either accepted form, or null when it is neither. */
export function normalizeKey(input: string): string | null {
  const s = input.trim();
  if (/^[0-9a-fA-F]{64}$/.test(s)) return toHex(fromHex(s.toLowerCase()));
  try {
    return toHex(parseSshPublicKey(s).publicKey);
  } catch {
    return null;
  }
}

const SEAT_RE = /^[a-z][a-z0-9_]{0,39}$/;
export const SeatIdSchema = z.string().regex(SEAT_RE, 'a seat id');
export const TagSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'lowercase tag, letters/digits/dashes');

export const RubricWeightsSchema = z
  .object({
    e: z.number().int().min(0).max(100),
    r: z.number().int().min(0).max(100),
    c: z.number().int().min(0).max(100),
    v: z.number().int().min(0).max(100),
    y: z.number().int().min(0).max(100),
  })
  .strict()
  .refine((w) => w.e + w.r + w.c + w.v + w.y === 100, 'rubric weights must sum to 100');

export const TimingsSchema = z
  .object({
    /** research_k: tools on, no writes. 0 skips the research phase. */
    research_ms: z.number().int().min(0).max(DAY_MS).default(60_000),
    /** submit_k: drafts and (re)submissions until the deadline. */
    submit_ms: window(1).default(300_000),
    /** verify_k: the bound on fact-checking; unchecked submissions are settled by `verification.on_timeout`. */
    verify_ms: window(1).default(120_000),
    /** The continue-vote window after each published round (the seed suggests 30–60 s). */
    continue_vote_ms: window(1).default(45_000),
    /** final_submit: the closing statements' window. */
    final_submit_ms: window(1).default(300_000),
    /** final_vote: approval ballots, judges' rubric cards and viewers' "after" stances. */
    final_vote_ms: window(1).default(120_000),
    /** How long results are shown before identities are unmasked. */
    results_ms: window(1).default(10_000),
    /** How long the unmasked stats are shown before the room closes. */
    reveal_ms: window(1).default(10_000),
    /**
     * The final vote ends as soon as every final voter's ballot, every judge's rubric card and every
     * viewer's "after" stance are in,
     * as the continue vote does. Absent in rooms made before it existed: they fold as they were made
     * (their vote runs its whole window).
     */
    final_vote_ends_when_all_in: z.boolean().default(true),
  })
  .strict();

/**
 * Demo pace (the web form's button): windows of seconds, so a debate of scripted seats (which end
 * after the first round) finishes in about a minute instead of a quarter of an hour of waiting.
 */
export const DEMO_TIMINGS = {
  research_ms: 0,
  submit_ms: 10_000,
  verify_ms: 6_000,
  continue_vote_ms: 5_000,
  final_submit_ms: 10_000,
  final_vote_ms: 8_000,
  results_ms: 4_000,
  reveal_ms: 4_000,
} as const;

export const CapsSchema = z
  .object({
    /** The seed's hard cap is 4000; a room may be stricter. */
    content_max: z.number().int().min(1).max(4000).default(4000),
    claims_max: z.number().int().min(1).max(5).default(5),
    citations_min: z.number().int().min(2).max(20).default(2),
  })
  .strict();

export const TrustSchema = z
  .object({
    /** Keys allowed to sign for a debater seat (SSHSIG or raw Ed25519). */
    keys: z.record(SeatIdSchema, z.array(PublicKeyInputSchema).max(8)).default({}),
    /** SSH CAs whose user certificates for principal `<seat>@<room_id>` may sign (SSHSIG only). */
    ca_keys: z.array(PublicKeyInputSchema).max(8).default([]),
    /** Whether debaters may add their own keys with `register_key` (trust on first use, per seat). */
    allow_registered_keys: z.boolean().default(true),
  })
  .strict();

export const ScoringSchema = z
  .object({
    weights: RubricWeightsSchema.default({ e: 35, r: 30, c: 20, v: 5, y: 10 }),
    /** Movement bonus = α × mean stance shift (stances are 0–100, so the bonus is within ±α). */
    alpha: z.number().int().min(0).max(100).default(10),
    /** Calibration bonus for a perfect Brier score; 0 at Brier ≥ 0.25 (always saying 50 %). */
    calibration_max: z.number().int().min(0).max(20).default(5),
    concession_reward: z.number().int().min(0).max(20).default(2),
    concession_penalty: z.number().int().min(0).max(20).default(2),
    /** The concession total is clamped to ±cap. */
    concession_cap: z.number().int().min(0).max(50).default(6),
  })
  .strict();

export const RoleSchema = z.enum(['debater', 'moderator', 'fact_checker', 'judge', 'viewer']);
export type Role = z.infer<typeof RoleSchema>;

export const DebateConfigSchema = z
  .object({
    topic: z.string().min(1).max(500),
    tags: z.array(TagSchema).max(10).default([]),
    /** The server room id, when known: submissions must then name it. See docs/debate.md. */
    room_id: z.string().min(1).max(200).nullable().default(null),
    debaters: z.number().int().min(2).max(12).default(5),
    judges: z.number().int().min(0).max(15).default(3),
    viewers: z.number().int().min(0).max(100).default(5),
    max_rounds: z.number().int().min(1).max(20).default(3),
    timings: TimingsSchema.prefault({}),
    caps: CapsSchema.prefault({}),
    /** `required`: unsigned submissions are refused. `optional`: they are recorded as `server`. */
    signatures: z.enum(['optional', 'required']).default('optional'),
    trust: TrustSchema.prefault({}),
    /** Who may cast the final approval ballot (a debater may not approve or rank themselves). */
    final_voters: z
      .array(RoleSchema)
      .min(1)
      .refine((r) => new Set(r).size === r.length, 'roles must be distinct')
      .default(['judge', 'viewer']),
    tie_rules: z
      .object({
        /** A tied continue vote (including no votes at all) continues or ends the debate. */
        continue: z.enum(['continue', 'end']).default('end'),
      })
      .strict()
      .prefault({}),
    /** Placements from approval ballots (the issue's rule) or from the total score. */
    placement: z.enum(['approval', 'score']).default('approval'),
    verification: z
      .object({
        /** What an unchecked submission becomes when the verify bound passes. */
        on_timeout: z.enum(['verified', 'rejected']).default('verified'),
      })
      .strict()
      .prefault({}),
    scoring: ScoringSchema.prefault({}),
    /**
     * Rate the seats played by scripted agents too (demos, tests): by default the ratings leave
     * them out. Absent in rooms made before it existed (they fold as they were made).
     */
    rate_scripted: z.boolean().optional(),
  })
  .strict()
  .superRefine((c, ctx) => {
    for (const seat of Object.keys(c.trust.keys)) {
      const m = /^anon_([1-9][0-9]*)$/.exec(seat);
      if (!m || Number(m[1]) > c.debaters) {
        ctx.addIssue({
          code: 'custom',
          path: ['trust', 'keys', seat],
          message: `${seat} is not a debater seat`,
        });
      }
    }
  });
export type DebateConfig = z.infer<typeof DebateConfigSchema>;
export type DebateConfigInput = z.input<typeof DebateConfigSchema>;
export type RubricWeights = z.infer<typeof RubricWeightsSchema>;

export const MODERATOR = 'moderator';
export const FACT_CHECKER = 'fact_checker';

export const debaterSeat = (i: number): string => `anon_${i}`;
export const judgeSeat = (i: number): string => `judge_${i}`;
export const viewerSeat = (i: number): string => `viewer_${i}`;

const range = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i + 1));

/** Debater seats in seat order; seat order is also the listing order everywhere. */
export function debaterSeats(config: DebateConfig): string[] {
  return range(config.debaters, debaterSeat);
}
export function judgeSeats(config: DebateConfig): string[] {
  return range(config.judges, judgeSeat);
}
export function viewerSeats(config: DebateConfig): string[] {
  return range(config.viewers, viewerSeat);
}

export function debateSeats(config: DebateConfig): SeatInfo[] {
  return [
    ...debaterSeats(config).map((id) => ({ id, role: 'debater' })),
    { id: MODERATOR, role: 'moderator' },
    { id: FACT_CHECKER, role: 'fact_checker' },
    ...judgeSeats(config).map((id) => ({ id, role: 'judge' })),
    ...viewerSeats(config).map((id) => ({ id, role: 'viewer' })),
  ];
}

/** The role of `seat` in this room, or null for a seat the room does not have. */
export function roleOf(config: DebateConfig, seat: string): Role | null {
  if (seat === MODERATOR) return 'moderator';
  if (seat === FACT_CHECKER) return 'fact_checker';
  const m = /^(anon|judge|viewer)_([1-9][0-9]*)$/.exec(seat);
  if (!m) return null;
  const i = Number(m[2]);
  if (m[1] === 'anon') return i <= config.debaters ? 'debater' : null;
  if (m[1] === 'judge') return i <= config.judges ? 'judge' : null;
  return i <= config.viewers ? 'viewer' : null;
}
