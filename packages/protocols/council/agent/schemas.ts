import { z } from 'zod';
import {
  AssessmentSchema,
  CHALLENGE_MAP,
  ChallengeSchema,
  DueDateSchema,
  NextActionSchema,
  OpeningSchema,
  RevisionSchema,
  type Role,
  RoleSchema,
  StanceSchema,
  VerdictSchema,
} from '../rules/index.ts';

/**
 * The schema each call carries: the protocol's payload schema, narrowed to what the protocol will
 * accept from this role now (its one challenge target, the roles it may assess, due dates from
 * today). A reply that breaks those rules fails validation and gets the repair attempt, instead of
 * being refused later by the protocol.
 */

export const SCHEMA_NAMES = {
  Round1: 'council_opening',
  Round2: 'council_challenge',
  Round3: 'council_revision',
  Consensus: 'council_assessment',
  Judge: 'council_verdict',
} as const;

export function openingSchema() {
  return OpeningSchema;
}

// Memoised so a schema object (and its JSON Schema, cached by the pipeline) is built once.
const memo = new Map<string, z.ZodType>();
function once<T extends z.ZodType>(key: string, make: () => T): T {
  let s = memo.get(key);
  if (!s) {
    s = make();
    memo.set(key, s);
  }
  return s as T;
}

export function challengeSchema(role: Role) {
  return once(`challenge:${role}`, () =>
    ChallengeSchema.extend({ target: z.enum([CHALLENGE_MAP[role]]) }).strict(),
  );
}

export function revisionSchema() {
  return RevisionSchema;
}

export function assessmentSchema(assessable: readonly Role[]) {
  return once(`assessment:${assessable.join(',')}`, () => makeAssessmentSchema(assessable));
}

function makeAssessmentSchema(assessable: readonly Role[]) {
  const role = assessable.length > 0 ? z.enum(assessable as [Role, ...Role[]]) : RoleSchema;
  const position = z
    .object({ role, stance: StanceSchema, note: AssessmentSchema.shape.positions.element.shape.note })
    .strict();
  return AssessmentSchema.extend({ positions: z.array(position).max(assessable.length) }).strict();
}

export function verdictSchema(today: string) {
  return once(`verdict:${today}`, () => makeVerdictSchema(today));
}

function makeVerdictSchema(today: string) {
  const due = DueDateSchema.refine((d) => d >= today, { message: `due dates must be ${today} or later` });
  const action = NextActionSchema.extend({ due }).strict();
  return VerdictSchema.extend({ nextActions: z.array(action).min(1).max(10) }).strict();
}
