// The server-run half of bench/arena.bench.ts: a 100-match tournament played by the server itself
// — one node, then two nodes sharing one PostgreSQL schema (and NATS when one answers) — timed
// from its creation over REST until its log says closed. Each node is a child process
// (bench/arena-node.ts); everything listens on loopback and is stopped, and its schema dropped,
// at the end of each run.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ArenaConfigInput, ArenaView } from '@db8/arena';
import { Db8Client } from '@db8/sdk';
import { postgresDriver } from '../packages/server/src/index.ts';

export const PG_URL = process.env.DB8_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const NODE = fileURLToPath(new URL('./arena-node.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');
/** One tournament's limit: past it the run is reported as failed, and its nodes stopped. */
const RUN_LIMIT_MS = 240_000;

/** Whether something accepts TCP at the URL's host and port (loopback services only). */
export function reachable(url: string, port: number): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = createConnection(Number(u.port || port), u.hostname, () => {
      s.end();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });
}

type Node = { url: string; adminLink: string; stop: () => Promise<void> };

function startNode(spec: Record<string, unknown>): Promise<Node> {
  const child = fork(NODE, [JSON.stringify(spec)], {
    execArgv: ['--import', TSX],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const stop = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null) return done();
      child.removeAllListeners('exit');
      child.once('exit', () => done());
      child.send('stop');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`arena bench node exited (${code})`)));
    child.once('message', (m) => resolve({ ...(m as { url: string; adminLink: string }), stop }));
  });
}

async function adminOf(node: Node): Promise<Db8Client> {
  const token = new URL(node.adminLink).hash.replace('#token=', '');
  const login = await new Db8Client({ baseUrl: node.url }).adminLogin(token);
  return new Db8Client({ baseUrl: node.url, token: login.token });
}

export interface ClusterRun {
  ms: number;
  matches: number;
  /** Match rooms each node opened and played (`arena@<node>`). */
  byNode: Record<string, number>;
}

/**
 * Plays `spec` on `nodes` server processes sharing a fresh schema, from the tournament's creation
 * until its room is closed (polled every 20 ms: well under the figures measured).
 */
export async function clusterRun(spec: ArenaConfigInput, nodes: number, nats: boolean): Promise<ClusterRun> {
  const schema = `db8_bench_arena_${process.pid}_${Date.now().toString(36)}`;
  const admin = postgresDriver(PG_URL, { max: 1 });
  await admin.exec(`CREATE SCHEMA ${schema}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'db8-bench-arena-'));
  const started: Node[] = [];
  try {
    const base = { databaseUrl: PG_URL, pgSchema: schema, dataDir, ...(nats ? { natsUrl: NATS_URL } : {}) };
    // One after the other: the first applies the migrations the second then finds done.
    for (let i = 0; i < nodes; i++) started.push(await startNode({ ...base, node: `n${i + 1}` }));
    const api = await adminOf(started[0]!);
    const t0 = performance.now();
    const t = await api.createRoom({ protocol: 'arena', title: spec.name, config: spec as never });
    // The room's status, not its view: the view folds the standings' bootstrap on every read, work
    // that would load the polled node and not the other.
    for (;;) {
      if ((await api.getRoom(t.room_id)).status === 'closed') break;
      if (performance.now() - t0 > RUN_LIMIT_MS)
        throw new Error(`tournament not closed after ${RUN_LIMIT_MS} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const ms = performance.now() - t0;
    const view = ((await api.state(t.room_id)) as { view: ArenaView }).view;
    const rows = await admin.query<{ created_by: string | null; n: number }>(
      `SELECT created_by, count(*)::int AS n FROM ${schema}.rooms
       WHERE left(id, length($1)) = $1 AND protocol <> 'arena' GROUP BY created_by`,
      [`${t.room_id}-`],
    );
    return {
      ms,
      matches: view.played,
      byNode: Object.fromEntries(rows.map((r) => [r.created_by ?? '?', r.n])),
    };
  } finally {
    for (const n of started) await n.stop();
    await admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
