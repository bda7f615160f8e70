import type { Rejection } from '@db8/core';
import { z } from 'zod';
import {
  AssessmentSchema,
  ChallengeSchema,
  OpeningSchema,
  RevisionSchema,
  VerdictSchema,
} from './payloads.ts';
import { TurnStageSchema } from './stages.ts';

/**
 * What a seat may send. Turn actions carry the payload plus `call`: the provenance of the model
 * call that produced it (provider, model, tokens, cost, latency), so the log says who said what and
 * at what price. A role that could not produce a valid payload sends `failed` with a structured
 * error — a recorded failure, never invented content.
 */

export const CallMetaSchema = z
  .object({
    provider: z.string().min(1).max(80),
    model: z.string().min(1).max(200),
    scripted: z.boolean(),
    /** HTTP attempts made (retries and the repair attempt included). */
    attempts: z.number().int().nonnegative(),
    repaired: z.boolean(),
    inputTokens: z.number().int().nonnegative(),
    outputTokens: z.number().int().nonnegative(),
    /** USD; null when the price of the model is unknown. */
    costUsd: z.number().nonnegative().nullable(),
    latencyMs: z.number().int().nonnegative(),
  })
  .strict();
export type CallMeta = z.infer<typeof CallMetaSchema>;

export const TurnErrorSchema = z
  .object({
    /** Stable code: provider codes (`timeout`, `rate_limited`, `invalid_output`, …) or `STAGE_TIMEOUT`, `TARGET_UNAVAILABLE`. */
    code: z.string().regex(/^[A-Za-z_]{1,40}$/),
    message: z.string().max(2000),
  })
  .strict();
export type TurnError = z.infer<typeof TurnErrorSchema>;

const call = CallMetaSchema.nullable();

export const CouncilActionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('opening'), payload: OpeningSchema, call }).strict(),
  z.object({ type: z.literal('challenge'), payload: ChallengeSchema, call }).strict(),
  z.object({ type: z.literal('revision'), payload: RevisionSchema, call }).strict(),
  z.object({ type: z.literal('assessment'), payload: AssessmentSchema, call }).strict(),
  z.object({ type: z.literal('verdict'), payload: VerdictSchema, call }).strict(),
  z.object({ type: z.literal('failed'), stage: TurnStageSchema, error: TurnErrorSchema, call }).strict(),
  /** Operator: the decision record was written; `packetSha256` must be the packet's canonical hash. */
  z
    .object({
      type: z.literal('writeback'),
      recordPath: z.string().min(1).max(1000),
      packetSha256: z.string().regex(/^[0-9a-f]{64}$/),
    })
    .strict(),
  /** Operator: a structural failure (storage unavailable, …) ends the run. */
  z.object({ type: z.literal('abort'), error: TurnErrorSchema }).strict(),
]);
export type CouncilAction = z.infer<typeof CouncilActionSchema>;
export type PayloadAction = Extract<
  CouncilAction,
  { type: 'opening' | 'challenge' | 'revision' | 'assessment' | 'verdict' }
>;

/** Which payload action each turn stage takes. */
export const ACTION_FOR_STAGE = {
  Round1: 'opening',
  Round2: 'challenge',
  Round3: 'revision',
  Consensus: 'assessment',
  Judge: 'verdict',
} as const;

export const REJECTION_CODES = [
  'UNKNOWN_SEAT',
  'RUN_OVER',
  'WRONG_STAGE',
  'NOT_YOUR_TURN',
  'ALREADY_SUBMITTED',
  'STAGE_EXPIRED',
  'WRONG_TARGET',
  'BAD_ASSESSMENT',
  'BAD_DUE_DATE',
  'PACKET_MISMATCH',
] as const;
export type CouncilRejectionCode = (typeof REJECTION_CODES)[number];

export function reject(
  code: CouncilRejectionCode,
  message: string,
  details?: Record<string, unknown>,
): { ok: false; error: Rejection } {
  return { ok: false, error: details ? { code, message, details } : { code, message } };
}
