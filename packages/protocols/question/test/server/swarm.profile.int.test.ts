// Swarm questions on agent profiles (issue 28, "One identity"): a node links a principal whose ask
// or draft it signs to the question room (authors.ts), and once the room closes the principal's
// profile counts its answers given, its answers the asker accepted (an asker accepting its own
// answer does not count) and its questions asked (agent-record.ts). An answer signed by a client's
// own key has no principal here: it is in the room and on nobody's profile, and whoever relayed it
// gets no section for it. One node on the local nats-server, agents with their own keys.
import { randomBytes } from 'node:crypto';
import { ed25519 } from '@db8/core';
import { JetStreamLog } from '@db8/server/src/bus/jetstream.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { didKeyFromPublicKey, SIGNATURE_DOMAINS, signObject } from '../../rules/index.ts';
import { NATS_URL, type SwarmNode, startSwarmNode, until } from './swarm-node.ts';

const RUN = randomBytes(5).toString('hex');
const run = { prefix: `p${RUN}.`, stream: `SWARM_P${RUN}`, settings: {} };
const enc = encodeURIComponent;
let A: SwarmNode;

beforeAll(async () => {
  A = await startSwarmNode('a', run);
});
afterAll(async () => {
  await A?.close();
  const log = await JetStreamLog.connect(NATS_URL);
  await log.deleteStream(run.stream).catch(() => {});
  await log.close();
});

// biome-ignore lint/suspicious/noExplicitAny: test reads of JSON answers, checked field by field.
type Out = any;
interface Agent {
  id: string;
  call(method: string, path: string, body?: unknown): Promise<{ status: number; json: Out }>;
}

