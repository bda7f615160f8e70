// `db8 login --local`: the CLI logs in as admin with the local admin credential `db8 start` wrote.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningServer, startServer } from 'db8/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, type CliRun } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'db8-login-local-'));
const dataDir = join(dir, 'data');
let server: RunningServer;

function db8(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  const e: NodeJS.ProcessEnv = { ...process.env, DB8_HOME: join(dir, 'home'), DB8_DATA_DIR: dataDir, ...env };
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
      reject(new Error(`db8 ${args.join(' ')} did not exit\n${stdout}\n${stderr}`));
    }, 20_000);
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

describe('db8 login --local', () => {
  it('logs in as admin from the credential file (mode 0600), renews from it, and stops when it is deleted', async () => {
    const file = join(dataDir, 'local-admin.json');
    expect(server.localAdminFile).toBe(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const r = await db8(['login', '--local']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`logged in to ${server.url} as admin (admin)`);
    const sessionFile = join(dir, 'home', 'session.json');
    const saved = JSON.parse(readFileSync(sessionFile, 'utf8'));
    expect(saved.credential).toEqual({ kind: 'local_admin', file });

    // An expired session is renewed from the file.
    saved.session.expiresAt = 0;
    writeFileSync(sessionFile, JSON.stringify(saved));
    const who = await db8(['whoami']);
    expect(who.stdout).toBe(`admin (admin) at ${server.url}\n`);

    // The file named explicitly works the same; deleting it revokes it.
    expect((await db8(['login', '--local', file], { DB8_DATA_DIR: join(dir, 'elsewhere') })).status).toBe(0);
    rmSync(file);
    const gone = await db8(['login', '--local']);
    expect(gone.status).toBe(5);
    expect(gone.stderr).toMatch(/^db8: no local admin credential at .*local-admin\.json/);
    saved.session.expiresAt = 0;
    writeFileSync(sessionFile, JSON.stringify(saved));
    expect((await db8(['whoami'])).status).toBe(5);
  });
});
