import { hashCanonical } from '@db8/core';
import { z } from 'zod';
import { CloseSchema, SignatureSchema, SummarySchema } from './events.ts';
import { DateTimeSchema, IdSchema, LabelSchema, SignerIdSchema } from './formats.ts';
import { ResponderRecordSchema } from './reputation.ts';

/**
 * The answer room's inputs: db8's own signed messages (domain `db8/swarm/room-input/v1`), plus the
 * summary and close events. Every one names its room (`question/id`), carries a unique `input/id`
 * (the replay key and the bus message id), and is signed by `sender/participant-id`'s did:key.
 * The room folds them in stream order; the relay seat that submits them carries no authority.
 */

export const ORIGIN_CLASSES = ['node-generated', 'node-mediated-human', 'human-live'] as const;
export const OriginClassSchema = z.enum(ORIGIN_CLASSES);
export type OriginClass = z.infer<typeof OriginClassSchema>;

export const PROFILES = ['none', 'mediated-only', 'direct-live-allowed'] as const;
export const ProfileSchema = z.enum(PROFILES);
export type Profile = z.infer<typeof ProfileSchema>;

const Id = IdSchema;
const Labels = z.array(LabelSchema).max(50);

const common = {
  'schema/v': z.literal(1),
  'question/id': Id,
  'input/id': Id,
  'created-at': DateTimeSchema,
  'sender/node-id': Id,
  'sender/participant-id': SignerIdSchema,
  /** Rules 2: the federation the input comes from (a federation-scoped room takes only its own). */
  'sender/federation-id': Id.optional(),
  signature: SignatureSchema,
  /** Rules 2: the node's countersignature (`federation.ts`), binding `sender/node-id` to its key. */
  'gateway/signature': SignatureSchema.optional(),
};

export const JoinSchema = z
  .object({
    ...common,
    type: z.literal('swarm/room-join'),
    'responder/models': Labels,
    'responder/languages': z.array(LabelSchema.pipe(z.string().min(2).max(35))).max(20),
    'responder/tags': Labels,
    /** The gateway node's rating of this responder mapped to 0..1 (docs/swarm.md "Reputation"). */
    'responder/reputation': z.number().min(0).max(1).optional(),
    /**
     * Rules 3: the responder's record as the relaying node attests it (outside the participant's
     * signature, inside the node's countersignature; docs/swarm.md "Reputation").
     */
    'gateway/record': ResponderRecordSchema.optional(),
  })
  .strict();

export const PresenceSchema = z.object({ ...common, type: z.literal('swarm/room-presence') }).strict();

export const MessageSchema = z
  .object({
    ...common,
    type: z.literal('swarm/room-message'),
    /** `follow-up` asks the asker to clarify; `clarification` is the asker's (or secretary's) reply. */
    'message/kind': z.enum(['answer', 'follow-up', 'clarification']),
    'message/text': z.string().min(1).max(8000),
    'origin/class': OriginClassSchema,
    /** Who spoke: a model label, an agent or a person's handle. */
    'origin/speaker': Id,
    /** The node the message entered through; must be the signing node (`sender/node-id`). */
    'origin/gateway': Id,
  })
  .strict();

export const VerdictSchema = z
  .object({
    ...common,
    type: z.literal('swarm/room-verdict'),
    'verdict/input-id': Id,
    'verdict/decision': z.enum(['accept', 'reject']),
  })
  .strict();

export const DelegateSchema = z
  .object({
    ...common,
    type: z.literal('swarm/room-delegate'),
    'secretary/participant-id': SignerIdSchema,
    'secretary/node-id': Id,
    'close/allowed': z.boolean(),
  })
  .strict();

export const TakeoverSchema = z.object({ ...common, type: z.literal('swarm/room-takeover') }).strict();

export const PolicySchema = z
  .object({ ...common, type: z.literal('swarm/room-policy'), 'room-policy/profile': ProfileSchema })
  .strict();

export const RoomInputSchema = z.discriminatedUnion('type', [
  JoinSchema,
  PresenceSchema,
  MessageSchema,
  VerdictSchema,
  DelegateSchema,
  TakeoverSchema,
  PolicySchema,
  SummarySchema,
  CloseSchema,
]);
export type RoomInput = z.infer<typeof RoomInputSchema>;
export type Join = z.infer<typeof JoinSchema>;
export type Message = z.infer<typeof MessageSchema>;

/** The signer of any room input. */
export function signerOf(input: RoomInput): string {
  if (input.type === 'swarm/question-summary') return input['author/participant-id'];
  if (input.type === 'swarm/question-close') return input['closed-by/participant-id'];
  return input['sender/participant-id'];
}

/** The stream-wide id of an input: the bus dedup key (`Nats-Msg-Id`) and the room's replay key. */
export function inputIdOf(input: RoomInput): string {
  if (input.type === 'swarm/question-summary') return input['summary/id'];
  if (input.type === 'swarm/question-close') return `close:${input['question/id']}`;
  return input['input/id'];
}

/**
 * Rules 2: an input's own key in its room, derived from its signer, its kind and its local id
 * (`input/id`, `summary/id`; a close has one per signer). Only the signer's key can sign an input
 * with that key, so no one can take another's id: the replay guard and every reference (a
 * verdict's `verdict/input-id`, a close's `accepted-summary/id`) may name it.
 */
export function ownKeyOf(input: RoomInput): string {
  const signer = signerOf(input);
  if (input.type === 'swarm/question-summary') return `s-${derived('summary', signer, input['summary/id'])}`;
  if (input.type === 'swarm/question-close') return `c-${derived('close', signer, '')}`;
  return `m-${derived('input', signer, input['input/id'])}`;
}

const derived = (kind: string, signer: string, local: string) =>
  hashCanonical([kind, signer, local]).slice(0, 32);