async function agent(name: string): Promise<Agent> {
  const reg = await A.call('POST', '/v1/agents', { name });
  expect(reg.status, JSON.stringify(reg.json)).toBe(201);
  const key = reg.json.api_key as string;
  return {
    id: reg.json.agent_id as string,
    async call(method, path, body) {
      const r = await fetch(`${A.server.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      return { status: r.status, json: await r.json() };
    },
  };
}

async function ok(p: Promise<{ status: number; json: Out }>): Promise<Out> {
  const r = await p;
  expect(r.status, JSON.stringify(r.json)).toBeLessThan(300);
  return r.json;
}

/** Asks; answers the question's room id. */
async function ask(a: Agent, qid: string, text: string): Promise<string> {
  const r = await ok(
    a.call('POST', '/v1/swarm/questions', {
      ask: { text, tags: ['profile'], scope: 'federation-local', ttl_sec: 600, question_id: qid },
    }),
  );
  return r.room_id as string;
}
const input = (a: Agent, qid: string, draft: Record<string, unknown>) =>
  ok(a.call('POST', `/v1/swarm/questions/${enc(qid)}/inputs`, { draft }));
const join = (a: Agent, qid: string) =>
  input(a, qid, {
    type: 'swarm/room-join',
    'responder/models': ['model:test'],
    'responder/languages': ['en'],
    'responder/tags': ['profile'],
  });
const answer = (a: Agent, qid: string, text: string) =>
  input(a, qid, {
    type: 'swarm/room-message',
    'message/kind': 'answer',
    'message/text': text,
    'origin/class': 'node-generated',
    'origin/speaker': 'model:test',
  });
const roomOf = async (qid: string) => (await ok(A.call('GET', `/v1/swarm/questions/${enc(qid)}`))).room;
/** The answer with this text, by its key (ids are the signer's own and may repeat across signers). */
async function answerRef(qid: string, text: string): Promise<string> {
  const m = await until(`answer "${text}" folded`, async () =>
    (await roomOf(qid)).messages.find((x: Out) => x.kind === 'answer' && x.text === text),
  );
  return m.key ?? m.id;
}
const verdict = async (a: Agent, qid: string, text: string, decision: 'accept' | 'reject') =>
  input(a, qid, {
    type: 'swarm/room-verdict',
    'verdict/input-id': await answerRef(qid, text),
    'verdict/decision': decision,
  });
async function close(a: Agent, qid: string): Promise<void> {
  await input(a, qid, { type: 'swarm/question-close', 'closed-by/role': 'asker', resolution: 'closed' });
  await until(`${qid} closed`, async () => (await roomOf(qid)).status === 'closed');
}

/** A participant that signs its own inputs: a key this node knows no principal for. */
const SEED = new Uint8Array(32).fill(7);
const KEY = `participant:${didKeyFromPublicKey(ed25519.publicKeyFromSeed(SEED))}`;
let n = 0;
function selfSigned(qid: string, type: string, fields: Record<string, unknown>) {
  n += 1;
  return signObject(
    {
      'schema/v': 1,
      type,
      'question/id': qid,
      'input/id': `self-${RUN}-${n}`,
      'created-at': new Date().toISOString(),
      'sender/node-id': 'node:a',
      'sender/participant-id': KEY,
      'sender/federation-id': 'federation:local',
      ...fields,
    },
    SIGNATURE_DOMAINS.room,
    SEED,
  );
}

/** The profile's question section as anyone sees it (no profile at all: null). */
const questionSection = async (id: string) => {
  const r = await fetch(`${A.server.url}/v1/agents/${enc(id)}`);
  if (r.status === 404) return null;
  expect(r.status).toBe(200);
  const body = (await r.json()) as Out;
  return body.sections.find((s: Out) => s.protocol === 'question') ?? null;
};
const stats = (section: Out) =>
  Object.fromEntries(section.stats.map((s: Out) => [s.label, s.value])) as Record<string, number>;

describe('swarm questions on agent profiles', () => {
  it('counts answers given, answers accepted (not by oneself) and questions asked; unlinked keys count nowhere', async () => {
    const quinn = await agent('quinn'); // asks Q1, answers both
    const hana = await agent('hana'); // answers Q1, asks Q2
    const relay = await agent('relay'); // only relays a self-signed answer
    const Q1 = `question:${RUN}-1`;
    const Q2 = `question:${RUN}-2`;

    const room1 = await ask(quinn, Q1, 'Which hash for content addressing?');
    await join(hana, Q1);
    await answer(hana, Q1, 'SHA-256');
    await answer(hana, Q1, 'MD5');
    await answer(quinn, Q1, 'BLAKE3, says the asker');
    await ok(
      relay.call('POST', `/v1/swarm/questions/${enc(Q1)}/inputs`, {
        input: selfSigned(Q1, 'swarm/room-join', {
          'responder/models': ['model:self'],
          'responder/languages': ['en'],
          'responder/tags': ['profile'],
        }),
      }),
    );
    await ok(
      relay.call('POST', `/v1/swarm/questions/${enc(Q1)}/inputs`, {
        input: selfSigned(Q1, 'swarm/room-message', {
          'message/kind': 'answer',
          'message/text': 'SHA-3, from a key of its own',
          'origin/class': 'node-generated',
          'origin/speaker': 'model:self',
          'origin/gateway': 'node:a',
        }),
      }),
    );
    await verdict(quinn, Q1, 'SHA-256', 'accept');
    await verdict(quinn, Q1, 'MD5', 'reject');
    // The asker accepting its own answer: in the room, but no "accepted" on its profile.
    await verdict(quinn, Q1, 'BLAKE3, says the asker', 'accept');
    await verdict(quinn, Q1, 'SHA-3, from a key of its own', 'accept');
    // A running room's authors stay anonymous: no section until it closes.
    expect(await questionSection(hana.id)).toBeNull();
    await close(quinn, Q1);

    await ask(hana, Q2, 'Which signature scheme?');
    await join(quinn, Q2);
    await answer(quinn, Q2, 'Ed25519');
    await verdict(hana, Q2, 'Ed25519', 'accept');
    await close(hana, Q2);

    const r1 = await roomOf(Q1);
    const accepted = r1.messages.filter((m: Out) => m.verdict === 'accept').map((m: Out) => m.text);
    expect(accepted.sort()).toEqual(['BLAKE3, says the asker', 'SHA-256', 'SHA-3, from a key of its own']);
    expect(r1.messages.find((m: Out) => m.text.startsWith('SHA-3')).author).toBe(KEY);

    const q = await questionSection(quinn.id);
    expect(stats(q)).toEqual({ 'answers given': 2, 'answers accepted': 1, 'questions asked': 1 });
    expect(q.matches.map((m: Out) => m.seat).sort()).toEqual(['answerer', 'asker']);
    const h = await questionSection(hana.id);
    expect(stats(h)).toEqual({ 'answers given': 2, 'answers accepted': 1, 'questions asked': 1 });
    // No participant key on a profile: the seat column says the role.
    expect(JSON.stringify([q, h])).not.toContain('participant:');

    // The self-signed key has no principal: no profile, and its relayer no section for it.
    expect((await fetch(`${A.server.url}/v1/agents/${enc(relay.id)}`)).status).toBe(404);
    expect((await fetch(`${A.server.url}/v1/agents/${enc(KEY)}`)).status).toBe(404);
    // Even an admin, who sees open rooms too, finds no question room on the relayer's profile.
    const asAdmin = await A.call('GET', `/v1/agents/${enc(relay.id)}`);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.json.sections).toEqual([]);
    const links = await A.server.store.db.query<{ principal: string; role: string }>(
      'SELECT principal_id AS principal, role FROM room_links WHERE room_id = $1',
      [room1],
    );
    expect(links.map((l) => [l.principal, l.role]).sort()).toEqual(
      [
        [quinn.id, 'asker'],
        [hana.id, 'participant'],
      ].sort(),
    );
  });
});
