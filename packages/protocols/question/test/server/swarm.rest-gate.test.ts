// Issue 23: REST never says 201 for what the fold will drop. The REST gate runs every check the
// fold runs (db8's envelope rules, the room's config) before publishing; a question it accepts
// opens; ids with CR/LF/NUL are refused at the edge with a 4xx; the TTL limit is the federation's.
import { ed25519 } from '@db8/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { didKeyFromPublicKey, SIGNATURE_DOMAINS, signObject } from '../../rules/index.ts';
import { type MemoryNode, type MemoryStream, memorySwarm } from './swarm-memory.ts';

let stream: MemoryStream;
let node: MemoryNode;
beforeAll(async () => {
  const swarm = await memorySwarm(1, Date.now);
  stream = swarm.stream;
  node = swarm.nodes[0] as MemoryNode;
});
afterAll(async () => {
  await node?.close();
});

async function post(url: string, body: unknown) {
  const r = await node.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${node.admin}` },
    payload: body as object,
  });
  return { status: r.statusCode, json: r.json() as { error?: { code: string }; status?: string } };
}

const seed = new Uint8Array(32).fill(77);
const me = `participant:${didKeyFromPublicKey(ed25519.publicKeyFromSeed(seed))}`;
function envelope(over: Record<string, unknown>) {
  const id = (over['question/id'] as string | undefined) ?? `gate-${Math.random().toString(36).slice(2)}`;
  return signObject(
    {
      'schema/v': 1,
      'question/id': id,
      'created-at': new Date().toISOString(),
      'sender/node-id': 'node:client',
      'sender/participant-id': me,
      'ttl-sec': 60,
      'question/text': 'Q?',
      'question/tags': ['t'],
      'delivery/scope': 'global',
      'delivery/response-channel-id': id,
      'request/exposure-mode': 'public-call-for-help',
      'reward/mode': 'none',
      ...over,
    },
    SIGNATURE_DOMAINS.question,
    seed,
  );
}

describe('REST gate = fold', () => {
  it('a question whose title would cut an emoji opens (it answered 201 "ignored" and never opened)', async () => {
    const text = `${'a'.repeat(199)}😀 the rest`;
    const r = await post('/v1/swarm/questions', { ask: { text, tags: ['t'], scope: 'global', ttl_sec: 60 } });
    expect(r.status).toBe(201);
    expect(r.json.status).toBe('opened');
    const room = await node.runtime.getRoom((r.json as { room_id: string }).room_id);
    expect(room.title).toBe(`${'a'.repeat(199)}😀`);
  });

  it('a PROFILE_FORBIDDEN envelope is refused and never published', async () => {
    const before = stream.messages.length;
    const r = await post('/v1/swarm/questions', {
      envelope: envelope({ 'room-policy/profile': 'direct-live-allowed' }),
    });
    expect(r.status).toBe(422);
    expect(r.json.error?.code).toBe('PROFILE_FORBIDDEN');
    expect(stream.messages.length).toBe(before);
  });

  it('ids with CR, LF or NUL are a 4xx at the edge, never published', async () => {
    const before = stream.messages.length;
    for (const id of ['gate\r\nX: 1', 'gate\nx', 'gate\u0085']) {
      const r = await post('/v1/swarm/questions', { envelope: envelope({ 'question/id': id }) });
      expect(r.status, JSON.stringify(id)).toBe(400);
      expect(r.json.error?.code).toBe('SCHEMA_INVALID');
    }
    const asked = await post('/v1/swarm/questions', {
      ask: { text: 'Q?', tags: ['t'], scope: 'global', ttl_sec: 60, question_id: 'gate-ok' },
    });
    expect(asked.status).toBe(201);
    const drafts = [
      { type: 'swarm/question-summary', 'summary/id': 's\r\n1', 'author/role': 'asker', status: 'final' },
      { type: 'swarm/room-presence', 'input/id': 'in\u0000' },
      {
        type: 'swarm/room-message',
        'message/kind': 'answer',
        'message/text': 'A',
        'origin/class': 'node-generated',
        'origin/speaker': 'a\r\nb',
      },
    ];
    for (const draft of drafts) {
      const r = await post('/v1/swarm/questions/gate-ok/inputs', {
        draft: {
          'content/facts': [],
          'content/hypotheses': [],
          'content/recommendations': [],
          'content/uncertainty': 0.1,
          ...draft,
        },
      });
      expect(r.status, draft.type).toBe(400);
    }
    const path = await node.app.inject({
      method: 'GET',
      url: `/v1/swarm/questions/${encodeURIComponent('gate\r\nx')}`,
    });
    expect(path.statusCode).toBe(400);
    expect(stream.messages.length).toBe(before + 1);
  });

  it("a TTL past the node's limit is TTL_TOO_LONG with the limit; the node says its limit", async () => {
    const r = await post('/v1/swarm/questions', {
      ask: { text: 'Q?', tags: ['t'], scope: 'global', ttl_sec: 2_592_000 },
    });
    expect(r.status).toBe(422);
    expect(r.json.error?.code).toBe('TTL_TOO_LONG');
    const info = await node.app.inject({ method: 'GET', url: '/v1/swarm/node' });
    expect(info.json().max_ttl_sec).toBe(604_800);
  });
});
