import { z } from 'zod';
import { CallMetaSchema, TurnErrorSchema } from './actions.ts';
import {
  AssessmentSchema,
  ChallengeSchema,
  OpeningSchema,
  RevisionSchema,
  VerdictSchema,
} from './payloads.ts';
import { type Role, RoleSchema } from './roles.ts';
import { type TurnStage, TurnStageSchema } from './stages.ts';

/**
 * A recorded turn: one role's payload at one stage, or its structured failure. `seq` is the log
 * entry that carried it (for a stage timeout, the tick that closed the stage).
 */

const base = {
  role: RoleSchema,
  seq: z.number().int().nonnegative(),
  at: z.number().int(),
  call: CallMetaSchema.nullable(),
};

export const TurnRecordSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('opening'), ...base, payload: OpeningSchema }).strict(),
  z.object({ kind: z.literal('challenge'), ...base, payload: ChallengeSchema }).strict(),
  z.object({ kind: z.literal('revision'), ...base, payload: RevisionSchema }).strict(),
  z.object({ kind: z.literal('assessment'), ...base, payload: AssessmentSchema }).strict(),
  z.object({ kind: z.literal('verdict'), ...base, payload: VerdictSchema }).strict(),
  z.object({ kind: z.literal('failed'), ...base, stage: TurnStageSchema, error: TurnErrorSchema }).strict(),
]);
export type TurnRecord = z.infer<typeof TurnRecordSchema>;
export type OkTurn<K extends TurnRecord['kind']> = Extract<TurnRecord, { kind: K }>;

const STAGE_OF_KIND = {
  opening: 'Round1',
  challenge: 'Round2',
  revision: 'Round3',
  assessment: 'Consensus',
  verdict: 'Judge',
} as const;

export function stageOfTurn(turn: TurnRecord): TurnStage {
  return turn.kind === 'failed' ? turn.stage : STAGE_OF_KIND[turn.kind];
}

export function turnsAt(turns: readonly TurnRecord[], stage: TurnStage): TurnRecord[] {
  return turns.filter((t) => stageOfTurn(t) === stage);
}

export function turnOf(turns: readonly TurnRecord[], stage: TurnStage, role: Role): TurnRecord | undefined {
  return turns.find((t) => t.role === role && stageOfTurn(t) === stage);
}

/** The role's successful turn of kind `kind`, if it has one. */
export function okTurn<K extends Exclude<TurnRecord['kind'], 'failed'>>(
  turns: readonly TurnRecord[],
  kind: K,
  role: Role,
): OkTurn<K> | undefined {
  return turns.find((t): t is OkTurn<K> => t.kind === kind && t.role === role);
}

/** One reason the run has less evidence than a full council: a failed turn or a missing step. */
export const DegradationMarkerSchema = z
  .object({
    stage: TurnStageSchema,
    role: RoleSchema.nullable(),
    code: z.string().min(1).max(40),
    message: z.string().max(2000),
  })
  .strict();
export type DegradationMarker = z.infer<typeof DegradationMarkerSchema>;

/** A marker for every failed turn, in log order. */
export function failureMarkers(turns: readonly TurnRecord[]): DegradationMarker[] {
  return turns.flatMap((t) =>
    t.kind === 'failed'
      ? [{ stage: t.stage, role: t.role, code: t.error.code, message: t.error.message }]
      : [],
  );
}
