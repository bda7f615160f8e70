import {
  canonicalBytes,
  concatBytes,
  ed25519,
  fromBase64Url,
  hashCanonical,
  toBase64Url,
  utf8Encode,
} from '@db8/core';
import { z } from 'zod';
import { type Checked, type Refusal, refuse } from './codes.ts';
import { publicKeyFromDidKey } from './didkey.ts';
import { DateTimeSchema, IdSchema } from './formats.ts';
import type { RoomInput } from './inputs.ts';
import { SIGNATURE_PREFIX } from './signing.ts';
import type { QuestionState } from './state.ts';

/**
 * A federation's nodes and what binds a node id to a node (docs/swarm.md "Node keys and the roster",
 * "Scope"). The roster is a document the federation key signs; each node verifies it when it starts
 * and every room copies its content into its settings when it opens, so a room judges node ids
 * with the roster it opened with, on every node and on every refold.
 */

const DID_KEY = /^did:key:z[1-9A-HJ-NP-Za-km-z]+$/;
export const DidKeySchema = z.string().max(200).regex(DID_KEY);

export const TAKEOVER_POLICIES = ['any-participant', 'roster-election'] as const;

export const RosterNodeSchema = z
  .object({
    'node/id': IdSchema,
    /** The node's own Ed25519 signing key (`did:key:z6Mk…`). */
    key: DidKeySchema,
    /** The reputation the federation grants this node's responders, 0..1 (docs/swarm.md "Reputation"). */
    reputation: z.number().min(0).max(1).default(0),
  })
  .strict();

/** What a room needs of the roster (its settings' `roster`). */
export const RosterSchema = z
  .object({
    'federation/id': IdSchema,
    'roster/version': z.number().int().min(1),
    nodes: z
      .array(RosterNodeSchema)
      .min(1)
      .max(1000)
      .refine((ns) => new Set(ns.map((n) => n['node/id'])).size === ns.length, 'node ids must be unique'),
    /** Who becomes secretary when the asker lapses (docs/swarm.md "Secretary election"). */
    'takeover/policy': z.enum(TAKEOVER_POLICIES).default('any-participant'),
  })
  .strict();
export type Roster = z.infer<typeof RosterSchema>;

/** The signed document a federation distributes: the roster, when, and the federation key's signature. */
export const RosterDocumentSchema = RosterSchema.extend({
  type: z.literal('db8/swarm/roster'),
  'issued-at': DateTimeSchema,
  signature: z.object({ alg: z.literal('ed25519'), value: z.string() }).strict(),
}).strict();

export const ROSTER_DOMAIN = 'db8/swarm/roster/v1';
export const GATEWAY_DOMAIN = 'db8/swarm/gateway/v1';

type Obj = Record<string, unknown>;
const without = (obj: Obj, field: string) =>
  Object.fromEntries(Object.entries(obj).filter(([k]) => k !== field));
const bytesFor = (domain: string, body: Obj) =>
  concatBytes(utf8Encode(domain), Uint8Array.of(0), canonicalBytes(body));
const sigOf = (seed: Uint8Array, bytes: Uint8Array) => ({
  alg: 'ed25519',
  value: SIGNATURE_PREFIX + toBase64Url(ed25519.sign(seed, bytes)),
});

function verifies(sig: unknown, key: Uint8Array, bytes: Uint8Array): boolean {
  const s = sig as { alg?: unknown; value?: unknown } | undefined;
  if (s?.alg !== 'ed25519' || typeof s.value !== 'string' || !s.value.startsWith(SIGNATURE_PREFIX))
    return false;
  try {
    const raw = fromBase64Url(s.value.slice(SIGNATURE_PREFIX.length));
    return raw.length === ed25519.ED25519_SIGNATURE_LENGTH && ed25519.verify(key, bytes, raw);
  } catch {
    return false;
  }
}

/** The federation key signs a roster (the tool an operator uses; tests too). */
export function signRoster(roster: Obj, seed: Uint8Array): Obj {
  const body = without(roster, 'signature');
  return { ...body, signature: sigOf(seed, bytesFor(ROSTER_DOMAIN, body)) };
}

/** A roster document, checked against the federation key every node pins. */
export function verifyRoster(doc: unknown, federationKey: string): Checked<Roster> {
  const parsed = RosterDocumentSchema.safeParse(doc);
  if (!parsed.success)
    return refuse('SCHEMA_INVALID', 'not a roster document', { issues: parsed.error.issues.slice(0, 10) });
  const key = publicKeyFromDidKey(federationKey);
  if (!key) return refuse('BAD_KEY', 'the federation key is not an Ed25519 did:key');
  const d = doc as Obj;
  if (!verifies(d.signature, key, bytesFor(ROSTER_DOMAIN, without(d, 'signature'))))
    return refuse('BAD_SIGNATURE', 'the roster is not signed by the federation key');
  const { type: _t, 'issued-at': _at, signature: _s, ...roster } = parsed.data;
  return { ok: true, value: roster };
}

