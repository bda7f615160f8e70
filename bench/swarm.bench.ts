// Swarm questions (issue 10), each part bounded (< 60 s) and printed beside a peer measured in the
// same run: the ingest gate and one node's ingest (envelopes verified and folded per second) against
// raw Ed25519 verify of the same bytes; ask-on-A → listed-on-B latency against a bare JetStream
// publish → consume on the same nats-server; a 200-participant answer room across three nodes
// (every node converges to one Merkle root) against the same inputs read by a bare consumer.
// Needs the local nats-server (NATS_URL, default nats://127.0.0.1:4222).
import { randomBytes } from 'node:crypto';
import { ed25519, verifyBundleText } from '../packages/core/src/index.ts';
import {
  admitQuestion,
  didKeyFromPublicKey,
  SIGNATURE_DOMAINS,
  signingBytes,
  signObject,
} from '../packages/protocols/question/rules/index.ts';
import {
  NATS_URL,
  type SwarmNode,
  startSwarmNode,
} from '../packages/protocols/question/test/server/swarm-node.ts';
import { JetStreamLog } from '../packages/server/src/bus/jetstream.ts';
import type { BenchRow } from './types.ts';

const AREA = 'swarm';
const PART_MS = 55_000;
const enc = encodeURIComponent;
const bytes = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));

function participant(n: number) {
  const seed = new Uint8Array(32);
  new DataView(seed.buffer).setUint32(0, n + 1);
  seed[31] = 0x5a;
  return { seed, id: `participant:${didKeyFromPublicKey(ed25519.publicKeyFromSeed(seed))}` };
}

function envelope(p: { seed: Uint8Array; id: string }, qid: string, node: string, tags = ['bench']) {
  return signObject(
    {
      'schema/v': 1,
      'question/id': qid,
      'created-at': new Date().toISOString(),
      'sender/node-id': node,
      'sender/participant-id': p.id,
      'sender/federation-id': 'federation:local',
      'ttl-sec': 3600,
      'question/text': `Bench question ${qid}?`,
      'question/tags': tags,
      'delivery/scope': 'global',
      'delivery/response-channel-id': qid,
      'follow-ups/allowed': true,
      'request/exposure-mode': 'public-call-for-help',
      'reward/mode': 'none',
    },
    SIGNATURE_DOMAINS.question,
    p.seed,
  );
}

/** Ops/s of each function in alternating slices (shared-machine load falls on both alike). */
function compare(fns: (() => unknown)[], totalMs = 1500, sliceMs = 30): number[] {
  for (const fn of fns) for (let i = 0; i < 50; i++) fn();
  const ops = fns.map(() => 0);
  const time = fns.map(() => 0);
  const end = performance.now() + totalMs * fns.length;
  while (performance.now() < end) {
    fns.forEach((fn, k) => {
      const start = performance.now();
      let now = start;
      let n = 0;
      while (now - start < sliceMs) {
        fn();
        n += 1;
        now = performance.now();
      }
      ops[k]! += n;
      time[k]! += now - start;
    });
  }
  return ops.map((n, k) => (n * 1000) / time[k]!);
}

/** Polls until `fn` answers, or throws once the part's budget is spent. */
async function until<T>(what: string, deadline: number, fn: () => Promise<T | null | false>, every = 20) {
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`${what}: over the part's ${PART_MS / 1000} s bound`);
    await new Promise((r) => setTimeout(r, every));
  }
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

const newRun = () => {
  const id = randomBytes(4).toString('hex');
  return { prefix: `b${id}.`, stream: `SWARM_B${id}`, settings: {} };
};

