// The swarm REST edges on a node without NATS: zod-checked bodies and queries answer 4xx with the
// error shape, writes answer 503 SWARM_OFFLINE, the generic create route refuses question rooms,
// and /protocol.json serves db8's summary and close schemas.

import { type StartedServer, startEmbeddedServer } from '@db8/server/test/started-server.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let started: StartedServer;
let url: string;
beforeAll(async () => {
  started = await startEmbeddedServer('db8-swarm-routes-');
  url = started.server.url;
});
afterAll(async () => {
  await started?.close();
});

async function call(method: string, path: string, body?: unknown, auth = true) {
  const r = await fetch(`${url}${path}`, {
    method,
    headers: {
      ...(auth ? { authorization: `Bearer ${started.admin}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  // biome-ignore lint/suspicious/noExplicitAny: test reads of JSON answers, checked field by field.
  return { status: r.status, json: (await r.json()) as any };
}

const ask = { ask: { text: 'Q?', tags: ['t'], scope: 'global', ttl_sec: 60 } };

describe('swarm REST without a transport', () => {
  it('/protocol.json serves the summary and close schemas under the question protocol', async () => {
    const { json } = await call('GET', '/protocol.json');
    const s = json.protocols.question.schemas;
    expect(s['swarm/question-summary'].$id).toBe('urn:db8:schema:swarm-question-summary:v1');
    expect(s['swarm/question-close'].$id).toBe('urn:db8:schema:swarm-question-close:v1');
    expect(s['answer-room-metadata.v1'].$id).toBeDefined();
  });

  it('checks bodies and queries at the edge (4xx with the error shape)', async () => {
    expect((await call('POST', '/v1/swarm/questions', ask, false)).status).toBe(401);
    for (const body of [
      {},
      { ask: { ...ask.ask, scope: 'galaxy' } },
      { ask: ask.ask, envelope: {} },
      { ask: { ...ask.ask, extra: 1 } },
    ]) {
      const r = await call('POST', '/v1/swarm/questions', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error.code).toBeTypeOf('string');
    }
    const q = await call('GET', '/v1/swarm/questions?status=sideways');
    expect(q.status).toBe(400);
    const missing = await call('GET', '/v1/swarm/questions/nope');
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe('QUESTION_NOT_FOUND');
  });

  it('writes need the transport; reads answer from the local copies', async () => {
    const r = await call('POST', '/v1/swarm/questions', ask);
    expect(r.status).toBe(503);
    expect(r.json.error.code).toBe('SWARM_OFFLINE');
    expect((await call('GET', '/v1/swarm/questions')).json).toEqual({ questions: [] });
    const node = (await call('GET', '/v1/swarm/node')).json;
    expect(node).toMatchObject({ online: false, stream: 'SWARM_QUESTIONS' });
    expect(node.node_id).toMatch(/^node:did:key:z6Mk/);
  });

  it('the generic create route refuses a question room (rooms open from the stream)', async () => {
    const r = await call('POST', '/v1/rooms', { protocol: 'question', config: { envelope: {} } });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('BAD_CONFIG');
    expect((await call('GET', '/v1/rooms?protocol=question')).json.rooms).toEqual([]);
  });
});
