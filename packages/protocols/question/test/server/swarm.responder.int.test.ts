// The scripted responder on one node over the local nats-server: with
// DB8_SWARM_SCRIPTED_RESPONDER=on the node answers a question it opens with an answer labelled
// scripted (speaker, model label and text), from its own participant, not the asker's; a question
// whose filters refuse the responder's join gets no answer and the refusal is listed.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SwarmNode, startSwarmNode, until } from './swarm-node.ts';

const RUN = randomBytes(5).toString('hex');
const run = {
  prefix: `r${RUN}.`,
  stream: `SWARM_R${RUN}`,
  settings: {},
  env: { DB8_SWARM_SCRIPTED_RESPONDER: 'on' },
};
let A: SwarmNode;

beforeAll(async () => {
  A = await startSwarmNode('laptop', run);
});
afterAll(async () => {
  await A?.close();
});

const ask = async (extra: Record<string, unknown>) => {
  const r = await A.call('POST', '/v1/swarm/questions', {
    ask: {
      text: 'Does the scripted responder answer?',
      tags: ['demo'],
      scope: 'global',
      ttl_sec: 600,
      ...extra,
    },
  });
  expect(r.status, JSON.stringify(r.json)).toBe(201);
  return `/v1/swarm/questions/${encodeURIComponent(r.json.question_id as string)}`;
};

describe('scripted responder', () => {
  it('answers an admitted question, labelled scripted, from its own participant', async () => {
    const path = await ask({});
    const room = await until('the scripted answer', async () => {
      const r = (await A.call('GET', path)).json.room;
      return r.messages.length === 1 ? r : null;
    });
    const m = room.messages[0];
    expect(m).toMatchObject({ kind: 'answer', speaker: 'scripted responder', origin: 'node-generated' });
    expect(m.text).toMatch(/^\[scripted\] node:laptop runs a scripted responder/);
    expect(room.participants).toHaveLength(1);
    expect(room.participants[0]).toMatchObject({ node: 'node:laptop', models: ['scripted'] });
    expect(room.participants[0].id).not.toBe(room.question.asker);
  });

  it('a question whose filters refuse the join gets no answer; the refusal is listed', async () => {
    const path = await ask({ models_require: ['some-model'] });
    const refusal = await until('the refused join', async () => {
      const n = (await A.call('GET', '/v1/swarm/node')).json;
      return n.refusals.find((r: { code: string }) => r.code === 'MODEL_REQUIRED') ?? null;
    });
    expect(refusal.code).toBe('MODEL_REQUIRED');
    expect((await A.call('GET', path)).json.room.messages).toEqual([]);
  });
});
