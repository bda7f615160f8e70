// The seed's limits through a real node on the local nats-server: a TTL under
// DB8_SWARM_MIN_TTL_SEC is refused at REST (422 TTL_TOO_SHORT, nothing published), and a room of
// `maxParticipants: 1` (room settings) that the scripted responder filled refuses the next join
// (409 ROOM_FULL).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SwarmNode, startSwarmNode, until } from './swarm-node.ts';

const RUN = randomBytes(5).toString('hex');
let A: SwarmNode;

beforeAll(async () => {
  A = await startSwarmNode('limits', {
    prefix: `l${RUN}.`,
    stream: `SWARM_L${RUN}`,
    settings: { maxParticipants: 1 },
    env: { DB8_SWARM_MIN_TTL_SEC: '60', DB8_SWARM_SCRIPTED_RESPONDER: 'on' },
  });
});
afterAll(async () => {
  await A?.close();
});

const ask = (ttl_sec: number) =>
  A.call('POST', '/v1/swarm/questions', {
    ask: { text: 'How many may join?', tags: ['limits'], scope: 'global', ttl_sec },
  });

describe('swarm limits at a node', () => {
  it('a TTL under the federation minimum is 422 TTL_TOO_SHORT and nothing is published', async () => {
    const before = (await A.call('GET', '/v1/swarm/node')).json;
    const r = await ask(30);
    expect(r.status).toBe(422);
    expect(r.json.error).toMatchObject({ code: 'TTL_TOO_SHORT', details: { minTtlSec: 60 } });
    const after = (await A.call('GET', '/v1/swarm/node')).json;
    expect(after.min_ttl_sec).toBe(60);
    expect(after.counts).toEqual(before.counts);
  });

  it('a full room refuses the next join: 409 ROOM_FULL', async () => {
    const asked = await ask(600);
    expect(asked.status, JSON.stringify(asked.json)).toBe(201);
    const path = `/v1/swarm/questions/${encodeURIComponent(asked.json.question_id as string)}`;
    await until(
      'the responder joined',
      async () => (await A.call('GET', path)).json.room.participants.length === 1,
    );
    // Another principal (a self-registered agent: its own key on this node) asks to join.
    const agent = await A.call('POST', '/v1/agents', { name: 'second-responder' });
    expect(agent.status, JSON.stringify(agent.json)).toBeLessThan(300);
    const r = await fetch(`${A.server.url}${path}/inputs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${agent.json.api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        draft: {
          type: 'swarm/room-join',
          'responder/models': [],
          'responder/languages': ['en'],
          'responder/tags': ['limits'],
        },
      }),
    });
    const join = { status: r.status, json: await r.json() };
    expect(join.status).toBe(409);
    expect(join.json.error).toMatchObject({ code: 'ROOM_FULL', details: { max: 1 } });
  });
});
