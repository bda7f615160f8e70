import { fromHex } from '@db8/core';
import { didKeyFromPublicKey } from './didkey.ts';

/**
 * Proposal 003 writes its examples nested (`sender: { "node/id" }`, `delivery: { scope }`,
 * `author: { role }`); the upstream schemas and db8 use the flat form (`sender/node-id`). This maps
 * the nested shape onto the flat one; a flat object passes through unchanged. Members the flat form
 * has no field for are kept under `policy_annotations["db8/proposal-003"]`, never dropped. db8
 * signs and verifies only the flat form, so a nested event's signature must be over its flat form.
 */

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** True for the proposal's nested shape: a `type` member and no `schema/v`. */
export function isNestedShape(v: unknown): v is Obj {
  return isObj(v) && typeof v.type === 'string' && !('schema/v' in v);
}

function put(out: Obj, key: string, v: unknown): void {
  if (v !== undefined) out[key] = v;
}

/** `ed25519:<64 hex>` → `participant:did:key:z…`; anything else is left for the annotations. */
function participantFromPubkey(pubkey: unknown): string | undefined {
  if (typeof pubkey !== 'string') return undefined;
  const m = /^ed25519:([0-9a-f]{64})$/i.exec(pubkey);
  return m?.[1] ? `participant:${didKeyFromPublicKey(fromHex(m[1].toLowerCase()))}` : undefined;
}

const EXPOSURE_BY_SCOPE: Record<string, string> = {
  'private-to-swarm': 'private-to-swarm',
  'federation-local': 'federation-local',
  'cross-federation': 'public-call-for-help',
  global: 'public-call-for-help',
};
const REWARD_MODES = ['none', 'collaborative', 'procurement'];

function questionToFlat(n: Obj): Obj {
  const sender = isObj(n.sender) ? n.sender : {};
  const question = isObj(n.question) ? n.question : {};
  const delivery = isObj(n.delivery) ? n.delivery : {};
  const filters = isObj(n.filters) ? n.filters : {};
  const reward = isObj(n.reward) ? n.reward : {};
  const leftover: Obj = {};
  const out: Obj = { 'schema/v': 1 };
  put(out, 'question/id', n.id);
  put(out, 'created-at', n['created-at']);
  put(out, 'sender/node-id', sender['node/id']);
  put(out, 'sender/federation-id', sender['federation/id']);
  const participant = participantFromPubkey(sender.pubkey);
  put(out, 'sender/participant-id', sender['participant/id'] ?? participant);
  if (sender.pubkey !== undefined && !participant) leftover['sender/pubkey'] = sender.pubkey;
  put(out, 'ttl-sec', n['ttl-sec']);
  put(out, 'question/text', question.text);
  put(out, 'question/tags', question.tags);
  put(out, 'question/urgency', question.urgency);
  put(out, 'delivery/scope', delivery.scope);
  put(out, 'delivery/response-channel-id', delivery['response-channel/id']);
  put(out, 'follow-ups/allowed', delivery['follow-ups?']);
  put(out, 'room-policy/profile', delivery['room-policy/profile']);
  if (delivery['response-channel/mode'] !== undefined) {
    leftover['response-channel/mode'] = delivery['response-channel/mode'];
  }
  // The proposal has no exposure mode; the schema's own if/then pairs name the one each scope allows.
  put(
    out,
    'request/exposure-mode',
    typeof delivery.scope === 'string' ? EXPOSURE_BY_SCOPE[delivery.scope] : undefined,
  );
  for (const k of ['models/require', 'models/exclude', 'responder/min-reputation', 'languages'])
    put(out, k, filters[k]);
  if (typeof reward.kind === 'string' && REWARD_MODES.includes(reward.kind)) out['reward/mode'] = reward.kind;
  else {
    // "tbd" in the proposal: no reward is promised, which the flat form calls `none`.
    out['reward/mode'] = 'none';
    if (n.reward !== undefined) leftover.reward = n.reward;
  }
  put(out, 'signature', n.signature);
  if (Object.keys(leftover).length > 0) out.policy_annotations = { 'db8/proposal-003': leftover };
  return out;
}

function summaryToFlat(n: Obj): Obj {
  const author = isObj(n.author) ? n.author : {};
  const content = isObj(n.content) ? n.content : {};
  const out: Obj = { 'schema/v': 1, type: n.type };
  for (const k of ['question/id', 'summary/id', 'created-at', 'status']) put(out, k, n[k]);
  put(out, 'author/node-id', author['node/id']);
  put(out, 'author/participant-id', author['participant/id']);
  put(out, 'author/role', author.role);
  for (const k of ['facts', 'hypotheses', 'recommendations', 'uncertainty'])
    put(out, `content/${k}`, content[k]);
  put(out, 'signature', n.signature);
  return out;
}

function closeToFlat(n: Obj): Obj {
  const by = isObj(n['closed-by']) ? n['closed-by'] : {};
  const out: Obj = { 'schema/v': 1, type: n.type };
  for (const k of ['question/id', 'created-at', 'resolution', 'accepted-summary/id']) put(out, k, n[k]);
  put(out, 'closed-by/node-id', by['node/id']);
  put(out, 'closed-by/participant-id', by['participant/id']);
  put(out, 'closed-by/role', by.role);
  put(out, 'signature', n.signature);
  return out;
}

/** The flat form of a question, summary or close event; anything else is returned unchanged. */
export function toFlat(value: unknown): unknown {
  if (!isNestedShape(value)) return value;
  switch (value.type) {
    case 'swarm/question':
      return questionToFlat(value);
    case 'swarm/question-summary':
      return summaryToFlat(value);
    case 'swarm/question-close':
      return closeToFlat(value);
    default:
      return value;
  }
}
