// Issue 23: scope enforced (a federation-scoped room takes only its federation's inputs), node ids
// bound to roster keys (the gateway countersigns), reputation the room can verify (the roster's,
// never the responder's claim), and the roster document's signature.

import { hashCanonical } from '@db8/core';
import { describe, expect, it } from 'vitest';
import {
  countersign,
  electionOrder,
  eligibleAt,
  eligibleCount,
  signRoster,
  verifyRoster,
} from '../../rules/federation.ts';
import {
  NEW_RESPONDER,
  type RoomFacts,
  recordFigure,
  responderRecord,
  responderReputation,
} from '../../rules/reputation.ts';
import { SIGNATURE_DOMAINS, signObject } from '../../rules/signing.ts';
import { key } from './fixtures.ts';
import { ASKER, close, FED, input, join, NODE_KEYS, P1, P2, QRoom, ROSTER, say } from './room-harness.ts';

const GLOBAL = { 'delivery/scope': 'global', 'request/exposure-mode': 'public-call-for-help' };

/** Re-sign `msg` as `who` after changing fields (the participant's own signature stays valid). */
function resigned(msg: Record<string, unknown>, who = P1, change: Record<string, unknown> = {}) {
  const { signature: _s, 'gateway/signature': _g, ...body } = { ...msg, ...change };
  return signObject(body, SIGNATURE_DOMAINS.room, who.seed);
}

describe('scope: a federation-scoped room takes its own federation only', () => {
  it('refuses an input of another federation, or of none, in a federation-local room', () => {
    const room = new QRoom();
    expect(room.state.question.scope).toBe('federation-local');
    const other = countersign(
      resigned(join(P1), P1, { 'sender/federation-id': 'federation:other' }),
      (NODE_KEYS['node:b'] as { seed: Uint8Array }).seed,
    );
    expect(room.send(other)).toBe('OUT_OF_SCOPE');
    const { 'sender/federation-id': _f, ...noFed } = join(P1) as Record<string, unknown>;
    expect(room.send(countersign(resigned(noFed), (NODE_KEYS['node:b'] as { seed: Uint8Array }).seed))).toBe(
      'OUT_OF_SCOPE',
    );
    expect(room.send(join(P1))).toBe('OK');
  });

  it('a node outside the roster cannot relay into a federation-local room; in a global room it can', () => {
    const outsider = resigned(join(P1), P1, { 'sender/node-id': 'node:elsewhere' });
    expect(new QRoom().send(outsider)).toBe('OUT_OF_SCOPE');
    expect(new QRoom({ ...GLOBAL, 'responder/min-reputation': undefined }).send(outsider)).toBe('OK');
  });
});

describe('node ids are bound to roster keys', () => {
  it('a join naming a roster node without its countersignature is UNVERIFIED_NODE', () => {
    const room = new QRoom(GLOBAL);
    const uncountersigned = resigned(join(P1)); // names node:b, no gateway/signature
    expect(room.send(uncountersigned)).toBe('UNVERIFIED_NODE');
    const byAnother = countersign(uncountersigned, (NODE_KEYS['node:c'] as { seed: Uint8Array }).seed);
    expect(room.send(byAnother)).toBe('UNVERIFIED_NODE');
    expect(room.send(join(P1))).toBe('OK');
    // An answer "via" node:a from P1 relayed by node:b's key is refused too.
    const via = resigned(say(P1, 'hi'), P1, { 'sender/node-id': 'node:a', 'origin/gateway': 'node:a' });
    expect(room.send(countersign(via, (NODE_KEYS['node:b'] as { seed: Uint8Array }).seed))).toBe(
      'UNVERIFIED_NODE',
    );
  });

  it('the issue’s case: a fresh key claiming reputation 1 via another node cannot join a 0.95 question', () => {
    const room = new QRoom({ ...GLOBAL, 'responder/min-reputation': 0.95 });
    const fresh = key(60);
    const claim = { 'responder/reputation': 1 };
    // Through a node outside the roster: no one the room trusts vouches.
    expect(room.send(resigned(join(fresh, claim), fresh, { 'sender/node-id': 'node:third' }))).toBe(
      'REPUTATION_UNKNOWN',
    );
    // Through roster node:b (0.9): the roster's figure, not the claim.
    expect(room.send(join(fresh, claim))).toBe('REPUTATION_TOO_LOW');
    // Naming node:a (1.0) without node:a's countersignature.
    expect(room.send(resigned(join(fresh, claim), fresh, { 'sender/node-id': 'node:a' }))).toBe(
      'UNVERIFIED_NODE',
    );
    // Really relayed by node:a: admitted, with node:a's figure.
    const viaA = countersign(
      resigned(join(fresh, claim), fresh, { 'sender/node-id': 'node:a' }),
      (NODE_KEYS['node:a'] as { seed: Uint8Array }).seed,
    );
    expect(room.send(viaA)).toBe('OK');
    // Rules 3: node:a's figure (1) bounds the record node:a attests (18 of 18: 19/20), not the claim.
    expect(room.state.participants[fresh.participant]?.reputation).toBe(19 / 20);
  });
});

