import type { Rejection } from '@db8/core';
import { z } from 'zod';
import { AdminActionSchemas } from './admin-actions.ts';
import { PublicKeyInputSchema, SeatIdSchema } from './config.ts';
import { DraftActionSchema, SubmitActionSchema } from './submission.ts';

/**
 * Every action a seat may send. Sealed ones (drafts, submissions, verdicts, ballots, rubric
 * cards, stances, identity bindings) are stored with seat visibility and revealed by the
 * protocol's own public entries when the rules publish them (docs/debate.md, "What is sealed").
 */

export const VerdictValueSchema = z.enum(['true', 'false', 'unclear', 'needs_work']);
export type VerdictValue = z.infer<typeof VerdictValueSchema>;

export const ClaimVerdictSchema = z
  .object({
    claim_id: z.string().min(1).max(64),
    verdict: VerdictValueSchema,
    reason: z.string().min(1).max(2000),
  })
  .strict();
export type ClaimVerdict = z.infer<typeof ClaimVerdictSchema>;

const score = z.number().int().min(0).max(100);
export const RubricCardSchema = z.object({ e: score, r: score, c: score, v: score, y: score }).strict();
export type RubricCard = z.infer<typeof RubricCardSchema>;

const seatList = z.array(SeatIdSchema).max(12);

export const DebateActionSchema = z.discriminatedUnion('type', [
  DraftActionSchema,
  SubmitActionSchema,
  /** A debater adds a signing key for their own seat (public entry). */
  z.object({ type: z.literal('register_key'), public_key: PublicKeyInputSchema }).strict(),
  /** Fact-checker: one verdict per claim of the author's latest submission, named by its hash. */
  z
    .object({
      type: z.literal('verdict'),
      author: SeatIdSchema,
      canonical_sha256: z.string().regex(/^[0-9a-f]{64}$/),
      claims: z.array(ClaimVerdictSchema).min(1).max(5),
    })
    .strict(),
  /** Debater: continue the debate or end it, after a published round (replaceable in the window). */
  z.object({ type: z.literal('vote_continue'), choice: z.enum(['continue', 'end']) }).strict(),
  /** Final ballot: approve ≥ 1 debaters; an optional ranking breaks ties (Borda). */
  z
    .object({
      type: z.literal('final_vote'),
      approval: seatList.min(1),
      ranking: seatList.optional(),
    })
    .strict(),
  /** Judge: rubric cards for some or all debaters; replaces the judge's previous card set. */
  z
    .object({
      type: z.literal('score'),
      cards: z
        .array(z.object({ debater: SeatIdSchema, ...RubricCardSchema.shape }).strict())
        .min(1)
        .max(12),
    })
    .strict(),
  /** Viewer: agreement (0–100) with debaters' positions, before and after; replaces that set. */
  z
    .object({
      type: z.literal('stance'),
      when: z.enum(['before', 'after']),
      stances: z
        .array(z.object({ debater: SeatIdSchema, value: score }).strict())
        .min(1)
        .max(12),
    })
    .strict(),
  /** Moderator: who sits behind an anonymous seat; sealed until stats_and_reveal unmasks it. */
  z
    .object({
      type: z.literal('bind_identity'),
      seat: SeatIdSchema,
      identity: z.string().min(1).max(200),
    })
    .strict(),
  ...AdminActionSchemas,
]);
export type DebateAction = z.infer<typeof DebateActionSchema>;
export type DebateActionType = DebateAction['type'];

export const REJECTION_CODES = [
  'UNKNOWN_SEAT',
  'WRONG_ROLE',
  'WRONG_PHASE',
  'PHASE_CLOSED',
  'ROOM_MISMATCH',
  'ROUND_MISMATCH',
  'AUTHOR_MISMATCH',
  'CONTENT_TOO_LONG',
  'TOO_MANY_CLAIMS',
  'TOO_FEW_CITATIONS',
  'DUPLICATE_CLAIM_ID',
  'BAD_CONCESSION',
  'SIGNATURE_REQUIRED',
  'BAD_SIGNATURE',
  'DUPLICATE',
  'NONCE_REUSED',
  'BAD_KEY',
  'KEYS_CLOSED',
  'NOTHING_TO_VERIFY',
  'STALE_SUBMISSION',
  'BAD_VERDICT',
  'BAD_BALLOT',
  'SELF_VOTE',
  'BAD_SCORE',
  'BAD_STANCE',
  'DUPLICATE_IDENTITY',
  'PAUSED',
  'NOT_PAUSED',
  'DEBATE_OVER',
  'NOT_A_NO_SHOW',
  'TOO_LATE',
] as const;
export type DebateRejectionCode = (typeof REJECTION_CODES)[number];

export function reject(
  code: DebateRejectionCode,
  message: string,
  details?: Record<string, unknown>,
): { ok: false; error: Rejection } {
  return { ok: false, error: details ? { code, message, details } : { code, message } };
}