async function gateAndIngest(rows: BenchRow[]) {
  const asker = participant(0);
  const env = envelope(asker, 'question-gate', 'node:a');
  const body = signingBytes(SIGNATURE_DOMAINS.question, env);
  const sig = Buffer.from(
    String(((env as Record<string, unknown>).signature as { value: string }).value).slice(
      'base64url:'.length,
    ),
    'base64url',
  );
  const pk = ed25519.publicKeyFromSeed(asker.seed);
  const trust = { issuers: [] as string[] };
  if (!admitQuestion(env, { now: Date.now(), trust, seen: () => false }).ok) throw new Error('gate refused');
  const [gate, raw] = compare([
    () => admitQuestion(env, { now: Date.now(), trust, seen: () => false }),
    () => ed25519.verify(pk, body, sig),
  ]);
  rows.push({
    area: AREA,
    name: 'ingest gate: envelopes admitted/s (schema + JCS + Ed25519)',
    value: gate!,
    unit: 'env/s',
    peer: 'raw Ed25519 verify, same bytes',
    peerValue: raw!,
  });

  // One node folds N envelopes published straight onto its stream (each opens a room).
  const N = 200;
  const run = newRun();
  const A = await startSwarmNode('a', run);
  const log = await JetStreamLog.connect(NATS_URL);
  try {
    const envs = Array.from({ length: N }, (_, i) => envelope(asker, `question-ing${i}`, 'node:a'));
    const before = (await A.call('GET', '/v1/swarm/node')).json.counts.opened as number;
    const t0 = performance.now();
    await Promise.all(
      envs.map((e) =>
        log.publish(`${run.prefix}swarm.question.publish.global`, bytes(e), String(e['question/id'])),
      ),
    );
    await until('ingest', Date.now() + PART_MS, async () => {
      const c = (await A.call('GET', '/v1/swarm/node')).json.counts;
      if (c.refused > 0) throw new Error(`ingest: ${c.refused} refused`);
      return c.opened - before >= N;
    });
    const s = (performance.now() - t0) / 1000;
    rows.push({
      area: AREA,
      name: `one node ingests ${N} envelopes off JetStream (verify + open room)`,
      value: N / s,
      unit: 'env/s',
      peer: 'raw Ed25519 verify, same bytes',
      peerValue: raw!,
    });
  } finally {
    await log.close();
    await A.close();
  }
}

async function latency(
  rows: BenchRow[],
  A: SwarmNode,
  B: SwarmNode,
  run: { prefix: string; stream: string },
) {
  const N = 40;
  const deadline = Date.now() + PART_MS;
  const ms: number[] = [];
  for (let i = 0; i < N && Date.now() < deadline; i++) {
    const tag = `lat${i}`;
    const t0 = performance.now();
    const posted = A.call('POST', '/v1/swarm/questions', {
      ask: { text: `Latency ${i}?`, tags: [tag], scope: 'global', ttl_sec: 3600 },
    });
    await until(
      'listed on B',
      deadline,
      async () => {
        const r = await B.call('GET', `/v1/swarm/questions?tag=${tag}`);
        return r.json.questions?.length === 1;
      },
      2,
    );
    ms.push(performance.now() - t0);
    if ((await posted).status !== 201) throw new Error('ask refused');
  }
  // Peer: the same nats-server, a bare publish → durable consumer round trip (no verify, no fold).
  const log = await JetStreamLog.connect(NATS_URL);
  const peer: number[] = [];
  const sent = new Map<string, number>();
  let resolve: (() => void) | null = null;
  const f = await log.follow(
    run.stream,
    `bench_peer_${randomBytes(3).toString('hex')}`,
    `${run.prefix}swarm.question.peer.x`,
    async (m) => {
      const id = new TextDecoder().decode(m.data);
      const t = sent.get(id);
      if (t !== undefined) peer.push(performance.now() - t);
      resolve?.();
    },
  );
  try {
    for (let i = 0; i < N; i++) {
      const id = `p${i}-${randomBytes(3).toString('hex')}`;
      const got = new Promise<void>((r) => {
        resolve = r;
      });
      sent.set(id, performance.now());
      await log.publish(`${run.prefix}swarm.question.peer.x`, new TextEncoder().encode(id), id);
      await Promise.race([got, new Promise((r) => setTimeout(r, 5000))]);
    }
  } finally {
    await f.stop();
    await log.close();
  }
  for (const p of [50, 99]) {
    rows.push({
      area: AREA,
      name: `ask on A → listed on B, p${p} (${ms.length} asks, 2 ms poll)`,
      value: pct(ms, p),
      unit: 'ms',
      peer: `bare JetStream publish → consume p${p}`,
      peerValue: pct(peer, p),
    });
  }
}

