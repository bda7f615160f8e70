import { createHmac, randomBytes } from 'node:crypto';
import { ed25519 } from '@db8/core';
import { z } from 'zod';
import {
  type AskDraft,
  countersign,
  didKeyFromPublicKey,
  type ResponderRecord,
  SIGNATURE_DOMAINS,
  type SignatureDomain,
  signObject,
} from '../rules/index.ts';

/**
 * What the node signs for a client that holds no key of its own: a question or a room input written
 * as a draft, completed with this node's id (`sender/node-id`) and signed with **that principal's
 * own key** on this node (`principalKey`), never one key for all. So a room's roles hold through
 * the node: the principal who asked is the asker; another account or self-registered agent on the
 * same node is another participant and cannot summarise or close as asker. A client with its own
 * key signs the full object itself and posts that instead; the gate treats both alike.
 */

export interface NodeIdentity {
  nodeId: string;
  federationId: string;
  seed: Uint8Array;
  publicKey: Uint8Array;
}

export const participantOf = (publicKey: Uint8Array) => `participant:${didKeyFromPublicKey(publicKey)}`;

/** A key the node signs with for one principal. */
export interface Signer {
  seed: Uint8Array;
  publicKey: Uint8Array;
}

/**
 * The key this node signs a principal's drafts with: Ed25519 from HMAC-SHA256(node seed, principal).
 * Derived, so it is stable across restarts and needs no storage; distinct per principal, so the
 * room tells principals apart; unlinkable to the node key without the seed.
 */
export function principalKey(node: NodeIdentity, principal: string): Signer {
  const seed = createHmac('sha256', node.seed)
    .update(`db8/swarm/principal-key/v1\u0000${principal}`)
    .digest();
  return { seed: new Uint8Array(seed), publicKey: ed25519.publicKeyFromSeed(new Uint8Array(seed)) };
}

// The draft's shape is the protocol package's, shared with the web's ask form.
export { type AskDraft, AskDraftSchema } from '../rules/index.ts';

/** Upstream's if/then pairs: the exposure mode a scope allows. */
const EXPOSURE: Record<string, string> = {
  'private-to-swarm': 'private-to-swarm',
  'federation-local': 'federation-local',
  'cross-federation': 'public-call-for-help',
  global: 'public-call-for-help',
};

const iso = (ms: number) => new Date(ms).toISOString();

export function nodeEnvelope(
  d: AskDraft,
  node: NodeIdentity,
  signer: Signer,
  now: number,
): Record<string, unknown> {
  const id = d.question_id ?? `question-${randomBytes(10).toString('hex')}`;
  const env: Record<string, unknown> = {
    'schema/v': 1,
    'question/id': id,
    'created-at': iso(now),
    'sender/node-id': node.nodeId,
    'sender/participant-id': participantOf(signer.publicKey),
    'sender/federation-id': node.federationId,
    'ttl-sec': d.ttl_sec,
    'question/text': d.text,
    'question/tags': d.tags,
    'delivery/scope': d.scope,
    'delivery/response-channel-id': id,
    'follow-ups/allowed': d.follow_ups,
    'request/exposure-mode': EXPOSURE[d.scope],
    'reward/mode': 'none',
  };
  if (d.languages) env.languages = d.languages;
  if (d.models_require) env['models/require'] = d.models_require;
  if (d.models_exclude) env['models/exclude'] = d.models_exclude;
  if (d.min_reputation !== undefined) env['responder/min-reputation'] = d.min_reputation;
  if (d.profile) env['room-policy/profile'] = d.profile;
  if (d.urgency) env['question/urgency'] = d.urgency;
  return signObject(env, SIGNATURE_DOMAINS.question, signer.seed);
}

/** A room-input draft: its `type` and its own fields; the node fills the rest and signs. */
export const InputDraftSchema = z
  .object({ type: z.string().min(1).max(64) })
  .catchall(z.unknown())
  .refine((d) => Object.keys(d).length <= 40, 'too many fields');
export type InputDraft = z.infer<typeof InputDraftSchema>;

/**
 * The signed input for `draft` in room `questionId`. Identity fields are the node's whatever the
 * draft says; the gate then checks the result against the input schemas like any other.
 */
export function nodeInput(
  draft: InputDraft,
  questionId: string,
  node: NodeIdentity,
  signer: Signer,
  now: number,
  /** A join's responder record, as this node attests it (`records.ts`). */
  record?: ResponderRecord,
): Record<string, unknown> {
  const participant = participantOf(signer.publicKey);
  const common = {
    'schema/v': 1,
    'question/id': questionId,
    'created-at': iso(now),
    'sender/federation-id': node.federationId,
  };
  const fresh = () => `input-${randomBytes(10).toString('hex')}`;
  let body: Record<string, unknown>;
  let domain: SignatureDomain;
  if (draft.type === 'swarm/question-summary') {
    body = {
      'summary/id': fresh().replace('input-', 'summary-'),
      ...draft,
      ...common,
      'author/node-id': node.nodeId,
      'author/participant-id': participant,
    };
    domain = SIGNATURE_DOMAINS.summary;
  } else if (draft.type === 'swarm/question-close') {
    body = { ...draft, ...common, 'closed-by/node-id': node.nodeId, 'closed-by/participant-id': participant };
    domain = SIGNATURE_DOMAINS.close;
  } else {
    body = {
      'input/id': fresh(),
      ...(draft.type === 'swarm/room-message' ? { 'origin/gateway': node.nodeId } : {}),
      ...draft,
      ...common,
      'sender/node-id': node.nodeId,
      'sender/participant-id': participant,
    };
    domain = SIGNATURE_DOMAINS.room;
  }
  delete body.signature;
  delete body['gateway/signature'];
  // A reputation is the roster's figure for this node (rules 2), never what a draft claims.
  delete body['responder/reputation'];
  delete body['gateway/record'];
  const signed = signObject(body, domain, signer.seed);
  return relayedBy(
    node,
    draft.type === 'swarm/room-join' && record ? { ...signed, 'gateway/record': record } : signed,
  );
}

/** This node countersigns an input it relays that names it as its node (docs/swarm.md "Node keys"). */
export function relayedBy(node: NodeIdentity, input: Record<string, unknown>): Record<string, unknown> {
  return countersign(input, node.seed);
}
