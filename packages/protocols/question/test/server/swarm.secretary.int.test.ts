// The question module's model agents on two nodes over the local nats-server, against a real local
// HTTP server speaking the model APIs: a model participant on B answers (OpenAI wire), the asker on
// A delegates the secretary to B, and B's model secretary summarises the room (Anthropic wire) as
// facts, hypotheses, recommendations and uncertainty, seen on A. A garbage reply is recorded as a
// failure (502 MODEL_FAILED, listed at /v1/swarm/model-calls) and publishes nothing.
import { randomBytes } from 'node:crypto';
import { ModelServer } from '@db8/agents/test/model-server.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SwarmNode, startSwarmNode, until } from './swarm-node.ts';

const RUN = randomBytes(5).toString('hex');
const run = { prefix: `s${RUN}.`, stream: `SWARM_S${RUN}`, settings: {} };
let A: SwarmNode;
let B: SwarmNode;
let models: ModelServer;
const enc = encodeURIComponent;

beforeAll(async () => {
  models = await ModelServer.start();
  A = await startSwarmNode('a', run);
  B = await startSwarmNode('b', run);
});
afterAll(async () => {
  await A?.close();
  await B?.close();
  await models?.close();
});

const driver = (wire: 'openai' | 'anthropic') => ({
  driver: 'model',
  provider: wire,
  model: `${wire}-model`,
  base_url: wire === 'openai' ? models.openaiBaseUrl : models.anthropicBaseUrl,
});

describe('swarm model agents', () => {
  it('a model participant answers, a model secretary summarises; garbage is a recorded failure', async () => {
    const asked = await A.call('POST', '/v1/swarm/questions', {
      ask: { text: 'Is JCS enough for signatures?', tags: ['json'], scope: 'global', ttl_sec: 600 },
    });
    expect(asked.status, JSON.stringify(asked.json)).toBe(201);
    const qid = asked.json.question_id as string;
    const path = `/v1/swarm/questions/${enc(qid)}`;
    await until('on B', async () => (await B.call('GET', path)).status === 200);

    models.enqueue({ reply: { text: 'Yes, if strings are NFC-normalised first.' } });
    const ans = await B.call('POST', `${path}/model`, { role: 'participant', driver: driver('openai') });
    expect(ans.status, JSON.stringify(ans.json)).toBe(200);
    expect(ans.json.published.status).toBe('applied');
    expect(ans.json.call.ok).toBe(true);

    // The asker hands the secretary to B's node key.
    const bNode = (await B.call('GET', '/v1/swarm/node')).json;
    await until('answer on A', async () => (await A.call('GET', path)).json.room.messages.length === 1);
    const del = await A.call('POST', `${path}/inputs`, {
      draft: {
        type: 'swarm/room-delegate',
        'secretary/participant-id': bNode.participant_id,
        'secretary/node-id': bNode.node_id,
        'close/allowed': true,
      },
    });
    expect(del.status, JSON.stringify(del.json)).toBe(200);
    await until('secretary on B', async () => (await B.call('GET', path)).json.room.secretary !== null);

    // Garbage (and garbage again on the repair request): a failure, nothing published.
    models.enqueue({ replyText: 'I think it is fine?' }, { replyText: 'still not JSON' });
    const bad = await B.call('POST', `${path}/model`, { role: 'secretary', driver: driver('anthropic') });
    expect(bad.status).toBe(502);
    expect(bad.json.error.code).toBe('MODEL_FAILED');
    expect(bad.json.error.details.call.error.code).toBe('invalid_output');
    expect((await B.call('GET', path)).json.room.summaries).toEqual([]);
    const failed = (await B.call('GET', '/v1/swarm/model-calls')).json.calls;
    expect(failed.at(-1)).toMatchObject({ question_id: qid, role: 'secretary', ok: false, published: null });

    models.enqueue({
      reply: {
        facts: ['JCS (RFC 8785) fixes key order and number form'],
        hypotheses: ['NFC normalisation closes the remaining gap'],
        recommendations: ['normalise strings before signing'],
        uncertainty: 0.25,
      },
    });
    const sum = await B.call('POST', `${path}/model`, {
      role: 'secretary',
      driver: driver('anthropic'),
      status: 'final',
    });
    expect(sum.status, JSON.stringify(sum.json)).toBe(200);
    // The secretary's prompt carried the room so far.
    expect(JSON.stringify(models.requests.at(-1)!.body)).toContain('NFC-normalised');

    const room = await until('summary on A', async () => {
      const r = (await A.call('GET', path)).json.room;
      return r.summaries.length === 1 ? r : null;
    });
    expect(room.summaries[0]).toMatchObject({
      role: 'secretary',
      status: 'final',
      facts: ['JCS (RFC 8785) fixes key order and number form'],
      hypotheses: ['NFC normalisation closes the remaining gap'],
      recommendations: ['normalise strings before signing'],
      uncertainty: 0.25,
      author: bNode.participant_id,
    });
    expect(room.messages[0]).toMatchObject({ speaker: 'openai-model', origin: 'node-generated' });

    // Edges: not admin → 401/403; closed room or unknown question → 4xx; bad body → 400.
    expect((await B.call('POST', `${path}/model`, { role: 'judge', driver: driver('openai') })).status).toBe(
      400,
    );
    expect(
      (
        await B.call('POST', '/v1/swarm/questions/nope/model', {
          role: 'participant',
          driver: driver('openai'),
        })
      ).status,
    ).toBe(404);
    const anon = await fetch(`${B.server.url}${path}/model`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ role: 'participant', driver: driver('openai') }),
    });
    expect(anon.status).toBe(401);
  });
});