describe('a responder’s reputation (rules 3): its record, attested by its node, bounded by the roster', () => {
  const R = key(61).participant;
  const answer = (over: Partial<RoomFacts['messages'][number]> = {}) => ({
    kind: 'answer',
    author: R,
    gateway: 'node:b',
    verdict: 'accept' as const,
    verdictNode: 'node:a',
    ...over,
  });

  it('counts answers given and answers another roster node vouched for, in rooms no longer open', () => {
    const rooms: RoomFacts[] = [
      {
        status: 'closed',
        question: { asker: 'participant:x' },
        messages: [
          answer(), // accepted, vouched by node:a for an answer via node:b: counts
          answer({ verdict: 'reject' }), // given, not accepted
          answer({ verdictNode: 'node:b' }), // accepted through its own node: not vouched
          answer({ verdictNode: undefined }), // accepted by a verdict no roster node countersigned
          answer({ author: 'participant:y' }), // someone else's
          answer({ kind: 'follow-up' }), // not an answer
        ],
      },
      { status: 'open', question: { asker: 'participant:x' }, messages: [answer()] }, // not yet
      { status: 'expired', question: { asker: R }, messages: [answer()] }, // its own question
    ];
    // Given: 4 answers in the closed room + 1 in the expired one; accepted: the first only.
    expect(responderRecord(rooms, R)).toEqual({ given: 5, accepted: 1 });
    // (1 + 1) / (5 + 2) = 2/7; a roster figure below it bounds it.
    expect(recordFigure({ given: 5, accepted: 1 })).toBeCloseTo(0.285714, 6);
    expect(responderReputation({ given: 5, accepted: 1 }, 0.9)).toBe(2 / 7);
    expect(responderReputation({ given: 5, accepted: 1 }, 0.2)).toBe(0.2);
    // A new responder: the prior, 1/2.
    expect(responderReputation(undefined, 1)).toBe(0.5);
    expect(responderRecord([], R)).toEqual(NEW_RESPONDER);
  });

  it('the fold records who vouched: the roster node that countersigned the asker’s verdict', () => {
    const room = new QRoom();
    expect(room.send(join(P1))).toBe('OK');
    expect(room.send(say(P1, 'one', { 'input/id': 'a1' }))).toBe('OK');
    expect(room.send(say(P1, 'two', { 'input/id': 'a2' }))).toBe('OK');
    const verdict = (ref: string, node: string) =>
      input(ASKER, 'swarm/room-verdict', { 'verdict/input-id': ref, 'verdict/decision': 'accept' }, 0, node);
    expect(room.send(verdict('a1', 'node:a'))).toBe('OK');
    expect(room.send(verdict('a2', 'node:b'))).toBe('OK'); // relayed by the answer's own node
    expect(room.send(close(ASKER, 'asker'))).toBe('OK');
    expect(room.state.messages.map((m) => m.verdictNode)).toEqual(['node:a', 'node:b']);
    expect(responderRecord([room.state], P1.participant)).toEqual({ given: 2, accepted: 1 });
  });

  it('the record is the node’s: a responder cannot write or change it, and a claim counts for nothing', () => {
    const room = new QRoom({ 'responder/min-reputation': 0.6 });
    // A new responder via node:b (roster 0.9): the prior 1/2 < 0.6, whatever it claims.
    expect(room.send(join(P1, { 'gateway/record': undefined, 'responder/reputation': 1 }))).toBe(
      'REPUTATION_TOO_LOW',
    );
    // A record raised after node:b countersigned: the countersignature no longer verifies.
    const honest = join(P1, { 'gateway/record': { given: 4, accepted: 1 } }) as Record<string, unknown>;
    const raised = { ...honest, 'gateway/record': { given: 4, accepted: 4 } };
    expect(room.send(raised)).toBe('UNVERIFIED_NODE');
    expect(room.send(honest)).toBe('REPUTATION_TOO_LOW'); // (1 + 1) / (4 + 2) = 1/3
    // 3 of 4: (3 + 1) / (4 + 2) = 2/3 >= 0.6, under node:b's 0.9.
    expect(room.send(join(P2, { 'gateway/record': { given: 4, accepted: 3 } }))).toBe('OK');
    expect(room.state.participants[P2.participant]?.reputation).toBe(2 / 3);
  });
});

