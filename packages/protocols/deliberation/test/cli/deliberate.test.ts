// `db8 deliberate`: a seed-004 deliberation locally (like db8 council) with scripted seats, a code
// task measured in the sandbox, and the same run on a server with --url (its /v1/debates routes).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnDb8 } from '@db8/cli/test/helpers.ts';
import { type RunningServer, startServer } from 'db8/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliberationReportSchema } from '../../cli/report.ts';

const dir = mkdtempSync(join(tmpdir(), 'db8-deliberate-'));
const dataDir = join(dir, 'data');
const env = { DB8_HOME: join(dir, 'home'), DB8_DATA_DIR: dataDir, DB8_URL: '', DATABASE_URL: '' };
let server: RunningServer;

beforeAll(async () => {
  mkdirSync(dataDir);
  server = await startServer({ port: 0, dataDir, env: false, logLevel: 'silent', print: () => {} });
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('db8 deliberate', () => {
  it('--help names the options', async () => {
    const r = await spawnDb8(['deliberate', '--help'], dir, env);
    expect(r.status, r.stderr).toBe(0);
    for (const flag of ['--topology', '--coordination', '--provider', '--url', '--tests', '--gate'])
      expect(r.stdout).toContain(flag);
  });

  it('runs six scripted seats locally: star, adaptive, to completion', async () => {
    const r = await spawnDb8(
      [
        'deliberate',
        'Design a rate limiter',
        '--topology',
        'star',
        '--coordination',
        'adaptive',
        '--provider',
        'scripted',
        '--json',
      ],
      dir,
      env,
    );
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(DeliberationReportSchema.parse(out)).toEqual(out); // the documented shape, nothing else
    expect(out).toMatchObject({
      url: null,
      status: 'completed',
      scripted: true,
      topology: 'star',
      coordination: 'adaptive',
      failedTurns: 0,
    });
    expect(out.outcome.winner).toBeTruthy();
    expect(out.phases.filter((p: { round: number }) => p.round === 1)).toHaveLength(8);
    const text = await spawnDb8(['deliberate', 'Design a rate limiter', '--topology', 'star'], dir, env);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/completed \(SCRIPTED\): star, adaptive/);
    // Not a terminal: the live status comes as plain lines (a phase each), never rewritten in place.
    expect(text.stderr).toMatch(/^\[round 1\] proposal · \d+ turns$/m);
    expect(text.stderr).not.toContain('\r');
  }, 60_000);

  it('measures a code task in the sandbox, approves a gate, and refuses bad flags', async () => {
    const tests = join(dir, 'tests.mjs');
    writeFileSync(
      tests,
      "import assert from 'node:assert/strict';\nimport { answer } from './solution.mjs';\nexport default { one: () => assert.equal(answer, 1) };\n",
    );
    const r = await spawnDb8(
      [
        'deliberate',
        'Export answer',
        '--code',
        'typescript',
        '--tests',
        tests,
        '--gate',
        'proposal',
        '--rounds',
        '1',
        '--json',
      ],
      dir,
      env,
    );
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.status).toBe('completed');
    expect(out.codeVersions.length).toBeGreaterThanOrEqual(6);
    for (const v of out.codeVersions) expect(v.testPassRate).toBe(1);
    const bad = await spawnDb8(['deliberate', 'x', '--seats', '2'], dir, env);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('--seats');
    const rejected = await spawnDb8(['deliberate', 'x', '--gate', 'proposal', '--reject-gates'], dir, env);
    expect(rejected.status).toBe(6);
    expect(rejected.stdout).toContain('cancelled by operator');
  }, 120_000);

  it('runs on a server with --url', async () => {
    const login = await spawnDb8(['login', '--local', '--url', server.url], dir, env);
    expect(login.status, login.stderr).toBe(0);
    const r = await spawnDb8(
      [
        'deliberate',
        'Pick a queue',
        '--topology',
        'chain',
        '--coordination',
        'dpde',
        '--rounds',
        '1',
        '--url',
        server.url,
        '--json',
      ],
      dir,
      env,
    );
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    // The same shape as a local run (strict schema: no key more or less, camelCase both ways).
    expect(DeliberationReportSchema.parse(out)).toEqual(out);
    expect(out).toMatchObject({
      url: server.url,
      status: 'completed',
      scripted: true,
      topology: 'chain',
      coordination: 'dpde',
      style: 'dpde',
      failedTurns: 0,
    });
    expect(out.rounds).toHaveLength(1);
    expect(out.turns).toBeGreaterThan(0);
    expect(out.entries).toBeGreaterThan(out.turns);
    expect(out.winner).toBe(out.outcome.winner);
    const room = await fetch(`${server.url}/v1/rooms/${out.id}`).then((x) => x.json());
    expect(room.protocol).toBe('deliberation');
  }, 90_000);
});
