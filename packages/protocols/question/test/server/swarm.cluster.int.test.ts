// Issue 23, "Cluster mode": a db8 cluster is one swarm node. Two server processes on one Postgres
// schema (one server key, one node id) with the swarm on; questions are asked and answered through
// both, or published straight onto the stream. Exactly one process folds (the node's lease in the store); every room gets its answer once;
// both processes read the same rooms. Before the lease both processes shared the node's durable
// consumer, split its messages and folded them in parallel: rooms lost their answers.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { canonicalize, ed25519 } from '@db8/core';
import { JetStreamLog } from '@db8/server/src/bus/jetstream.ts';
import { loadOrCreateServerKey } from '@db8/server/src/keys/index.ts';
import { createPgSchema, PG_URL, pgStoreIn } from '@db8/server/test/store.helpers.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATIENCE_MS } from '../../../../../test/patience.ts';
import { didKeyFromPublicKey, SIGNATURE_DOMAINS, signObject } from '../../rules/index.ts';
import { eventIdOf } from '../../server/replica.ts';
import { Subjects } from '../../server/subjects.ts';
import { NATS_URL, swarmEnv } from './swarm-node.ts';

const here = dirname(fileURLToPath(import.meta.url));
const tsx = join(here, '../../../../../node_modules/.bin/tsx');
const RUN = randomBytes(5).toString('hex');
const run = { prefix: `t${RUN}.`, stream: `SWARM_T${RUN}`, settings: {} };
const QUESTIONS = 30;
const NODE = 'node:cluster';

interface Proc {
  proc: ChildProcess;
  url: string;
  adminLink: string | null;
  stderr: string[];
}

function startProc(args: string[]): Promise<Proc> {
  const proc = spawn(tsx, [join(here, 'swarm-cluster-node.ts'), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SWARM_ENV: JSON.stringify(swarmEnv('cluster', run)) },
  });
  const stderr: string[] = [];
  proc.stderr!.on('data', (d) => stderr.push(String(d)));
  return new Promise((resolve, reject) => {
    let out = '';
    const t = setTimeout(() => reject(new Error(`process did not start: ${stderr.join('')}`)), PATIENCE_MS);
    proc.stdout!.on('data', (d) => {
      out += String(d);
      const m = /READY (\S+) (\S+)/.exec(out);
      if (m) {
        clearTimeout(t);
        resolve({ proc, url: m[1]!, adminLink: m[2] === '-' ? null : m[2]!, stderr });
      }
    });
    proc.on('exit', (code) => {
      clearTimeout(t);
      reject(new Error(`process exited with ${code}: ${stderr.join('')}`));
    });
  });
}

function stopProc(p: Proc | undefined): Promise<void> {
  if (!p || p.proc.exitCode !== null) return Promise.resolve();
  return new Promise((r) => {
    p.proc.once('exit', () => r());
    p.proc.kill('SIGTERM');
    setTimeout(() => p.proc.kill('SIGKILL'), 10_000).unref();
  });
}

function participant(n: number) {
  const seed = new Uint8Array(32).fill(n);
  return { seed, id: `participant:${didKeyFromPublicKey(ed25519.publicKeyFromSeed(seed))}` };
}
const P = participant(41);

let n = 0;
function signed(qid: string, type: string, fields: Record<string, unknown>) {
  n += 1;
  const body = {
    'schema/v': 1,
    type,
    'question/id': qid,
    'input/id': `in-${RUN}-${n}`,
    'created-at': new Date().toISOString(),
    'sender/node-id': NODE,
    'sender/participant-id': P.id,
    'sender/federation-id': 'federation:local',
    ...fields,
  };
  return signObject(body, SIGNATURE_DOMAINS.room, P.seed);
}

let schema: { schema: string; drop(): Promise<void> } | undefined;
let dataDir: string | undefined;
let a: Proc;
let b: Proc;
let admin = '';

