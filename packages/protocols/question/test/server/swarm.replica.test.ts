// The swarm fold without a network: two nodes (own store, own key, own clock) folding the same
// stream messages reach the same log; a refusal writes nothing; the node signs what the gate admits.
import { canonicalize, ed25519 } from '@db8/core';
import { externalClockOf, protocolRegistryOf } from '@db8/server';
import { migrate } from '@db8/server/kit';
import type { StreamMessage } from '@db8/server/src/bus/jetstream.ts';
import { serverKeyFromSeed } from '@db8/server/src/keys/index.ts';
import { Runtime } from '@db8/server/src/runtime/index.ts';
import { openStore, type Store } from '@db8/server/src/store/index.ts';
import { builtinModules } from 'db8/src/server-modules.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admitQuestion, admitRoomInput } from '../../rules/index.ts';
import { questionModule } from '../../server/index.ts';
import { nodeEnvelope, nodeInput } from '../../server/node-sign.ts';
import { swarmOptions } from '../../server/options.ts';
import { Replica } from '../../server/replica.ts';
import { durableName, roomIdOf, SCOPES, Subjects } from '../../server/subjects.ts';

const T = Date.parse('2030-01-01T00:00:00Z');
const subjects = new Subjects('x.');
const nodeKey = (n: number) => {
  const seed = new Uint8Array(32).fill(n);
  return { seed, publicKey: ed25519.publicKeyFromSeed(seed) };
};
const node = (n: number, name: string) => ({ nodeId: name, federationId: 'federation:local', ...nodeKey(n) });
const opts = swarmOptions(
  { DB8_SWARM_PREFIX: 'x.', DB8_SWARM_ROOM_SETTINGS: '{"presenceLapseMs":1000}' },
  null,
  nodeKey(1).publicKey,
);

const stores: Store[] = [];
async function replica(keyByte: number, clock: number): Promise<{ rt: Runtime; r: Replica }> {
  const store = await openStore({ memory: true });
  stores.push(store);
  await migrate(store.db, questionModule.migrations ?? []); // the module's tables (mounting applies them)
  const rt = new Runtime({
    store,
    protocols: protocolRegistryOf(builtinModules),
    externalClock: externalClockOf(builtinModules),
    serverKey: serverKeyFromSeed(new Uint8Array(32).fill(keyByte)),
    clock: () => clock,
  });
  return { rt, r: new Replica(rt, subjects, opts) };
}
afterAll(async () => {
  for (const s of stores) await s.close();
});

let streamSeq = 0;
const msg = (subject: string, body: unknown, ts: number): StreamMessage => ({
  subject,
  data: new TextEncoder().encode(typeof body === 'string' ? body : canonicalize(body as never)),
  seq: ++streamSeq,
  ts,
});

describe('subjects', () => {
  it('puts every kind of one scope under one filter and parses back', () => {
    for (const scope of SCOPES) {
      const all = [
        subjects.publish(scope),
        subjects.summary(scope),
        subjects.close(scope),
        subjects.room('question:1', scope),
      ];
      const filter = new RegExp(`^${subjects.filter(scope).replaceAll('.', '\\.').replace('*', '[^.]+')}$`);
      for (const s of all) expect(s).toMatch(filter);
      expect(all.map((s) => subjects.parse(s)?.kind)).toEqual(['publish', 'summary', 'close', 'room']);
    }
    expect(subjects.parse(subjects.room('question:1', 'global'))).toEqual({
      kind: 'room',
      scope: 'global',
      room: roomIdOf('question:1'),
    });
    expect(subjects.parse('x.swarm.question.other.global')).toBeNull();
    expect(subjects.parse('y.swarm.question.publish.global')).toBeNull();
  });

  it('maps ids to db8 room ids and durable names deterministically', () => {
    expect(roomIdOf('question-abc_1')).toBe('question-abc_1');
    expect(roomIdOf('question:01K0')).toMatch(/^q_[0-9a-f]{40}$/);
    expect(roomIdOf('question:01K0')).toBe(roomIdOf('question:01K0'));
    expect(durableName('node:a.b', 'global')).toMatch(/^db8_[0-9a-f]{16}_global$/);
    expect(durableName('node:a', 'global')).not.toBe(durableName('node:b', 'global'));
  });
});

