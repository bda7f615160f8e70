import { z } from 'zod';
import {
  CodeDraftSchema,
  FindingSchema,
  type LegalAction,
  QuestionSchema,
  SeveritySchema,
} from '../rules/index.ts';

/**
 * The reply schema of a model's deliberation turn, built from what `legal()` offers: candidates,
 * tasks and findings become enums, so a model cannot name what its topology hides (turn.ts plays
 * the turn with it).
 */

const Text = z.string().max(20_000);
const Confidence = z.number().min(0).max(1);

/** `z.enum` of the options, or null when there are none (the field must then be null). */
function oneOf(options: readonly string[]) {
  return options.length ? z.enum(options as [string, ...string[]]).nullable() : z.null();
}

/** The reply schema for a turn kind: the action's body without `type` and `call`. */
export function replySchema(turn: LegalAction, codeTask: boolean): z.ZodType<Record<string, unknown>> {
  const code = CodeDraftSchema;
  switch (turn.type) {
    case 'clarify':
      return z
        .object({ questions: z.array(QuestionSchema).max(10), content: Text, confidence: Confidence })
        .strict();
    case 'evolve':
      return z
        .object({
          selfTests: z
            .array(z.object({ check: z.string().min(1).max(1000), passed: z.boolean() }).strict())
            .max(10),
          content: Text,
          confidence: Confidence,
        })
        .strict();
    case 'plan':
      return z
        .object({
          tasks: z
            .array(
              z
                .object({
                  id: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/),
                  description: z.string().min(1).max(2000),
                  assignee: oneOf(turn.style === 'cpde' ? turn.seats : []),
                  dependsOn: z.array(z.string().max(81)).max(16),
                  priority: z.number().int().min(0).max(100),
                })
                .strict(),
            )
            .min(1)
            .max(16),
        })
        .strict();
    case 'propose':
      return z
        .object({
          content: Text,
          taskIds: turn.tasks.length
            ? z.array(z.enum(turn.tasks as [string, ...string[]])).max(16)
            : z.array(z.never()).max(0),
          confidence: Confidence,
          code: turn.code || codeTask ? code : code.nullable(),
        })
        .strict();
    case 'critique':
      return z
        .object({
          target: oneOf(turn.candidates),
          points: z
            .array(z.object({ issue: z.string().min(1).max(2000), severity: SeveritySchema }).strict())
            .max(10),
          content: Text,
          confidence: Confidence,
          support: oneOf(turn.candidates),
        })
        .strict();
    case 'review':
      return z
        .object({
          target: oneOf(turn.candidates),
          verdict: z.enum(['approve', 'revise', 'reject']),
          score: z.number().min(0).max(1),
          content: Text,
          confidence: Confidence,
          support: oneOf(turn.candidates),
        })
        .strict();
    case 'optimize':
      return z
        .object({
          target: oneOf(turn.candidates),
          content: Text,
          confidence: Confidence,
          support: oneOf(turn.candidates),
          code: turn.code ? code : code.nullable(),
        })
        .strict();
    case 'red':
      return z
        .object({
          findings: z.array(FindingSchema).max(10),
          risk: z.number().min(0).max(1),
          content: Text,
          confidence: Confidence,
        })
        .strict();
    case 'blue':
      return z
        .object({
          patches: turn.findings.length
            ? z
                .array(
                  z
                    .object({
                      finding: z.enum(turn.findings as [string, ...string[]]),
                      patch: z.string().min(1).max(8000),
                    })
                    .strict(),
                )
                .max(10)
            : z.array(z.never()).max(0),
          content: Text,
          confidence: Confidence,
          code: code.nullable(),
        })
        .strict();
    case 'converge':
      return z
        .object({
          ranking: turn.candidates.length
            ? z.array(z.enum(turn.candidates as [string, ...string[]])).max(turn.candidates.length)
            : z.array(z.never()).max(0),
          content: Text,
          confidence: Confidence,
          dissent: z.string().max(4000).nullable(),
        })
        .strict();
    default:
      return z.object({}).strict();
  }
}