beforeAll(async () => {
  schema = await createPgSchema();
  await (await pgStoreIn(schema.schema, 1)).close(); // migrate once: the processes do not race on it
  dataDir = mkdtempSync(join(tmpdir(), 'db8-swarm-cluster-'));
  loadOrCreateServerKey(dataDir); // one key for the cluster: tokens from one verify on the other
  const args = [PG_URL, schema.schema, NATS_URL, dataDir];
  // Started together: both try the lease at once, and one of them must lose it.
  [a, b] = await Promise.all([startProc([...args, 'admin']), startProc(args)]);
  const token = new URL(a.adminLink as string).hash.replace('#token=', '');
  const login = await fetch(`${a.url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  admin = ((await login.json()) as { token: string }).token;
});

afterAll(async () => {
  await Promise.all([stopProc(a), stopProc(b)]);
  await schema?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  const log = await JetStreamLog.connect(NATS_URL);
  await log.deleteStream(run.stream).catch(() => {});
  await log.close();
});

async function call(
  p: Proc,
  method: string,
  path: string,
  body?: unknown,
  // biome-ignore lint/suspicious/noExplicitAny: test reads of JSON answers, checked field by field.
): Promise<{ status: number; json: any }> {
  const r = await fetch(`${p.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${admin}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: r.status, json: await r.json() };
}
const enc = encodeURIComponent;

describe('a cluster of two processes on one store is one swarm node', () => {
  it('one process folds; every question asked through either gets its answer once; reads agree', async () => {
    const folding = [
      (await call(a, 'GET', '/v1/swarm/node')).json,
      (await call(b, 'GET', '/v1/swarm/node')).json,
    ];
    expect(folding.map((f) => f.node_id)).toEqual([NODE, NODE]);
    expect(folding.filter((f) => f.folding === true)).toHaveLength(1);

    const qids: string[] = [];
    for (let i = 0; i < QUESTIONS; i++) {
      const qid = `question:${RUN}:${i}`;
      qids.push(qid);
      const ask = await call(i % 2 === 0 ? a : b, 'POST', '/v1/swarm/questions', {
        ask: {
          text: `Cluster question ${i}?`,
          tags: ['cluster'],
          scope: 'federation-local',
          ttl_sec: 600,
          question_id: qid,
        },
      });
      expect(ask.status, JSON.stringify(ask.json)).toBe(201);
      expect(ask.json.status).toBe('opened');
    }
    // Each room's join and answer straight onto the stream, back to back: only folding in stream
    // order (one folder) applies every answer after its join.
    const log = await JetStreamLog.connect(NATS_URL);
    const subjects = new Subjects(run.prefix);
    try {
      for (const [i, qid] of qids.entries()) {
        const join = signed(qid, 'swarm/room-join', {
          'responder/models': ['model:test'],
          'responder/languages': ['en'],
          'responder/tags': ['cluster'],
        });
        const answer = signed(qid, 'swarm/room-message', {
          'message/kind': 'answer',
          'message/text': `answer ${i}`,
          'origin/class': 'node-generated',
          'origin/speaker': 'model:test',
          'origin/gateway': NODE,
        });
        for (const input of [join, answer]) {
          const bytes = new TextEncoder().encode(canonicalize(input as never));
          await log.publish(subjects.room(qid, 'federation-local'), bytes, eventIdOf(input as never));
        }
      }
    } finally {
      await log.close();
    }
    // Both processes count every fold (the folder announces each to the other).
    for (const p of [a, b]) {
      await expect
        .poll(async () => {
          const c = (await call(p, 'GET', '/v1/swarm/node')).json.counts;
          return c.applied + c.refused;
        })
        .toBe(2 * QUESTIONS);
    }
    // A write through the process that does not fold is folded once, and its outcome comes back.
    const other = folding[0].folding ? b : a;
    const late = await call(other, 'POST', `/v1/swarm/questions/${enc(qids[0]!)}/inputs`, {
      input: signed(qids[0]!, 'swarm/room-message', {
        'message/kind': 'follow-up',
        'message/text': 'a follow-up through the other process',
        'origin/class': 'node-generated',
        'origin/speaker': 'model:test',
        'origin/gateway': NODE,
      }),
    });
    expect(late.json.status, JSON.stringify(late.json)).toBe('applied');

    for (const [i, qid] of qids.entries()) {
      const [ra, rb] = [
        (await call(a, 'GET', `/v1/swarm/questions/${enc(qid)}`)).json,
        (await call(b, 'GET', `/v1/swarm/questions/${enc(qid)}`)).json,
      ];
      const answers = ra.room.messages.filter((m: { kind: string }) => m.kind === 'answer');
      expect(answers.map((m: { text: string }) => m.text)).toEqual([`answer ${i}`]);
      expect(rb.seq).toBe(ra.seq);
      expect(rb.room).toEqual(ra.room);
    }
    // Each stream message was folded once: no process refused another's writes as replays.
    for (const p of [a, b]) {
      const node = (await call(p, 'GET', '/v1/swarm/node')).json;
      expect(node.counts).toMatchObject({ opened: QUESTIONS, applied: 2 * QUESTIONS + 1, refused: 0 });
    }
  });
});
