// Start-up: process spawn to the first 200 from /healthz, for `npm start` and the installed entry
// (`node packages/app/bin/db8.js start`) on an existing data directory (median of a few runs), and
// once on a fresh one; beside a bare Fastify server opening PGlite on disk, spawned in the same run.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prebuiltCli } from '../test/cli-bundle.ts';
import { FASTIFY_PGLITE_PEER, freePort } from './peer-server.ts';
import type { BenchRow } from './types.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUNS = 3;

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // npm runs the server in a shell: signal the whole group, as Ctrl-C does.
  const kill = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  kill('SIGINT');
  const timer = setTimeout(() => kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** Milliseconds from spawn to the first 200 from /healthz; the process is stopped afterwards. */
async function timeToHealthz(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd = ROOT,
): Promise<number> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(cmd, args, {
    cwd,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, DATABASE_URL: '', NATS_URL: '', PORT: String(port), ...env },
  });
  let err = '';
  child.stderr?.on('data', (d) => {
    err += String(d);
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${cmd} ${args.join(' ')} exited: ${err}`);
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(1000) })
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) return performance.now() - t0;
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    await stop(child);
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function run(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'db8-bench-start-'));
  try {
    await prebuiltCli(); // "nothing changed": the bundle of these sources exists, as after a first start
    const env = { DB8_DATA_DIR: join(dir, 'data') };
    const bin = [join(ROOT, 'packages/app/bin/db8.js'), 'start'];
    const fresh = await timeToHealthz(process.execPath, bin, env);
    const peerEnv = { PEER_PGDATA: join(dir, 'data', 'pglite') };
    const peerArgs = ['--input-type=module', '-e', FASTIFY_PGLITE_PEER];
    const cli: number[] = [];
    const npm: number[] = [];
    const peer: number[] = [];
    // Interleaved, so load on this shared machine falls on all three alike.
    for (let i = 0; i < RUNS; i++) {
      cli.push(await timeToHealthz(process.execPath, bin, env));
      npm.push(await timeToHealthz('npm', ['start', '--silent'], env));
      peer.push(await timeToHealthz(process.execPath, peerArgs, peerEnv, join(ROOT, 'packages/server')));
    }
    const bare = 'bare Fastify + PGlite on disk, same data dir';
    return [
      {
        area: 'startup',
        name: `npm start to /healthz, existing data dir (median of ${RUNS})`,
        value: median(npm),
        unit: 'ms',
        peer: bare,
        peerValue: median(peer),
        goal: '< 3,000 ms idle',
      },
      {
        area: 'startup',
        name: `db8 start (bin) to /healthz, existing data dir (median of ${RUNS})`,
        value: median(cli),
        unit: 'ms',
        peer: bare,
        peerValue: median(peer),
      },
      {
        area: 'startup',
        name: 'db8 start (bin) to /healthz, fresh data dir (initdb)',
        value: fresh,
        unit: 'ms',
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
