import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Db8Client, type Db8Socket, type SseEvent } from '@db8/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOrCreateServerKey } from '../src/keys/index.ts';
import { createPgSchema, PG_URL, pgStoreIn } from './store.helpers.ts';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const here = dirname(fileURLToPath(import.meta.url));
const tsx = join(here, '../../../node_modules/.bin/tsx');

interface Node {
  proc: ChildProcess;
  url: string;
  adminLink: string | null;
  stderr: string[];
}

function startNode(args: string[]): Promise<Node> {
  const proc = spawn(tsx, [join(here, 'ws-cluster-node.ts'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const stderr: string[] = [];
  proc.stderr!.on('data', (d) => stderr.push(String(d)));
  return new Promise((resolve, reject) => {
    let out = '';
    const t = setTimeout(() => reject(new Error(`node did not start: ${stderr.join('')}`)), 90_000);
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
      reject(new Error(`node exited with ${code}: ${stderr.join('')}`));
    });
  });
}

function stopNode(n: Node | undefined): Promise<void> {
  if (!n || n.proc.exitCode !== null) return Promise.resolve();
  return new Promise((r) => {
    n.proc.once('exit', () => r());
    n.proc.kill('SIGTERM');
    setTimeout(() => n.proc.kill('SIGKILL'), 10_000).unref();
  });
}

describe('two server processes on one Postgres and one NATS', () => {
  let schema: string;
  let drop: () => Promise<void>;
  let dataDir: string;
  let a: Node;
  let b: Node;

  beforeAll(async () => {
    ({ schema, drop } = await createPgSchema());
    // Migrate once up front so the two nodes do not race on the schema.
    const s = await pgStoreIn(schema, 1);
    await s.close();
    // One server key for the cluster (tokens from A verify on B; checkpoints sign alike).
    dataDir = mkdtempSync(join(tmpdir(), 'db8-cluster-'));
    loadOrCreateServerKey(dataDir);
    [a, b] = await Promise.all([
      startNode([PG_URL, schema, NATS_URL, dataDir, 'admin']),
      startNode([PG_URL, schema, NATS_URL, dataDir]),
    ]);
  });

  afterAll(async () => {
    await Promise.all([stopNode(a), stopNode(b)]);
    await drop?.();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('a client on node B receives, in order, what was appended through node A', async () => {
    expect(a.adminLink).not.toBeNull();
    expect(b.adminLink).toBeNull();
    const onA = new Db8Client({ baseUrl: a.url });
    const admin = await onA.adminLogin(new URL(a.adminLink!).hash.replace('#token=', ''));
    const room = await onA.withToken(admin.token).createRoom({
      protocol: 'sealed-bid',
      config: {
        item: 'vase',
        bidders: 2,
        reservePrice: 1,
        biddingWindowMs: 600_000,
        revealWindowMs: 60_000,
        rule: 'first-price',
      },
    });
    const agent = await onA.registerAgent({ name: 'cluster-bot' });
    const joined = await onA.withToken(agent.api_key).join(room.room_id, { seat: 'bidder_1' });

    // Subscribe on B (with the token A issued) from the start of the log, and as an observer via SSE.
    const onB = new Db8Client({ baseUrl: b.url, token: joined.session_token });
    const sock: Db8Socket = await onB.socket();
    const sub = await sock.subscribe(room.room_id, { since: -1 });
    expect(sub.viewer).toEqual({ kind: 'seat', seat: 'bidder_1' });
    const ac = new AbortController();
    const sse = new Db8Client({ baseUrl: b.url }).events(room.room_id, { since: -1, signal: ac.signal });

    const actor = onA.withToken(joined.session_token);
    const acks = [];
    for (let i = 1; i <= 12; i++) {
      acks.push(await actor.act(room.room_id, { seat: 'bidder_1', action: { type: 'bid', amount: 10 + i } }));
    }
    const last = acks.at(-1)!.seq;
    await sock.waitFor('entry', (m) => m.seq === last, 20_000);
    const seqs = sock.received.filter((m) => m.type === 'entry').map((m) => m.seq);
    expect(seqs).toEqual(Array.from({ length: last + 1 }, (_, i) => i));
    // bidder_1 sees its own sealed bids, pushed by B
    const lastEntry = sock.received.find((m) => m.type === 'entry' && m.seq === last);
    expect(lastEntry?.type === 'entry' && lastEntry.payload.entry.sealed?.payload).toEqual({
      type: 'bid',
      amount: 22,
    });
    const st = await sock.waitFor('state', (m) => m.seq === last, 20_000);
    expect(JSON.stringify(st.payload.view)).toContain('22');

    // The SSE observer on B saw the same order, without sealed payloads.
    const evs: SseEvent[] = [];
    for (;;) {
      const r = await sse.next();
      if (r.done) break;
      evs.push(r.value);
      if (r.value.event === 'entry' && Number(r.value.id) === last) break;
    }
    ac.abort();
    const sseEntries = evs.filter((e) => e.event === 'entry');
    expect(sseEntries.map((e) => Number(e.id))).toEqual(seqs);
    expect(sseEntries.some((e) => (e.data as { sealed?: unknown }).sealed !== undefined)).toBe(false);

    // Acting through B lands in the same log, seen back on A's store.
    const viaB = await onB.act(room.room_id, { seat: 'bidder_1', action: { type: 'bid', amount: 50 } });
    expect(viaB.seq).toBe(last + 1);
    const page = await onA.entries(room.room_id, { fromSeq: last + 1 });
    expect(page.entries.map((e) => e.seq)).toEqual([last + 1]);
    sock.close();
  });
});
