// Issue 23, "Who may speak for whom", through a node's REST: the node signs each principal's drafts
// with that principal's own key, so a self-registered agent on the asker's node is just another
// participant (it cannot summarise or close as asker); and a refused message does not block its
// corrected version on the bus (the message id is the hash of the signed bytes).
import { ed25519 } from '@db8/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { didKeyFromPublicKey, SIGNATURE_DOMAINS, signObject } from '../../rules/index.ts';
import { type MemoryNode, memorySwarm } from './swarm-memory.ts';

let node: MemoryNode;
let agentKey: string;
beforeAll(async () => {
  const swarm = await memorySwarm(1, Date.now);
  node = swarm.nodes[0] as MemoryNode;
  const r = await node.app.inject({
    method: 'POST',
    url: '/v1/agents',
    headers: { authorization: `Bearer ${node.admin}` },
    payload: { name: 'self-registered' },
  });
  agentKey = (r.json() as { api_key: string }).api_key;
});
afterAll(async () => {
  await node?.close();
});

async function call(as: string, method: 'GET' | 'POST', url: string, body?: unknown) {
  const r = await node.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${as}` },
    ...(body === undefined ? {} : { payload: body as object }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: test reads of JSON answers.
  return { status: r.statusCode, json: r.json() as any };
}

async function ask(as: string) {
  const r = await call(as, 'POST', '/v1/swarm/questions', {
    ask: { text: 'Who closes?', tags: ['t'], scope: 'global', ttl_sec: 600 },
  });
  expect(r.status, JSON.stringify(r.json)).toBe(201);
  return `/v1/swarm/questions/${encodeURIComponent(r.json.question_id)}/inputs`;
}

const asAsker = {
  summary: {
    type: 'swarm/question-summary',
    'author/role': 'asker',
    status: 'final',
    'content/facts': ['the agent wrote this'],
    'content/hypotheses': [],
    'content/recommendations': [],
    'content/uncertainty': 0.1,
  },
  close: { type: 'swarm/question-close', 'closed-by/role': 'asker', resolution: 'closed' },
};

describe('the node signs only for the principal that holds the role', () => {
  it('each principal has its own participant id on the node', async () => {
    const admin = (await call(node.admin, 'GET', '/v1/swarm/node')).json;
    const agent = (await call(agentKey, 'GET', '/v1/swarm/node')).json;
    expect(admin.participant_id).not.toBe(agent.participant_id);
    expect(admin.node_participant_id).toBe(agent.node_participant_id);
    expect(admin.participant_id).not.toBe(admin.node_participant_id);
  });

  it('a self-registered agent cannot summarise or close the admin’s question as asker', async () => {
    const inputs = await ask(node.admin);
    const sum = await call(agentKey, 'POST', inputs, { draft: asAsker.summary });
    expect(sum.status).toBe(409);
    expect(sum.json.error.code).toBe('NOT_ADMITTED');
    const cl = await call(agentKey, 'POST', inputs, { draft: asAsker.close });
    expect(cl.status).toBe(409);
    expect(cl.json.error.code).toBe('NOT_AUTHORISED');
    // The asker itself still can.
    const own = await call(node.admin, 'POST', inputs, { draft: asAsker.close });
    expect(own.status, JSON.stringify(own.json)).toBe(200);
    expect(own.json.status).toBe('applied');
  });

  it('the agent asks its own question and closes it; the admin cannot close it as asker', async () => {
    const inputs = await ask(agentKey);
    expect((await call(node.admin, 'POST', inputs, { draft: asAsker.close })).json.error.code).toBe(
      'NOT_AUTHORISED',
    );
    expect((await call(agentKey, 'POST', inputs, { draft: asAsker.close })).status).toBe(200);
  });
});

describe('a refused message never blocks a valid corrected one', () => {
  it('a join refused for its tags, then corrected under the same input/id, is applied', async () => {
    const inputs = await ask(node.admin);
    const qid = decodeURIComponent(inputs.split('/')[4] as string);
    const seed = new Uint8Array(32).fill(91);
    const me = `participant:${didKeyFromPublicKey(ed25519.publicKeyFromSeed(seed))}`;
    const joinWith = (tags: string[]) =>
      signObject(
        {
          'schema/v': 1,
          type: 'swarm/room-join',
          'question/id': qid,
          'input/id': 'join:fixed',
          'created-at': new Date().toISOString(),
          'sender/node-id': 'node:client',
          'sender/participant-id': me,
          'responder/models': [],
          'responder/languages': ['en'],
          'responder/tags': tags,
        },
        SIGNATURE_DOMAINS.room,
        seed,
      );
    const refused = await call(node.admin, 'POST', inputs, { input: joinWith(['cooking']) });
    expect(refused.json.error.code).toBe('NO_SHARED_TAG');
    const fixed = await call(node.admin, 'POST', inputs, { input: joinWith(['t']) });
    expect(fixed.status, JSON.stringify(fixed.json)).toBe(200);
    expect(fixed.json.status).toBe('applied');
  });
});