describe('the roster document', () => {
  const fedKey = key(70);
  const doc = () =>
    signRoster({ type: 'db8/swarm/roster', 'issued-at': '2026-03-01T00:00:00Z', ...ROSTER }, fedKey.seed);

  it('verifies with the federation key; a change or another key is refused', () => {
    const ok = verifyRoster(doc(), fedKey.did);
    expect(ok.ok && ok.value['federation/id']).toBe(FED);
    const tampered = { ...doc(), nodes: [...ROSTER.nodes, { 'node/id': 'node:evil', key: key(71).did }] };
    expect(!verifyRoster(tampered, fedKey.did).ok && verifyRoster(tampered, fedKey.did)).toMatchObject({
      error: { code: 'BAD_SIGNATURE' },
    });
    expect(verifyRoster(doc(), key(72).did)).toMatchObject({ ok: false, error: { code: 'BAD_SIGNATURE' } });
    expect(verifyRoster({ ...doc(), nodes: [] }, fedKey.did)).toMatchObject({
      ok: false,
      error: { code: 'SCHEMA_INVALID' },
    });
  });
});

describe('the election moves on when the elected node is silent (takeover window)', () => {
  it('admits the first candidate at the lapse, then one more per window passed, the same everywhere', () => {
    const lapse = 1_000_000;
    expect(eligibleCount(3, lapse, lapse - 1, 10_000)).toBe(0);
    expect(eligibleCount(3, lapse, lapse, 10_000)).toBe(1);
    expect(eligibleCount(3, lapse, lapse + 9_999, 10_000)).toBe(1);
    expect(eligibleCount(3, lapse, lapse + 10_000, 10_000)).toBe(2);
    expect(eligibleCount(3, lapse, lapse + 10_000_000, 10_000)).toBe(3);
    expect(eligibleCount(0, lapse, lapse + 10_000, 10_000)).toBe(0);
    // A room opened without a window keeps its first candidate only.
    expect(eligibleCount(3, lapse, lapse + 10_000_000)).toBe(1);
    expect([0, 1, 2, -1].map((i) => eligibleAt(i, lapse, 10_000))).toEqual([
      lapse,
      lapse + 10_000,
      lapse + 20_000,
      null,
    ]);
    expect(eligibleAt(1, lapse)).toBeNull();
  });

  it('orders the relaying roster nodes by sha256([question, node]), the asker’s node excepted', () => {
    const roster = {
      'federation/id': 'federation:one',
      'roster/version': 1,
      'takeover/policy': 'roster-election' as const,
      nodes: ['node:a', 'node:b', 'node:c', 'node:d'].map((id, i) => ({
        'node/id': id,
        key: `did:key:z6Mk${i}`,
        reputation: 0,
      })),
    };
    const order = electionOrder('question:x', 'node:a', ['node:a', 'node:b', 'node:c', 'node:z'], roster);
    expect(order.map((c) => c.nodeId).sort()).toEqual(['node:b', 'node:c']);
    const rank = (id: string) => hashCanonical(['question:x', id]);
    expect(order.map((c) => c.nodeId)).toEqual(
      ['node:b', 'node:c'].sort((x, y) => (rank(x) < rank(y) ? -1 : 1)),
    );
    expect(
      electionOrder('question:x', 'node:a', ['node:b'], { ...roster, 'takeover/policy': 'any-participant' }),
    ).toEqual([]);
  });
});
