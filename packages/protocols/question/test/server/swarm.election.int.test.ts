// Issue 23 over the local nats-server: under the roster's `roster-election` policy the secretary steps
// in by itself. Three nodes with their own keys on one signed roster; A asks, B and C answer, A says
// nothing more; once A lapses the elected node takes over, its scripted secretary summarises, and the
// question closes on that summary — on every node, with nobody calling anything.
import { randomBytes } from 'node:crypto';
import { ed25519, formatOpenSshPrivateKey, hashCanonical } from '@db8/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { didKeyFromPublicKey, signRoster } from '../../rules/index.ts';
import { type SwarmNode, startSwarmNode, until } from './swarm-node.ts';

const RUN = randomBytes(5).toString('hex');
const NAMES = ['a', 'b', 'c'] as const;
const seedOf = (i: number) => new Uint8Array(32).fill(150 + i);
const fedSeed = new Uint8Array(32).fill(149);
const roster = signRoster(
  {
    type: 'db8/swarm/roster',
    'issued-at': '2026-11-01T00:00:00Z',
    'federation/id': 'federation:local',
    'roster/version': 1,
    'takeover/policy': 'roster-election',
    nodes: NAMES.map((n, i) => ({
      'node/id': `node:${n}`,
      key: didKeyFromPublicKey(ed25519.publicKeyFromSeed(seedOf(i))),
      reputation: 1,
    })),
  },
  fedSeed,
);
const nodes: SwarmNode[] = [];
const enc = encodeURIComponent;

beforeAll(async () => {
  for (const [i, name] of NAMES.entries()) {
    nodes.push(
      await startSwarmNode(name, {
        prefix: `e${RUN}.`,
        stream: `SWARM_E${RUN}`,
        // The answers must land before the asker lapses, or the elected node closes the room first
        // (409 on the answer): 1 s lost that race at load 15; 8 s is a safety margin, not a budget.
        settings: { presenceLapseMs: 8000 },
        env: {
          DB8_SERVER_KEY: formatOpenSshPrivateKey(seedOf(i), `node-${name}`),
          DB8_SWARM_ROSTER: JSON.stringify(roster),
          DB8_SWARM_FEDERATION_KEY: didKeyFromPublicKey(ed25519.publicKeyFromSeed(fedSeed)),
        },
      }),
    );
  }
}, 120_000);
afterAll(async () => {
  for (const n of nodes) await n.close();
});

describe('automatic secretary election', () => {
  it('the elected node takes over, summarises and closes once the asker lapsed', async () => {
    const [A, B, C] = nodes as [SwarmNode, SwarmNode, SwarmNode];
    const asked = await A.call('POST', '/v1/swarm/questions', {
      ask: { text: 'Who steps in?', tags: ['t'], scope: 'federation-local', ttl_sec: 600 },
    });
    expect(asked.status, JSON.stringify(asked.json)).toBe(201);
    const qid = asked.json.question_id as string;
    const path = `/v1/swarm/questions/${enc(qid)}`;
    for (const [n, text] of [
      [B, 'B: rotate yearly'],
      [C, 'C: rotate on compromise'],
    ] as const) {
      await until(`room on ${n.name}`, async () => (await n.call('GET', path)).status === 200);
      const join = {
        type: 'swarm/room-join',
        'responder/models': [],
        'responder/languages': ['en'],
        'responder/tags': ['t'],
      };
      const say = {
        type: 'swarm/room-message',
        'message/kind': 'answer',
        'message/text': text,
        'origin/class': 'node-generated',
        'origin/speaker': `node-${n.name}`,
      };
      expect((await n.call('POST', `${path}/inputs`, { draft: join })).status).toBe(200);
      expect((await n.call('POST', `${path}/inputs`, { draft: say })).status).toBe(200);
    }
    const elected = hashCanonical([qid, 'node:b']) < hashCanonical([qid, 'node:c']) ? 'node:b' : 'node:c';
    for (const n of nodes) {
      const room = await until(`closed on ${n.name}`, async () => {
        const r = (await n.call('GET', path)).json.room;
        return r.status === 'closed' ? r : null;
      });
      expect(room.secretary).toMatchObject({ node: elected, via: 'lapse' });
      expect(room.summaries).toHaveLength(1);
      expect(room.summaries[0].recommendations[0]).toContain(`scripted secretary of ${elected}`);
      expect(room.close).toMatchObject({
        resolution: 'accepted-answer',
        role: 'secretary',
        acceptedSummary: room.summaries[0].key,
      });
    }
  });
});
