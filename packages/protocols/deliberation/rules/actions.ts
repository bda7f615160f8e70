import type { Rejection } from '@db8/core';
import { z } from 'zod';
import { CodeDraftSchema, MeasurementSchema, ReflectionSchema, TestResultsSchema } from './code.ts';
import { PhaseSchema } from './config.ts';
import { TaskDraftSchema } from './coordination.ts';

/**
 * What a seat may send: one structured action per phase step, plus `failed` (a model call that
 * produced nothing usable — recorded as such, never replaced by invented content), `forfeit`, and
 * the operator's (or an authorised reviewer's) `approve`/`reject`/`measure`.
 */

const Text = z.string().max(20_000);
const Confidence = z.number().min(0).max(1);
const SeatRef = z.string().min(1).max(40);

/** Provenance of the model call behind a turn (null for hand-written or scripted turns). */
export const CallMetaSchema = z
  .object({
    provider: z.string().min(1).max(80),
    model: z.string().min(1).max(200),
    latencyMs: z.number().int().nonnegative(),
    inputTokens: z.number().int().nonnegative(),
    outputTokens: z.number().int().nonnegative(),
    costUsd: z.number().nonnegative().nullable(),
  })
  .strict();
export type CallMeta = z.infer<typeof CallMetaSchema>;
const call = CallMetaSchema.nullable().default(null);

export const SeveritySchema = z.enum(['low', 'medium', 'high', 'critical']);
export type Severity = z.infer<typeof SeveritySchema>;

export const QuestionSchema = z
  .object({
    question: z.string().min(1).max(2000),
    category: z.enum(['scope', 'requirements', 'constraints', 'assumptions', 'data', 'terminology', 'other']),
    priority: z.enum(['low', 'medium', 'high']),
  })
  .strict();

export const FindingSchema = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/),
    title: z.string().min(1).max(500),
    severity: SeveritySchema,
    evidence: z.string().min(1).max(8000),
  })
  .strict();

/**
 * A tool a model seat called while drafting, run by the server, with its result as the seat saw
 * it (docs/deliberation.md#tools): recorded in the turn, so replay needs neither model nor tool.
 */
export const TOOLS = ['run_tests', 'read_version', 'search_lessons'] as const;
export const ToolCallSchema = z
  .object({
    tool: z.enum(TOOLS),
    input: z.record(z.string().max(40), z.union([z.string().max(100_000), z.number()])),
    ok: z.boolean(),
    output: z.string().max(20_000),
  })
  .strict();
export type ToolCall = z.infer<typeof ToolCallSchema>;

/** Drafts (proposals, optimizations, patches) may carry code, tests run, reflections and tool calls. */
const draftExtras = {
  code: CodeDraftSchema.nullable().default(null),
  testResults: TestResultsSchema.nullable().default(null),
  reflections: z.array(ReflectionSchema).max(10).default([]),
  // Optional (absent when none), so turns without tools keep the shape they had.
  toolCalls: z.array(ToolCallSchema).max(8).optional(),
};