/** The gateway node countersigns a room input it relays: its key over the input, participant signature included. */
export function countersign<T extends Obj>(input: T, nodeSeed: Uint8Array): T {
  const body = without(input, 'gateway/signature');
  return { ...body, 'gateway/signature': sigOf(nodeSeed, bytesFor(GATEWAY_DOMAIN, body)) } as unknown as T;
}

/** The node an input names (its gateway): `sender/node-id`, `author/node-id` or `closed-by/node-id`. */
export function nodeOf(input: RoomInput): string {
  if (input.type === 'swarm/question-summary') return input['author/node-id'];
  if (input.type === 'swarm/question-close') return input['closed-by/node-id'];
  return input['sender/node-id'];
}

/** Scopes whose rooms admit only the asking federation's inputs (seed 003 "Scope"). */
export const FEDERATION_SCOPES: readonly string[] = ['private-to-swarm', 'federation-local'];

/** The roster entry that countersigned `input`, or null (no roster, not a roster node). */
export function verifiedGateway(s: QuestionState, input: RoomInput) {
  const entry = s.settings.roster?.nodes.find((n) => n['node/id'] === nodeOf(input));
  if (!entry) return null;
  const key = publicKeyFromDidKey(entry.key);
  const body = without(input as Obj, 'gateway/signature');
  return key && verifies((input as Obj)['gateway/signature'], key, bytesFor(GATEWAY_DOMAIN, body))
    ? entry
    : null;
}

/**
 * Rules 2: an input's federation and node. In a federation-scoped room the input must carry the
 * question's federation; a node id the roster names must carry that node's countersignature (no
 * one speaks "via" a node that did not relay it); in a federation-scoped room with a roster, only
 * roster nodes relay.
 */
export function federationRefusal(s: QuestionState, input: RoomInput): Refusal | null {
  const fed = (input as Obj)['sender/federation-id'];
  if (FEDERATION_SCOPES.includes(s.question.scope) && fed !== s.question.federation) {
    return refuse(
      'OUT_OF_SCOPE',
      `a ${s.question.scope} room takes inputs of ${s.question.federation} only`,
      {
        federation: s.question.federation ?? null,
      },
    ).error;
  }
  const roster = s.settings.roster;
  if (!roster) return null;
  const node = nodeOf(input);
  const named = roster.nodes.some((n) => n['node/id'] === node);
  if (named && !verifiedGateway(s, input)) {
    return refuse('UNVERIFIED_NODE', `${node} did not countersign this input (gateway/signature)`).error;
  }
  if (!named && FEDERATION_SCOPES.includes(s.question.scope)) {
    return refuse('OUT_OF_SCOPE', `${node} is not a node of ${roster['federation/id']}`).error;
  }
  return null;
}

/** A candidate of the secretary election: a roster node and the participant its key makes. */
export interface Candidate {
  nodeId: string;
  participant: string;
}

/**
 * The secretary election (`takeover/policy` `roster-election`), identical on every node: among the
 * roster nodes that relay a participant of the room (the asker's node excepted), the one whose
 * sha256(JCS([question id, node id])) is lowest. With a takeover window (`takeoverWindowMs`) the
 * election moves on when the elected node does not act: from `lapse + k × window` (stream time) the
 * first k + 1 candidates in that order may take over, first in the stream wins. Null when no roster
 * node is present or none may yet.
 */
export function electedNodes(s: QuestionState, now: number): Candidate[] {
  const nodes = Object.values(s.participants).map((p) => p.node);
  const order = electionOrder(s.question.id, s.question.askerNode, nodes, s.settings.roster);
  const lapse = s.askerLastSeen + s.settings.presenceLapseMs;
  return order.slice(0, eligibleCount(order.length, lapse, now, s.settings.takeoverWindowMs));
}

/** How many candidates may take over at `now`: the first, plus one per takeover window passed. */
export function eligibleCount(candidates: number, lapseAt: number, now: number, windowMs?: number): number {
  if (candidates === 0 || now < lapseAt) return 0;
  if (!windowMs) return 1; // rooms opened without a window: the first candidate only
  return Math.min(candidates, 1 + Math.floor((now - lapseAt) / windowMs));
}

/** When candidate `index` of the order may take over (`eligibleCount`'s inverse), or null. */
export function eligibleAt(index: number, lapseAt: number, windowMs?: number): number | null {
  if (index < 0) return null;
  if (index === 0) return lapseAt;
  return windowMs ? lapseAt + index * windowMs : null;
}

/** The election order from a room's facts (a node runs it on its view to know its place). */
export function electionOrder(
  questionId: string,
  askerNode: string,
  participantNodes: readonly string[],
  roster: Roster | undefined,
): Candidate[] {
  if (roster?.['takeover/policy'] !== 'roster-election') return [];
  const present = new Set(participantNodes);
  return roster.nodes
    .filter((n) => present.has(n['node/id']) && n['node/id'] !== askerNode)
    .map((n) => ({ n, rank: hashCanonical([questionId, n['node/id']]) }))
    .sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0))
    .map(({ n }) => ({ nodeId: n['node/id'], participant: `participant:${n.key}` }));
}
