// The Matrix bridge end to end: two db8 nodes on the real nats-server (JetStream), each with the
// bridge on against the in-repo test homeserver (support/matrix-homeserver.ts, a test double), and a
// matrix-js-sdk observer. A question asked on A gets its aliased Matrix room (created through a lost
// createRoom answer); the question, the answers (origin class and speaker), a summary and the close
// reach the observer's sync once each, through a lost send answer and a 429; B (not the asker)
// relays nothing; the observer cannot post; A restarted resends nothing it had sent; nothing is redacted.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningServer, startServer } from 'db8/server';
import { createClient, type MatrixClient } from 'matrix-js-sdk';
import { logger } from 'matrix-js-sdk/lib/logger.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestHomeserver } from './support/matrix-homeserver.ts';
import { NATS_URL, until } from './swarm-node.ts';

(logger as unknown as { disableAll(): void }).disableAll();

const RUN = randomBytes(5).toString('hex');
const QID = `question:${RUN}`;
// The alias mapping: `:` becomes `=3a`; lowercase hex stays.
const ALIAS = `#swarm.question=3a${RUN}:db8.test`;

interface Node {
  server: RunningServer;
  dir: string;
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers, checked field by field.
  call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }>;
}

async function startNode(name: string, token: string, dir = mkdtempSync(join(tmpdir(), `db8-mx-${name}-`))) {
  const server = await startServer({
    env: {
      DB8_SWARM_NATS_URL: NATS_URL,
      DB8_SWARM_PREFIX: `t${RUN}.`,
      DB8_SWARM_STREAM: `SWARM_MX${RUN}`,
      DB8_SWARM_NODE_ID: `node:${name}`,
      DB8_SWARM_MATRIX_URL: hs.url,
      DB8_SWARM_MATRIX_TOKEN: token,
    },
    port: 0,
    dataDir: dir,
    print: () => {},
    logLevel: 'silent',
  } as never);
  const login = await fetch(`${server.url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: new URL(server.adminLink as string).hash.replace('#token=', '') }),
  });
  const admin = ((await login.json()) as { token: string }).token;
  const node: Node = {
    server,
    dir,
    async call(method, path, body) {
      const r = await fetch(`${server.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${admin}`,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      return { status: r.status, json: await r.json() };
    },
  };
  return node;
}

const input = (n: Node, draft: Record<string, unknown>) =>
  n.call('POST', `/v1/swarm/questions/${encodeURIComponent(QID)}/inputs`, { draft });
const joinDraft = {
  type: 'swarm/room-join',
  'responder/models': ['model:test'],
  'responder/languages': ['en'],
  'responder/tags': ['trust'],
};
const answer = (text: string, origin: string, speaker: string) => ({
  type: 'swarm/room-message',
  'message/kind': 'answer',
  'message/text': text,
  'origin/class': origin,
  'origin/speaker': speaker,
});

let hs: TestHomeserver;
let A: Node;
let B: Node;
let alice: MatrixClient;

beforeAll(async () => {
  hs = new TestHomeserver();
  await hs.start();
  hs.addUser('bridge-a', 'x', 'token-a', 'DEVA');
  hs.addUser('bridge-b', 'x', 'token-b', 'DEVB');
  hs.addUser('alice', 'alice-pw');
  A = await startNode('a', 'token-a');
  B = await startNode('b', 'token-b');
  const login = await createClient({ baseUrl: hs.url }).loginWithPassword('@alice:db8.test', 'alice-pw');
  alice = createClient({ baseUrl: hs.url, accessToken: login.access_token, userId: login.user_id });
  await alice.startClient({ initialSyncLimit: 50 });
});

afterAll(async () => {
  alice?.stopClient();
  for (const n of [A, B]) {
    await n?.server.close();
    if (n) rmSync(n.dir, { recursive: true, force: true });
  }
  await hs?.stop();
});

type Db8 = { kind: string; seq?: number; origin_class?: string; speaker?: string; status?: string };
/** What the observer's client holds of the room (its sync), the bridge's messages in order. */
const relayed = () =>
  (
    alice
      .getRoom(hs.roomIdOf(ALIAS) ?? '')
      ?.getLiveTimeline()
      .getEvents() ?? []
  )
    .filter((e) => e.getType() === 'm.room.message' && e.getSender() === '@bridge-a:db8.test')
    .map((e) => ({
      id: e.getId(),
      body: e.getContent().body as string,
      db8: e.getContent()['db8.swarm'] as Db8,
    }));
const sends = (from = 0) =>
  hs.requests.filter((r) => r.method === 'PUT' && r.path.includes('/send/') && r.at >= from);

describe('Matrix bridge', () => {
  it('relays an answer room to its aliased Matrix room, once per item, through lost answers and rate limits', async () => {
    // createRoom's answer is lost (the room is made): the retry meets M_ROOM_IN_USE and joins by alias.
    hs.inject({ method: 'POST', path: /\/createRoom$/, kind: 'drop-after', times: 1 });
    // The first send (the question) lands but its answer is lost, then its retry is rate-limited.
    hs.inject({ method: 'PUT', path: /\/send\//, kind: 'drop-after', times: 1 });
    hs.inject({ method: 'PUT', path: /\/send\//, kind: { limit: 400 }, times: 1 });
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
    const roomId = ask.json.room_id as string;

    const mx = await until('Matrix room', async () => hs.roomIdOf(ALIAS));
    expect(hs.roomInfo(mx)).toEqual({ federate: false, joinRule: 'public', alias: ALIAS });
    await alice.joinRoom(ALIAS);
    await until('question relayed', async () => relayed().find((m) => m.db8.kind === 'question'));
    const creates = hs.requests.filter((r) => r.path.endsWith('/createRoom'));
    expect(creates.map((r) => [r.status, r.errcode])).toEqual([
      [200, undefined],
      [400, 'M_ROOM_IN_USE'],
    ]);
    expect(
      hs.requests.some(
        (r) => r.path === `/_matrix/client/v3/join/${encodeURIComponent(ALIAS)}` && r.status === 200,
      ),
    ).toBe(true);

    const qTxn = `/send/m.room.message/db8.${roomId}.question`;
    // The first try landed (the observer saw it) but its answer was lost: wait for the retries.
    const tries = await until('question send retried', async () => {
      const t = sends().filter((r) => r.path.endsWith(qTxn));
      return t.length >= 3 && t;
    });
    expect(tries.map((r) => r.status)).toEqual([200, 429, 200]);
    expect((tries[2]?.at ?? 0) - (tries[1]?.at ?? 0)).toBeGreaterThanOrEqual(390);
    expect(
      hs.timeline(mx).filter((e) => (e.content['db8.swarm'] as Db8 | undefined)?.kind === 'question'),
    ).toHaveLength(1);

    // B joins and answers as a model, A as a person through its node; B's bridge relays nothing.
    expect((await input(B, joinDraft)).json.status).toBe('applied');
    expect(
      (await input(B, answer('Keep both roots one epoch.', 'node-generated', 'model:b'))).json.status,
    ).toBe('applied');
    // A's node key is the asker's: it speaks without joining.
    expect(
      (await input(A, answer('Stage the trust set.', 'node-mediated-human', 'human:op-a'))).json.status,
    ).toBe('applied');
    await until('answers relayed', async () => relayed().filter((m) => m.db8.kind === 'answer').length === 2);
    expect(
      relayed()
        .filter((m) => m.db8.kind === 'answer')
        .map((m) => [m.db8.origin_class, m.db8.speaker, m.body]),
    ).toEqual([
      [
        'node-generated',
        'model:b',
        'answer from model:b (node-generated, via node:b): Keep both roots one epoch.',
      ],
      [
        'node-mediated-human',
        'human:op-a',
        'answer from human:op-a (node-mediated-human, via node:a): Stage the trust set.',
      ],
    ]);
    expect(
      hs.requests.some((r) => r.user === '@bridge-b:db8.test' && r.path.endsWith('/account/whoami')),
    ).toBe(true);
    expect(hs.requests.filter((r) => r.user === '@bridge-b:db8.test' && r.method !== 'GET')).toEqual([]);

    // Observer only: a Matrix user cannot post in the room.
    await expect(alice.sendTextMessage(mx, 'hello from Matrix')).rejects.toMatchObject({
      errcode: 'M_FORBIDDEN',
    });
  });

  it('a restarted node resends nothing; the summary and the close follow; nothing is redacted', async () => {
    const mx = hs.roomIdOf(ALIAS) as string;
    const before = hs.timeline(mx).length;
    await A.server.close();
    const restart = Date.now();
    A = await startNode('a', 'token-a', A.dir);
    // The bridge is back (it joined the aliased room again) and sent nothing it had sent.
    await until('A rejoined', async () =>
      hs.requests.some(
        (r) => r.at >= restart && r.path.startsWith('/_matrix/client/v3/join/') && r.status === 200,
      ),
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(sends(restart)).toEqual([]);
    expect(hs.timeline(mx)).toHaveLength(before);

    expect(
      (await input(B, answer('Announce the new root early.', 'node-generated', 'model:b'))).json.status,
    ).toBe('applied');
    const sum = await input(A, {
      type: 'swarm/question-summary',
      'summary/id': `summary-${RUN}`,
      'author/role': 'asker',
      status: 'final',
      'content/facts': ['Older nodes pin the previous root.'],
      'content/hypotheses': [],
      'content/recommendations': ['Keep both roots for one epoch.'],
      'content/uncertainty': 0.2,
    });
    expect(sum.json.status, JSON.stringify(sum.json)).toBe('applied');
    const close = await input(A, {
      type: 'swarm/question-close',
      'closed-by/role': 'asker',
      resolution: 'accepted-answer',
      'accepted-summary/id': `summary-${RUN}`,
    });
    expect(close.json.status, JSON.stringify(close.json)).toBe('applied');

    await until('close relayed', async () => relayed().find((m) => m.db8.kind === 'close'));
    expect(relayed().map((m) => m.db8.kind)).toEqual([
      'question',
      'answer',
      'answer',
      'answer',
      'summary',
      'close',
    ]);
    expect(relayed().find((m) => m.db8.kind === 'close')?.db8.status).toBe('closed');
    expect(relayed().find((m) => m.db8.kind === 'summary')?.body).toContain(
      'recommendations: Keep both roots for one epoch.',
    );
    // After the restart: exactly the three new items, each sent once.
    expect(sends(restart).map((r) => r.status)).toEqual([200, 200, 200]);
    expect(new Set(sends(restart).map((r) => r.path)).size).toBe(3);
    const ids = relayed().map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(hs.timeline(mx).filter((e) => e.type === 'm.room.redaction')).toEqual([]);
  });
});