async function bigRoom(rows: BenchRow[], nodes: SwarmNode[], run: { prefix: string; stream: string }) {
  const P = 200;
  const deadline = Date.now() + PART_MS;
  const [A] = nodes as [SwarmNode];
  const asked = await A.call('POST', '/v1/swarm/questions', {
    ask: { text: 'Two hundred answers?', tags: ['room'], scope: 'global', ttl_sec: 3600 },
  });
  const qid = asked.json.question_id as string;
  const path = `/v1/swarm/questions/${enc(qid)}`;
  for (const n of nodes)
    await until(`room on ${n.name}`, deadline, async () => (await n.call('GET', path)).status === 200);
  const node = (n: SwarmNode) => `node:${n.name}`;
  const input = (p: ReturnType<typeof participant>, n: SwarmNode, i: number, type: string, fields: object) =>
    signObject(
      {
        'schema/v': 1,
        type,
        'question/id': qid,
        'input/id': `${type === 'swarm/room-join' ? 'j' : 'a'}-${i}-${qid}`,
        'created-at': new Date().toISOString(),
        'sender/node-id': node(n),
        'sender/participant-id': p.id,
        ...fields,
      },
      SIGNATURE_DOMAINS.room,
      p.seed,
    );
  const t0 = performance.now();
  let next = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= P || Date.now() > deadline) return;
      const p = participant(1000 + i);
      const n = nodes[i % nodes.length]!;
      const join = input(p, n, i, 'swarm/room-join', {
        'responder/models': ['model:bench'],
        'responder/languages': ['en'],
        'responder/tags': ['room'],
      });
      const answer = input(p, n, i, 'swarm/room-message', {
        'message/kind': 'answer',
        'message/text': `answer ${i}`,
        'origin/class': 'node-generated',
        'origin/speaker': 'model:bench',
        'origin/gateway': node(n),
      });
      for (const x of [join, answer]) {
        const r = await n.call('POST', `${path}/inputs`, { input: x });
        if (r.status !== 200) throw new Error(`input refused: ${JSON.stringify(r.json)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: 9 }, worker));
  const seqs = await until('converge', deadline, async () => {
    const r = await Promise.all(nodes.map((n) => n.call('GET', path)));
    const s = r.map((x) => x.json.seq as number);
    const done = r.every((x) => x.json.room.messages.length === P) && s.every((v) => v === s[0]);
    return done ? s : null;
  });
  const converged = (performance.now() - t0) / 1000;
  const roomId = (await A.call('GET', path)).json.room_id as string;
  const roots = new Set<string>();
  for (const n of nodes) {
    const r = await n.call('GET', `/v1/rooms/${roomId}/export?as=public`);
    const rep = verifyBundleText(r.json as string, { pinnedKey: n.server.runtime.serverKey.noteVerifierKey });
    if (!rep.ok) throw new Error(`export on ${n.name} does not verify`);
    roots.add(rep.rootHash as string);
  }
  if (roots.size !== 1) throw new Error(`three nodes, ${roots.size} roots`);

  // Peer: the same 2·P inputs read off the stream by a bare consumer (the transport's floor).
  const log = await JetStreamLog.connect(NATS_URL);
  let seen = 0;
  const tp = performance.now();
  let done: () => void = () => {};
  const all = new Promise<void>((r) => {
    done = r;
  });
  const f = await log.follow(
    run.stream,
    `bench_room_${randomBytes(3).toString('hex')}`,
    `${run.prefix}swarm.question.*.global`,
    async (m) => {
      if (m.subject.includes('.room-')) seen++;
      if (seen >= 2 * P) done();
    },
  );
  await Promise.race([all, new Promise((r) => setTimeout(r, 20_000))]);
  const peerS = (performance.now() - tp) / 1000;
  await f.stop();
  await log.close();
  rows.push({
    area: AREA,
    name: `${P}-participant room on 3 nodes: time to one root (${2 * P} inputs, seq ${seqs[0]})`,
    value: converged,
    unit: 's',
    peer: `bare consumer reads the same ${seen} inputs`,
    peerValue: peerS,
  });
  rows.push({
    area: AREA,
    name: `${P}-participant room: inputs folded on every node/s`,
    value: (2 * P) / converged,
    unit: 'inputs/s',
  });
}

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  await gateAndIngest(rows);
  const r = newRun();
  const nodes: SwarmNode[] = [];
  try {
    for (const name of ['a', 'b', 'c']) nodes.push(await startSwarmNode(name, r));
    await latency(rows, nodes[0]!, nodes[1]!, r);
    await bigRoom(rows, nodes, r);
  } finally {
    for (const n of nodes) await n.close();
  }
  return rows;
}
