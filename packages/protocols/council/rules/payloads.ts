import { z } from 'zod';
import { RoleSchema } from './roles.ts';

/**
 * What each role produces at each stage. These schemas are sent to the model (as JSON Schema) and
 * validate its reply, so every field is required (nullable where it may be empty) and objects are
 * strict: that is what OpenAI's strict structured output and Anthropic tool input accept.
 */

const Short = z.string().trim().min(1).max(600);
const Long = z.string().trim().min(1).max(6000);
export const ConfidenceSchema = z.number().min(0).max(1);
export const SeveritySchema = z.enum(['low', 'medium', 'high']);

/** support: act as proposed · oppose: do not · conditional: act only if the stated conditions hold. */
export const StanceSchema = z.enum(['support', 'oppose', 'conditional']);
export type Stance = z.infer<typeof StanceSchema>;

/** Round 1 — opening: claim, rationale, risks (seed 001), plus the stance and confidence it starts from. */
export const OpeningSchema = z
  .object({
    claim: Short,
    rationale: Long,
    risks: z.array(z.object({ risk: Short, severity: SeveritySchema }).strict()).max(8),
    stance: StanceSchema,
    confidence: ConfidenceSchema,
  })
  .strict();
export type Opening = z.infer<typeof OpeningSchema>;

/** Round 2 — challenges to the one role the challenge map names (`target`). */
export const ChallengeSchema = z
  .object({
    target: RoleSchema,
    challenges: z
      .array(
        z
          .object({
            /** The part of the target's opening being challenged, quoted or paraphrased. */
            point: Short,
            challenge: Long,
            severity: SeveritySchema,
          })
          .strict(),
      )
      .min(1)
      .max(5),
  })
  .strict();
export type Challenge = z.infer<typeof ChallengeSchema>;

/** Round 3 — the revised position, what changed since round 1 and why, and answers to challenges. */
export const RevisionSchema = z
  .object({
    claim: Short,
    rationale: Long,
    stance: StanceSchema,
    /** For `conditional`: what must hold. May be empty otherwise. */
    conditions: z.array(Short).max(8),
    confidence: ConfidenceSchema,
    deltas: z
      .array(
        z
          .object({
            aspect: Short,
            before: Short,
            after: Short,
            /** The role whose challenge caused the change, or null for the role's own reconsideration. */
            promptedBy: RoleSchema.nullable(),
          })
          .strict(),
      )
      .max(8),
    answers: z.array(z.object({ to: RoleSchema, answer: Short, conceded: z.boolean() }).strict()).max(5),
  })
  .strict();
export type Revision = z.infer<typeof RevisionSchema>;

/**
 * Consensus — the Synthesizer's structured reading of the final (round 3) positions: the stance it
 * reads in each, which may differ from the stance the role declared, plus common ground,
 * disagreements and a proposal.
 */
export const AssessmentSchema = z
  .object({
    positions: z.array(z.object({ role: RoleSchema, stance: StanceSchema, note: Short }).strict()).max(5),
    commonGround: z.array(Short).max(8),
    disagreements: z.array(Short).max(8),
    proposal: Long,
  })
  .strict();
export type Assessment = z.infer<typeof AssessmentSchema>;

export const VerdictKindSchema = z.enum(['adopt', 'adopt_with_conditions', 'reject', 'defer']);

/** A calendar date, YYYY-MM-DD (validated: 2025-02-30 is refused). */
export const DueDateSchema = z.iso.date();

export const NextActionSchema = z
  .object({
    action: Short,
    /** Who does it: a person, a team, `operator`, or a role name. */
    owner: z.string().trim().min(1).max(120),
    due: DueDateSchema,
  })
  .strict();

/** Judge — the decision with rationale, risks with mitigations and dated next actions. */
export const VerdictSchema = z
  .object({
    decision: Short,
    verdict: VerdictKindSchema,
    rationale: Long,
    risks: z.array(z.object({ risk: Short, mitigation: Short }).strict()).max(10),
    nextActions: z.array(NextActionSchema).min(1).max(10),
    /** The judge's rating of how well the debate supports the decision, in [0, 1]. */
    quality: ConfidenceSchema,
  })
  .strict();
export type Verdict = z.infer<typeof VerdictSchema>;

/** The payload schema for each turn kind, by stage. */
export const PAYLOAD_SCHEMAS = {
  Round1: OpeningSchema,
  Round2: ChallengeSchema,
  Round3: RevisionSchema,
  Consensus: AssessmentSchema,
  Judge: VerdictSchema,
} as const;
