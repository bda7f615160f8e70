import { z } from 'zod';
import { DateTimeSchema, IdSchema, SignerIdSchema } from './formats.ts';

/**
 * db8's flat schemas for the two lifecycle events proposal 003 shows only as nested examples
 * (`swarm/question-summary`, `swarm/question-close`). Upstream has no schema for them: these are
 * db8's own, written in the flat style of `question-envelope.v1`. `…/participant-id` names the
 * signing key (a `participant:` or `nym:` did:key); the proposal's examples carry no key at all.
 * The JSON Schema documents are generated from these (`summaryJsonSchema`, `closeJsonSchema`).
 */

export const SignatureSchema = z
  .object({ alg: z.string().min(1).max(32), value: z.string().min(1).max(200) })
  .strict();
const Id = IdSchema;
const Items = z.array(z.string().min(1).max(4000)).max(100);

export const SummarySchema = z
  .object({
    'schema/v': z.literal(1),
    type: z.literal('swarm/question-summary'),
    'question/id': Id,
    'summary/id': Id,
    'created-at': DateTimeSchema,
    'author/node-id': Id,
    'author/participant-id': SignerIdSchema,
    'sender/federation-id': Id.optional(),
    'gateway/signature': SignatureSchema.optional(),
    'author/role': z.enum(['asker', 'secretary', 'participant']),
    status: z.enum(['intermediate', 'final']),
    'content/facts': Items,
    'content/hypotheses': Items,
    'content/recommendations': Items,
    'content/uncertainty': z.number().min(0).max(1),
    signature: SignatureSchema,
  })
  .strict();
export type Summary = z.infer<typeof SummarySchema>;

const closeBase = {
  'schema/v': z.literal(1),
  type: z.literal('swarm/question-close'),
  'question/id': Id,
  'created-at': DateTimeSchema,
  'closed-by/node-id': Id,
  'closed-by/participant-id': SignerIdSchema,
  'sender/federation-id': Id.optional(),
  'gateway/signature': SignatureSchema.optional(),
  'closed-by/role': z.enum(['asker', 'secretary']),
  signature: SignatureSchema,
};

/** `accepted-summary/id` is required exactly when the resolution is `accepted-answer`. */
export const CloseSchema = z.discriminatedUnion('resolution', [
  z.object({ ...closeBase, resolution: z.literal('accepted-answer'), 'accepted-summary/id': Id }).strict(),
  z.object({ ...closeBase, resolution: z.enum(['closed', 'expired', 'handed-off']) }).strict(),
]);
export type Close = z.infer<typeof CloseSchema>;

export function summaryJsonSchema(): Record<string, unknown> {
  return {
    $id: 'urn:db8:schema:swarm-question-summary:v1',
    ...z.toJSONSchema(SummarySchema, { target: 'draft-2020-12' }),
  };
}

export function closeJsonSchema(): Record<string, unknown> {
  return {
    $id: 'urn:db8:schema:swarm-question-close:v1',
    ...z.toJSONSchema(CloseSchema, { target: 'draft-2020-12' }),
  };
}
