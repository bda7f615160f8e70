// `db8 demo debate` on a running server: found by its local admin credential (or --url), prints the
// room's web link, and exits by itself when the debate closes (no socket left open).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, type CliRun } from '@db8/cli/test/helpers.ts';
import { type RunningServer, startServer } from 'db8/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDemo } from '../../cli/demo.ts';

const dir = mkdtempSync(join(tmpdir(), 'db8-demo-e2e-'));
const dataDir = join(dir, 'data');
let server: RunningServer;

/** Rejects when the CLI has not exited by itself within `ms`. */
function db8(args: string[], env: NodeJS.ProcessEnv, ms: number): Promise<CliRun> {
  const e: NodeJS.ProcessEnv = { ...process.env, DB8_HOME: join(dir, 'home'), ...env };
  delete e.DB8_URL;
  delete e.DATABASE_URL;
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [BIN, ...args], {
      cwd: dir,
      env: e,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => {
      stdout += String(d);
    });
    p.stderr.on('data', (d) => {
      stderr += String(d);
    });
    const t = setTimeout(() => {
      p.kill('SIGKILL');
      reject(new Error(`db8 ${args.join(' ')} did not exit within ${ms} ms\n${stdout}\n${stderr}`));
    }, ms);
    p.on('exit', (status) => {
      clearTimeout(t);
      resolve({ status, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  mkdirSync(dataDir);
  server = await startServer({ port: 0, dataDir, env: false, logLevel: 'silent', print: () => {} });
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const DEMO = ['demo', 'debate', '--rounds', '1', '--pace', '0.3'];

describe('db8 demo debate on a running server', () => {
  it('uses the local server by default, prints the web link, and exits by itself', async () => {
    const r = await db8(DEMO, { DB8_DATA_DIR: dataDir }, 90_000);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`using the db8 server at ${server.url}\n`);
    const link = new RegExp(`watch it in the web app: ${server.url}/rooms/(room_[a-z0-9]+)`).exec(r.stdout);
    expect(link).not.toBeNull();
    expect(r.stdout).toMatch(/^done: .* room room_[a-z0-9]+ is closed$/m);
    const room = await fetch(`${server.url}/v1/rooms/${link![1]}`);
    expect(room.status).toBe(200);
  });

  it('with --url and a saved admin session, exits by itself too', async () => {
    const login = await db8(['login', '--local', join(dataDir, 'local-admin.json')], {}, 20_000);
    expect(login.status).toBe(0);
    // No credential file where the CLI looks by default: the saved session is what it uses.
    const r = await db8([...DEMO, '--url', server.url], { DB8_DATA_DIR: join(dir, 'nowhere') }, 90_000);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`watch it in the web app: ${server.url}/rooms/room_`);
  });

  it('reports live counts as the cast acts (what a terminal shows in its status line)', async () => {
    const counts: { acts: number; refused: number }[] = [];
    const r = await runDemo({ rounds: 1, pace: 0.3, print: () => {}, onCount: (c) => counts.push(c) });
    expect(r.view?.phase).toBe('closed');
    expect(counts.length).toBe(r.acts);
    expect(counts.map((c) => c.acts)).toEqual(counts.map((_, i) => i + 1));
    expect(counts.at(-1)).toEqual({ acts: r.acts, refused: r.failed });
  });
});
