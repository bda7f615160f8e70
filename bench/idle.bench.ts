// Idle footprint of the embedded server: `db8 start` (what `npm start` runs, after its web build)
// on a fresh data directory, its resident set once /healthz answers and it has settled, then per
// idle open room (poker tables created over REST, nobody seated). Beside the least a server on the
// same stack holds: bare Fastify with PGlite on disk, spawned in the same run.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prebuiltCli } from '../test/cli-bundle.ts';
import { FASTIFY_PGLITE_PEER, freePort } from './peer-server.ts';
import type { BenchRow } from './types.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROOMS = 1000;
// RSS moves for a while after start (V8's memory reducer, the store's first statements): sampled
// once a second over the last half of a settling window, and the median taken.
const SETTLE_MS = 10_000;
const TABLE = { small_blind: 5, big_blind: 10, starting_stack: 1000 };

/** Resident set of a process, MB (VmRSS: every thread's, the store's included). */
function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The median of RSS samples over the second half of SETTLE_MS from now, MB. */
async function settledRssMb(pid: number): Promise<number> {
  await sleep(SETTLE_MS / 2);
  const samples: number[] = [];
  for (let t = 0; t < SETTLE_MS / 2; t += 1000) {
    samples.push(rssMb(pid));
    await sleep(1000);
  }
  return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
}

interface Running {
  child: ChildProcess;
  base: string;
  stop(): Promise<void>;
}

async function spawnServer(args: string[], env: NodeJS.ProcessEnv, cwd = ROOT): Promise<Running> {
  const port = await freePort();
  const child = spawn(process.execPath, args, {
    cwd,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, DATABASE_URL: '', NATS_URL: '', PORT: String(port), ...env },
  });
  let err = '';
  child.stderr?.on('data', (d) => {
    err += String(d);
  });
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited: ${err}`);
    const ok = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(1000) })
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return { child, base, stop };
    await sleep(20);
  }
}

/** A POST, waiting out the principal's request budget when the server says so (429). */
async function post(base: string, path: string, body: unknown, token?: string): Promise<unknown> {
  for (;;) {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (res.status === 429) {
      const { error } = (await res.json()) as { error: { details?: { retry_after_ms?: number } } };
      await sleep(error.details?.retry_after_ms ?? 100);
      continue;
    }
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json();
  }
}

export async function run(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'db8-bench-idle-'));
  try {
    await prebuiltCli();
    const data = join(dir, 'data');
    // As `npm start` runs it (package.json).
    const args = ['--max-semi-space-size=64', join(ROOT, 'packages/app/bin/db8.js'), 'start'];
    // The first start creates the database (initdb); the usual one opens an existing data directory.
    const first = await spawnServer(args, { DB8_DATA_DIR: data });
    let fresh: number;
    try {
      fresh = await settledRssMb(first.child.pid!);
    } finally {
      await first.stop();
    }
    const db8 = await spawnServer(args, { DB8_DATA_DIR: data });
    let idle: number;
    let perRoom: number;
    try {
      idle = await settledRssMb(db8.child.pid!);
      const admin = JSON.parse(readFileSync(join(data, 'local-admin.json'), 'utf8')) as { token: string };
      const { token } = (await post(db8.base, '/v1/auth/login', { token: admin.token })) as { token: string };
      // One table first: the code paths a room needs are loaded before the baseline is taken.
      await post(db8.base, '/v1/tables', TABLE, token);
      const before = await settledRssMb(db8.child.pid!);
      for (let i = 0; i < ROOMS; i++) await post(db8.base, '/v1/tables', TABLE, token);
      perRoom = (((await settledRssMb(db8.child.pid!)) - before) * 1024) / ROOMS;
    } finally {
      await db8.stop();
    }
    const peer = await spawnServer(
      ['--input-type=module', '-e', FASTIFY_PGLITE_PEER],
      { PEER_PGDATA: join(dir, 'peer') },
      join(ROOT, 'packages/server'),
    );
    // The peer opens an existing data directory too (its first start made it), as db8 does.
    await peer.stop();
    let peerIdle: number;
    const peerAgain = await spawnServer(
      ['--input-type=module', '-e', FASTIFY_PGLITE_PEER],
      { PEER_PGDATA: join(dir, 'peer') },
      join(ROOT, 'packages/server'),
    );
    try {
      peerIdle = await settledRssMb(peerAgain.child.pid!);
    } finally {
      await peerAgain.stop();
    }
    return [
      {
        area: 'idle',
        name: `db8 start RSS, idle (existing data dir, median over ${SETTLE_MS / 2000}–${SETTLE_MS / 1000} s after /healthz)`,
        value: idle,
        unit: 'MB',
        peer: 'bare Fastify + PGlite on disk',
        peerValue: peerIdle,
        goal: '≤ 300',
      },
      {
        area: 'idle',
        name: 'db8 start RSS, idle after its first start (fresh data dir: initdb)',
        value: fresh,
        unit: 'MB',
      },
      {
        area: 'idle',
        name: `RSS per idle open room (${ROOMS} poker tables, nobody seated)`,
        value: perRoom,
        unit: 'kB',
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
