import { LocalRoom } from '@db8/core';
import { questionConfig } from '../../rules/config.ts';
import { countersign } from '../../rules/federation.ts';
import { question, RELAY_SEAT } from '../../rules/protocol.ts';
import { SIGNATURE_DOMAINS, signObject } from '../../rules/signing.ts';
import { ASKER, type Key, key, signedEnvelope, T0 } from './fixtures.ts';

/** The asking federation (the upstream example's) and its roster: three nodes and their keys. */
export const FED = signedEnvelope()['sender/federation-id'] as string;
export const NODE_KEYS: Record<string, Key> = {
  'node:a': key(30),
  'node:b': key(31),
  'node:c': key(32),
  'node:pl-wro-full-7f3c': key(33),
};
export const ROSTER = {
  'federation/id': FED,
  'roster/version': 1,
  nodes: [
    { 'node/id': 'node:a', key: (NODE_KEYS['node:a'] as Key).did, reputation: 1 },
    { 'node/id': 'node:b', key: (NODE_KEYS['node:b'] as Key).did, reputation: 0.9 },
    { 'node/id': 'node:c', key: (NODE_KEYS['node:c'] as Key).did, reputation: 0.5 },
    { 'node/id': 'node:pl-wro-full-7f3c', key: (NODE_KEYS['node:pl-wro-full-7f3c'] as Key).did },
  ],
};

/** The gateway's countersignature, as a roster node relays (none for a node outside the roster). */
function relayed(signed: Record<string, unknown>, node: string) {
  const k = NODE_KEYS[node];
  return k ? countersign(signed, k.seed) : signed;
}

export const QID = 'question:01K0FEDPROC1';
const iso = (ms: number) => new Date(ms).toISOString();
let counter = 0;

/** A signed room input from `who` (room domain), `at` ms after T0. */
export function input(who: Key, type: string, fields: Record<string, unknown> = {}, at = 0, node = 'node:b') {
  counter += 1;
  const body = {
    'schema/v': 1,
    type,
    'question/id': QID,
    'input/id': `in:${counter}`,
    'created-at': iso(T0 + at),
    'sender/node-id': node,
    'sender/participant-id': who.participant,
    'sender/federation-id': FED,
    ...fields,
  };
  // `undefined` in `fields` removes that member.
  const clean = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
  return relayed(signObject(clean, SIGNATURE_DOMAINS.room, who.seed), String(body['sender/node-id']));
}

export const join = (who: Key, over: Record<string, unknown> = {}) =>
  input(who, 'swarm/room-join', {
    'responder/models': ['model:gpt-5'],
    'responder/languages': ['en'],
    'responder/tags': ['trust'],
    'responder/reputation': 0.9,
    // Rules 3: the record the relaying node attests (outside the participant's signature): 18 of
    // 18 accepted is 19/20 = 0.95, so the roster's figure for the node is the bound in most tests.
    'gateway/record': { given: 18, accepted: 18 },
    ...over,
  });

export const say = (who: Key, text: string, over: Record<string, unknown> = {}, node = 'node:b') =>
  input(
    who,
    'swarm/room-message',
    {
      'message/kind': 'answer',
      'message/text': text,
      'origin/class': 'node-generated',
      'origin/speaker': 'model:gpt-5',
      'origin/gateway': node,
      ...over,
    },
    0,
    node,
  );

export function summary(who: Key, role: string, id = 'summary:1') {
  const body = {
    'schema/v': 1,
    type: 'swarm/question-summary',
    'question/id': QID,
    'summary/id': id,
    'created-at': iso(T0),
    'author/node-id': 'node:b',
    'author/participant-id': who.participant,
    'sender/federation-id': FED,
    'author/role': role,
    status: 'final',
    'content/facts': ['Older nodes pin the previous root.'],
    'content/hypotheses': [],
    'content/recommendations': ['Keep both roots for one epoch.'],
    'content/uncertainty': 0.23,
  };
  return relayed(signObject(body, SIGNATURE_DOMAINS.summary, who.seed), 'node:b');
}

export function close(who: Key, role: string, resolution = 'closed', accepted?: string) {
  const body: Record<string, unknown> = {
    'schema/v': 1,
    type: 'swarm/question-close',
    'question/id': QID,
    'created-at': iso(T0),
    'closed-by/node-id': 'node:a',
    'closed-by/participant-id': who.participant,
    'sender/federation-id': FED,
    'closed-by/role': role,
    resolution,
  };
  if (accepted) body['accepted-summary/id'] = accepted;
  return relayed(signObject(body, SIGNATURE_DOMAINS.close, who.seed), 'node:a');
}

export const P1 = key(11);
export const P2 = key(12);

/** A room on core's LocalRoom, opened from a signed envelope at T0. */
export class QRoom extends LocalRoom<typeof question> {
  constructor(over: Record<string, unknown> = {}, settings: Record<string, unknown> = {}) {
    // `roster: undefined` in `settings` opens a room without one.
    const all = Object.fromEntries(
      Object.entries({ roster: ROSTER, ...settings }).filter(([, v]) => v !== undefined),
    );
    const cfg = questionConfig(signedEnvelope(over), all);
    if (!cfg.ok) throw new Error(JSON.stringify(cfg.error));
    super({ protocol: question, config: cfg.value, seed: 'ab'.repeat(32), now: T0 });
  }
  /** Submit as the relay; returns 'OK' or the refusal code. */
  send(msg: unknown, at = T0 + 1000): string {
    const r = this.act(RELAY_SEAT, msg, at);
    return r.ok ? 'OK' : r.error.code;
  }
}

export { ASKER };