describe('node signing', () => {
  it('signs envelopes the gate admits, in every scope, and inputs of every kind', () => {
    for (const scope of SCOPES) {
      const env = nodeEnvelope(
        { text: 'Q?', tags: ['t'], scope, ttl_sec: 60, follow_ups: true },
        node(1, 'node:a'),
        node(1, 'node:a'),
        T,
      );
      const r = admitQuestion(env, { now: T, trust: { issuers: [] } });
      expect(r.ok, JSON.stringify(r)).toBe(true);
    }
    const drafts = [
      {
        type: 'swarm/room-join',
        'responder/models': [],
        'responder/languages': ['en'],
        'responder/tags': ['t'],
      },
      {
        type: 'swarm/room-message',
        'message/kind': 'answer',
        'message/text': 'A',
        'origin/class': 'node-generated',
        'origin/speaker': 'm',
      },
      { type: 'swarm/room-takeover' },
      {
        type: 'swarm/question-summary',
        'author/role': 'secretary',
        status: 'final',
        'content/facts': [],
        'content/hypotheses': [],
        'content/recommendations': [],
        'content/uncertainty': 0.5,
      },
      { type: 'swarm/question-close', 'closed-by/role': 'asker', resolution: 'closed' },
    ];
    for (const d of drafts) {
      const r = admitRoomInput(nodeInput(d, 'q-1', node(1, 'node:a'), node(1, 'node:a'), T), {
        now: T,
        trust: { issuers: [] },
      });
      expect(r.ok, `${d.type}: ${JSON.stringify(r)}`).toBe(true);
    }
  });
});

describe('Replica.fold', () => {
  let a: { rt: Runtime; r: Replica };
  let b: { rt: Runtime; r: Replica };
  beforeAll(async () => {
    [a, b] = await Promise.all([replica(7, 1), replica(8, 9e12)]);
  });

  it('two nodes fold one stream to the same log; refusals are typed and write nothing', async () => {
    const asker = node(1, 'node:a');
    const helper = node(2, 'node:b');
    const env = nodeEnvelope(
      { text: 'Q?', tags: ['t'], scope: 'global', ttl_sec: 60, follow_ups: true, question_id: 'q-fold' },
      asker,
      asker,
      T,
    );
    const join = nodeInput(
      {
        type: 'swarm/room-join',
        'responder/models': [],
        'responder/languages': ['en'],
        'responder/tags': ['t'],
      },
      'q-fold',
      helper,
      helper,
      T,
    );
    const say = nodeInput(
      {
        type: 'swarm/room-message',
        'message/kind': 'answer',
        'message/text': 'A',
        'origin/class': 'node-generated',
        'origin/speaker': 'm',
      },
      'q-fold',
      helper,
      helper,
      T,
    );
    const stream = [
      msg(subjects.publish('global'), env, T + 10),
      msg(subjects.publish('global'), env, T + 11), // replayed
      msg(subjects.publish('global'), { ...env, 'question/text': 'Forged?' }, T + 12), // forged
      msg(subjects.publish('global'), '{"a":1,"a":2}', T + 13), // not strict JSON
      msg(subjects.room('q-fold', 'global'), join, T + 20),
      msg(subjects.summary('global'), say, T + 21), // right room, wrong subject
      msg(subjects.room('q-fold', 'global'), say, T + 22),
      msg(subjects.room('q-fold', 'global'), say, T + 23), // replayed input: the room refuses it
      msg(
        subjects.room('q-fold', 'global'),
        { type: 'db8/swarm/room-tick', 'question/id': 'q-fold' },
        T + 30,
      ), // early
      msg(
        subjects.room('q-fold', 'global'),
        { type: 'db8/swarm/room-tick', 'question/id': 'q-fold' },
        T + 60_000,
      ),
    ];
    const outcomes = [];
    for (const m of stream) outcomes.push([await a.r.fold(m), await b.r.fold(m)]);
    for (const [x, y] of outcomes) expect(x).toEqual(y);
    const codes = outcomes.map(([x]) => (x?.status === 'refused' ? x.code : x?.status));
    expect(codes).toEqual([
      'opened',
      'REPLAYED',
      'BAD_SIGNATURE',
      'SCHEMA_INVALID',
      'applied',
      'CHANNEL_MISMATCH',
      'applied',
      'REPLAYED',
      'ignored',
      'expired',
    ]);
    const logA = await a.rt.entries('q-fold', { kind: 'observer' }, 0, 100);
    expect(logA.map((e) => [e.kind, e.ts])).toEqual([
      ['genesis', T + 10],
      ['action', T + 20],
      ['action', T + 22],
      ['tick', T + 60_000],
      ['close', T + 60_000],
    ]);
    expect(await b.rt.entries('q-fold', { kind: 'observer' }, 0, 100)).toEqual(logA);
    expect((await a.rt.listRooms({ protocol: 'question' })).map((r) => r.id)).toEqual(['q-fold']);
  });
});