export const TurnActionSchema = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('clarify'),
      questions: z.array(QuestionSchema).max(20),
      content: Text,
      confidence: Confidence,
      call,
    })
    .strict(),
  z
    .object({
      type: z.literal('evolve'),
      selfTests: z
        .array(z.object({ check: z.string().min(1).max(1000), passed: z.boolean() }).strict())
        .max(20),
      content: Text,
      confidence: Confidence,
      call,
    })
    .strict(),
  z.object({ type: z.literal('plan'), tasks: z.array(TaskDraftSchema).min(1).max(32), call }).strict(),
  z
    .object({
      type: z.literal('propose'),
      content: Text,
      taskIds: z.array(z.string().max(81)).max(32).default([]),
      confidence: Confidence,
      ...draftExtras,
      call,
    })
    .strict(),
  z
    .object({
      type: z.literal('critique'),
      target: SeatRef.nullable(),
      points: z
        .array(z.object({ issue: z.string().min(1).max(2000), severity: SeveritySchema }).strict())
        .max(20),
      content: Text,
      confidence: Confidence,
      support: SeatRef.nullable().default(null),
      call,
    })
    .strict(),
  z
    .object({
      type: z.literal('review'),
      target: SeatRef.nullable(),
      verdict: z.enum(['approve', 'revise', 'reject']),
      score: z.number().min(0).max(1),
      content: Text,
      confidence: Confidence,
      support: SeatRef.nullable().default(null),
      call,
    })
    .strict(),
  z
    .object({
      type: z.literal('optimize'),
      target: SeatRef.nullable(),
      content: Text,
      confidence: Confidence,
      support: SeatRef.nullable().default(null),
      ...draftExtras,
      call,
    })
    .strict(),
  z
    .object({
      type: z.literal('red'),
      findings: z.array(FindingSchema).max(20),
      /** The red seat's estimate of the remaining risk (0–1); the phase stops below the threshold. */
      risk: z.number().min(0).max(1),
      content: Text,
      confidence: Confidence,
      call,
    })
    .strict(),
  z
    .object({
      type: z.literal('blue'),
      patches: z
        .array(z.object({ finding: z.string().max(81), patch: z.string().min(1).max(8000) }).strict())
        .max(20),
      content: Text,
      confidence: Confidence,
      ...draftExtras,
      call,
    })
    .strict(),
  z
    .object({
      type: z.literal('converge'),
      /** Candidates (proposal authors) best first; empty abstains. */
      ranking: z.array(SeatRef).max(16),
      content: Text,
      confidence: Confidence,
      dissent: z.string().max(4000).nullable().default(null),
      call,
    })
    .strict(),
  z
    .object({
      type: z.literal('failed'),
      error: z
        .object({ code: z.string().regex(/^[A-Za-z_]{1,40}$/), message: z.string().max(2000) })
        .strict(),
      call,
    })
    .strict(),
]);
export type TurnAction = z.infer<typeof TurnActionSchema>;
export type TurnKind = TurnAction['type'];

export const DeliberationActionSchema = z.union([
  TurnActionSchema,
  z.object({ type: z.literal('forfeit'), reason: z.string().max(2000) }).strict(),
  z.object({ type: z.literal('approve'), reason: z.string().max(2000) }).strict(),
  z.object({ type: z.literal('reject'), reason: z.string().min(1).max(2000) }).strict(),
  /** The operator ends the session: `by` names who asked (an admin over REST), else the operator. */
  z
    .object({
      type: z.literal('cancel'),
      reason: z.string().min(1).max(2000),
      by: z.string().min(1).max(200).nullable().default(null),
    })
    .strict(),
  z
    .object({ type: z.literal('measure'), version: z.number().int().min(1), measurement: MeasurementSchema })
    .strict(),
]);
export type DeliberationAction = z.infer<typeof DeliberationActionSchema>;

export const StepSchema = z.enum(['answer', 'refine', 'plan', 'work', 'red', 'blue']);
export type Step = z.infer<typeof StepSchema>;
export { PhaseSchema };

export const REJECTION_CODES = [
  'UNKNOWN_SEAT',
  'SESSION_OVER',
  'PAUSED',
  'NOT_PAUSED',
  'NOT_AUTHORISED',
  'NOT_YOUR_TURN',
  'WRONG_ACTION',
  'BAD_TARGET',
  'BAD_RANKING',
  'BAD_TASK',
  'BAD_FINDING',
  'MISSING_CODE',
  'TOO_MANY_REFLECTIONS',
  'UNKNOWN_VERSION',
] as const;
export type RejectionCode = (typeof REJECTION_CODES)[number];

export function reject(code: RejectionCode, message: string): { ok: false; error: Rejection } {
  return { ok: false, error: { code, message } };
}
