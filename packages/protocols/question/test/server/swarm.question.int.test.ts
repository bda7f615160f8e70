// Issue 10, "done when": three db8 nodes (own store, own node key) on one nats-server. A question
// asked on A is listed on B and C; participants on all three answer; A stops; the secretary on B
// summarises and closes; every surviving copy has one Merkle root and its export verifies offline;
// a question whose TTL passes expires on every node. Forged, replayed, oversized and schema-invalid
// envelopes are refused with a reason and write nothing — through REST and straight onto the stream.
import { randomBytes } from 'node:crypto';
import { ed25519, verifyBundleText } from '@db8/core';
import { JetStreamLog } from '@db8/server/src/bus/jetstream.ts';
import { connect, type NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { didKeyFromPublicKey, SIGNATURE_DOMAINS, signObject } from '../../rules/index.ts';
import { NATS_URL, type SwarmNode, startSwarmNode, until } from './swarm-node.ts';

const RUN = randomBytes(5).toString('hex');
const run = {
  prefix: `t${RUN}.`,
  stream: `SWARM_T${RUN}`,
  settings: { presenceLapseMs: 1000 },
};
const QID = `question:${RUN}`;
const enc = (qid: string) => encodeURIComponent(qid);

function participant(n: number) {
  const seed = new Uint8Array(32).fill(n);
  return { seed, id: `participant:${didKeyFromPublicKey(ed25519.publicKeyFromSeed(seed))}` };
}
const PA = participant(21);
const PB = participant(22);
const PC = participant(23);

let seq = 0;
/** A room input signed by a participant's own key (the client-signed path). */
function signed(
  p: { seed: Uint8Array; id: string },
  node: string,
  type: string,
  fields: Record<string, unknown>,
) {
  seq += 1;
  const body = {
    'schema/v': 1,
    type,
    'question/id': QID,
    'input/id': `in-${RUN}-${seq}`,
    'created-at': new Date().toISOString(),
    'sender/node-id': node,
    'sender/participant-id': p.id,
    // A federation-local room takes its federation's inputs only (docs/swarm.md "Scope").
    'sender/federation-id': 'federation:local',
    ...fields,
  };
  return signObject(body, SIGNATURE_DOMAINS.room, p.seed);
}
const joinOf = (p: { seed: Uint8Array; id: string }, node: string) =>
  signed(p, node, 'swarm/room-join', {
    'responder/models': ['model:test'],
    'responder/languages': ['en'],
    'responder/tags': ['trust'],
  });
const answerOf = (p: { seed: Uint8Array; id: string }, node: string, text: string) =>
  signed(p, node, 'swarm/room-message', {
    'message/kind': 'answer',
    'message/text': text,
    'origin/class': 'node-generated',
    'origin/speaker': 'model:test',
    'origin/gateway': node,
  });

let A: SwarmNode;
let B: SwarmNode;
let C: SwarmNode;
let nc: NatsConnection;

beforeAll(async () => {
  // One at a time: three servers booting at once on a busy two-core machine can miss Fastify's
  // plugin start timeout.
  A = await startSwarmNode('a', run);
  B = await startSwarmNode('b', run);
  C = await startSwarmNode('c', run);
  nc = await connect({ servers: NATS_URL });
});

afterAll(async () => {
  await Promise.all([A, B, C].map((n) => n?.close()));
  await nc?.drain();
  const log = await JetStreamLog.connect(NATS_URL);
  await log.deleteStream(run.stream).catch(() => {});
  await log.close();
});

const room = async (n: SwarmNode, qid = QID) => (await n.call('GET', `/v1/swarm/questions/${enc(qid)}`)).json;
const post = (n: SwarmNode, body: unknown, qid = QID) =>
  n.call('POST', `/v1/swarm/questions/${enc(qid)}/inputs`, body);

async function bundle(n: SwarmNode, roomId: string) {
  const r = await n.call('GET', `/v1/rooms/${roomId}/export?as=public`);
  expect(r.status).toBe(200);
  const report = verifyBundleText(r.json as string, {
    pinnedKey: n.server.runtime.serverKey.noteVerifierKey,
  });
  expect(report.failures).toEqual([]);
  expect(report.ok && report.keyPinned).toBe(true);
  return report;
}

describe('swarm questions across three nodes', () => {
  it('ask on A, answer everywhere, stop A, the secretary on B closes; one root on every node', async () => {
    const ask = await A.call('POST', '/v1/swarm/questions', {
      ask: {
        text: 'How do we rotate a trust root?',
        tags: ['trust'],
        scope: 'federation-local',
        ttl_sec: 600,
        question_id: QID,
      },
    });
    expect(ask.status, JSON.stringify(ask.json)).toBe(201);
    expect(ask.json).toMatchObject({ question_id: QID, status: 'opened', duplicate: false });
    const roomId = ask.json.room_id as string;
    expect(roomId).toMatch(/^q_[0-9a-f]{40}$/); // the id has a colon: mapped, the same everywhere

    for (const n of [B, C]) {
      const listed = await until(`listed on ${n.name}`, async () => {
        const l = await n.call('GET', '/v1/swarm/questions?scope=federation-local&tag=trust');
        return l.json.questions.find((q: { question_id: string }) => q.question_id === QID);
      });
      expect(listed).toMatchObject({ room_id: roomId, asker_node: 'node:a', status: 'open' });
    }

    // Participants on all three nodes, each signing with its own key, posting to its own node.
    for (const [n, p] of [
      [A, PA],
      [B, PB],
      [C, PC],
    ] as const) {
      const j = await post(n, { input: joinOf(p, `node:${n.name}`) });
      expect(j.status, JSON.stringify(j.json)).toBe(200);
      expect(j.json.status).toBe('applied');
      const a = await post(n, { input: answerOf(p, `node:${n.name}`, `answer from ${n.name}`) });
      expect(a.json.status, JSON.stringify(a.json)).toBe('applied');
    }
    // B's node key joins too (node-signed draft): it becomes the secretary once the asker lapses.
    const bj = await post(B, {
      draft: {
        type: 'swarm/room-join',
        'responder/models': ['model:test'],
        'responder/languages': ['en'],
        'responder/tags': ['trust'],
      },
    });
    expect(bj.json.status, JSON.stringify(bj.json)).toBe('applied');
    const head = bj.json.room_seq as number;
    for (const n of [A, C]) await until(`${n.name} at seq ${head}`, async () => (await room(n)).seq === head);
    expect((await room(C)).room.messages.map((m: { text: string }) => m.text)).toEqual([
      'answer from a',
      'answer from b',
      'answer from c',
    ]);

    await A.close(); // the asker's node is gone; the room lives on B and C

    // Takeover once the asker has been silent for presenceLapseMs (stream time decides).
    const takeover = await until('takeover', async () => {
      const t = await post(B, { draft: { type: 'swarm/room-takeover' } });
      if (t.status === 409 && t.json.error.code === 'ASKER_PRESENT') return null;
      return t;
    });
    expect(takeover.json.status, JSON.stringify(takeover.json)).toBe('applied');
    const summary = await post(B, {
      draft: {
        type: 'swarm/question-summary',
        'summary/id': `summary-${RUN}`,
        'author/role': 'secretary',
        status: 'final',
        'content/facts': ['Three nodes answered.'],
        'content/hypotheses': [],
        'content/recommendations': ['Keep both roots for one epoch.'],
        'content/uncertainty': 0.2,
      },
    });
    expect(summary.json.status, JSON.stringify(summary.json)).toBe('applied');
    const close = await post(B, {
      draft: {
        type: 'swarm/question-close',
        'closed-by/role': 'secretary',
        resolution: 'accepted-answer',
        'accepted-summary/id': `summary-${RUN}`,
      },
    });
    expect(close.json.status, JSON.stringify(close.json)).toBe('applied');

    const onB = await room(B);
    expect(onB.room.status).toBe('closed');
    expect(onB.room.close).toMatchObject({ resolution: 'accepted-answer', role: 'secretary' });
    await until('C closed', async () => (await room(C)).seq === onB.seq);
    expect((await room(C)).room).toEqual(onB.room);

    const [rb, rc] = [await bundle(B, roomId), await bundle(C, roomId)];
    expect(rb.treeSize).toBe(onB.seq + 1);
    expect(rc.treeSize).toBe(rb.treeSize);
    expect(rc.rootHash).toBe(rb.rootHash);

    const meta = await B.call('GET', `/v1/swarm/questions/${enc(QID)}/metadata`);
    expect(meta.json).toMatchObject({
      'room/id': QID,
      'delivery/scope': 'federation-local',
      'room-policy/profile': 'mediated-only',
    });
  });

  it('a question whose TTL passes expires on every node, with one root', async () => {
    const qid = `ttl-${RUN}`;
    const ask = await B.call('POST', '/v1/swarm/questions', {
      ask: { text: 'Short-lived?', tags: ['trust'], scope: 'global', ttl_sec: 2, question_id: qid },
    });
    expect(ask.status, JSON.stringify(ask.json)).toBe(201);
    for (const n of [B, C]) {
      await until(
        `${qid} expired on ${n.name}`,
        async () => (await room(n, qid))?.room?.status === 'expired',
      );
    }
    const [b, c] = [await room(B, qid), await room(C, qid)];
    expect(b.room.close).toMatchObject({ resolution: 'expired', role: 'deadline' });
    expect(c.room).toEqual(b.room);
    expect((await bundle(C, qid)).rootHash).toBe((await bundle(B, qid)).rootHash);
    const active = await C.call('GET', '/v1/swarm/questions?scope=global');
    expect(active.json.questions.map((q: { question_id: string }) => q.question_id)).not.toContain(qid);
  });
});

describe('bad envelopes are refused with a reason and write nothing', () => {
  const base = () => ({
    'schema/v': 1,
    'question/id': `bad-${RUN}-${randomBytes(3).toString('hex')}`,
    'created-at': new Date().toISOString(),
    'sender/node-id': 'node:x',
    'sender/participant-id': PA.id,
    'ttl-sec': 600,
    'question/text': 'A fair question',
    'question/tags': ['trust'],
    'delivery/scope': 'global',
    'request/exposure-mode': 'public-call-for-help',
    'reward/mode': 'none',
  });
  const sign = (e: Record<string, unknown>) =>
    signObject(
      { ...e, 'delivery/response-channel-id': e['question/id'] },
      SIGNATURE_DOMAINS.question,
      PA.seed,
    );
  const questionCount = async (n: SwarmNode) =>
    (await n.server.runtime.listRooms({ protocol: 'question', limit: 500 })).length;

  it('through REST: each refused with its code, nothing published or written', async () => {
    const good = sign(base());
    const cases: Array<[string, unknown, number, string]> = [
      ['forged', { ...good, 'question/text': 'A different question' }, 422, 'BAD_SIGNATURE'],
      ['oversized', sign({ ...base(), 'question/text': 'x'.repeat(70_000) }), 413, 'OVERSIZED'],
      ['schema-invalid', sign({ ...base(), 'ttl-sec': 0 }), 400, 'SCHEMA_INVALID'],
    ];
    const before = await Promise.all([B, C].map(questionCount));
    for (const [what, envelope, status, code] of cases) {
      const r = await B.call('POST', '/v1/swarm/questions', { envelope });
      expect(r.status, what).toBe(status);
      expect(r.json.error.code, what).toBe(code);
    }
    // Replayed: the second publication of one signed envelope.
    expect((await B.call('POST', '/v1/swarm/questions', { envelope: good })).status).toBe(201);
    const again = await B.call('POST', '/v1/swarm/questions', { envelope: good });
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('REPLAYED');
    const after = await Promise.all([B, C].map(questionCount));
    await until('C has the good one', async () => (await questionCount(C)) === before[1]! + 1);
    expect(after[0]).toBe(before[0]! + 1);
  });

  it('straight onto the stream: every node refuses each with its code, nothing written', async () => {
    const js = nc.jetstream();
    const subject = `${run.prefix}swarm.question.publish.global`;
    const good = sign(base());
    const forgedInput = { ...answerOf(PB, 'node:b', 'forged'), 'message/text': 'tampered' };
    const bytes = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
    const before = await Promise.all([B, C].map(questionCount));
    const roomSeqBefore = (await room(B)).seq;
    const sent: Array<[number, string]> = [];
    const pub = async (subj: string, v: unknown, code: string) => {
      const ack = await js.publish(subj, bytes(v), { msgID: `raw-${randomBytes(6).toString('hex')}` });
      sent.push([ack.seq, code]);
    };
    await pub(subject, { ...good, 'question/text': 'forged' }, 'BAD_SIGNATURE');
    await pub(subject, sign({ ...base(), 'question/text': 'y'.repeat(300_000) }), 'OVERSIZED');
    await pub(subject, { ...good, 'ttl-sec': 'soon' }, 'SCHEMA_INVALID');
    await pub(subject, sign({ ...base(), 'delivery/scope': 'federation-local' }), 'SCHEMA_INVALID');
    // Replayed: the same envelope under two message ids (the stream keeps both; nodes refuse the second).
    const replayed = sign(base());
    await js.publish(subject, bytes(replayed), { msgID: `raw-${randomBytes(6).toString('hex')}` });
    await pub(subject, replayed, 'REPLAYED');
    await pub(`${run.prefix}swarm.question.room-q_x.federation-local`, forgedInput, 'BAD_SIGNATURE');
    for (const n of [B, C]) {
      await until(`${n.name} refused all`, async () => {
        const node = (await n.call('GET', '/v1/swarm/node')).json;
        const got = new Map(
          node.refusals.map((r: { streamSeq: number; code: string }) => [r.streamSeq, r.code]),
        );
        return sent.every(([s]) => got.has(s)) ? got : null;
      }).then((got) => {
        for (const [s, code] of sent) expect(got.get(s), `${n.name} seq ${s}`).toBe(code);
      });
    }
    // Only the one good (first) publication of `replayed` opened a room; the main room is untouched.
    expect(await questionCount(B)).toBe(before[0]! + 1);
    expect(await questionCount(C)).toBe(before[1]! + 1);
    expect((await room(B)).seq).toBe(roomSeqBefore);
  });
});
