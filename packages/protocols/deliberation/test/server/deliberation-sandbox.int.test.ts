import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { measurementOf, runSandboxed, sandboxSupport } from '../../server/sandbox.ts';
import { NOBODY } from '../../server/sandbox-host.ts';
import { ADD_TESTS } from './deliberation-sandbox.helpers.ts';

// The deliberation sandbox: a code version's tests run in a bubblewrap sandbox; it measures pass
// rates, refuses what it cannot run, and each limit — a write outside its work dir, a child
// process, an infinite loop, a memory bomb (heap and Buffer) — holds. The review's escapes are in
// deliberation-sandbox.escapes.int.test.ts, the forged results in deliberation-sandbox.forgery.int.test.ts.

const outside = join(tmpdir(), `db8-escape-${process.pid}.txt`);

afterAll(async () => {
  await rm(outside, { force: true });
});

describe('deliberation sandbox', () => {
  it('has a real sandbox on this machine: bubblewrap, as nobody when the server is root', () => {
    const s = sandboxSupport();
    expect(s).toMatchObject({ ok: true });
    if (s.ok && process.getuid?.() === 0) expect(s.host.runAs).toBe('nobody');
  });

  it('holds under an ordinary user too (an unprivileged user namespace)', async () => {
    if (process.getuid?.() !== 0) {
      // This suite already runs as an ordinary user: every other case here is that case.
      expect(sandboxSupport()).toMatchObject({ ok: true, host: { runAs: 'server' } });
      return;
    }
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('./fixtures/sandbox-as-user.ts', import.meta.url))],
      {
        uid: NOBODY,
        gid: NOBODY,
        cwd: fileURLToPath(new URL('../../../../..', import.meta.url)),
        env: { PATH: process.env.PATH ?? '', HOME: tmpdir() },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const [code] = await once(child, 'close');
    expect(code, err).toBe(0);
    expect(JSON.parse(out)).toEqual({ uid: NOBODY, runAs: 'server', status: 'ok', passRate: 1 });
  }, 60_000);

  it('refuses, never runs unsandboxed, where bubblewrap cannot start', async () => {
    const opts = { bwrapPath: '/nonexistent/bwrap' };
    expect(sandboxSupport(opts)).toMatchObject({ ok: false });
    const r = await runSandboxed({ language: 'javascript', source: 'export {};', tests: ADD_TESTS }, opts);
    expect(r).toMatchObject({
      status: 'unsupported',
      code: 'SANDBOX_UNAVAILABLE',
      passRate: null,
      isolation: null,
    });
  });

  it('measures the pass rate of a version: failing, then passing', async () => {
    const bad = await runSandboxed({
      language: 'javascript',
      source: 'export const add = (a, b) => Math.abs(a) + b;',
      tests: ADD_TESTS,
    });
    expect(bad).toMatchObject({ status: 'ok', passed: 3, failed: 1, total: 4, passRate: 0.75 });
    expect(bad.failures[0]!.name).toBe('adds negatives');
    expect(bad.output).toContain('FAIL adds negatives');
    const good = await runSandboxed({
      language: 'typescript',
      source: 'export const add = (a: number, b: number): number => a + b;',
      tests: ADD_TESTS,
    });
    expect(good).toMatchObject({ status: 'ok', passed: 4, failed: 0, passRate: 1 });
    expect(good.isolation).toMatchObject({ sandbox: 'bubblewrap', nodePermissions: true });
    const m = measurementOf(good, 'export const add = (a, b) => a + b;', null);
    expect(m).toMatchObject({ qualityScore: null, testPassRate: 1 });
    expect(m.metrics).toMatchObject({ tests: 4, passed: 4, netIsolated: 1, timedOut: 0 });
  });

  it('refuses a write outside its work dir (and allows one inside)', async () => {
    const r = await runSandboxed({
      language: 'javascript',
      source: 'export {};',
      tests: `import fs from 'node:fs';
        export default {
          inside: () => fs.writeFileSync(new URL('./scratch.txt', import.meta.url), 'ok'),
          outside: () => fs.writeFileSync(${JSON.stringify(outside)}, 'escaped'),
          read: () => fs.readFileSync('/etc/hostname'),
        };`,
    });
    expect(r.status).toBe('ok');
    expect(r.passed).toBe(1);
    expect(r.failures.map((f) => f.name).sort()).toEqual(['outside', 'read']);
    expect(r.failures.every((f) => /access|denied|permission|EROFS|ENOENT/i.test(f.message))).toBe(true);
    expect(existsSync(outside)).toBe(false);
  });

  it('refuses a child process and a worker', async () => {
    const r = await runSandboxed({
      language: 'javascript',
      source: 'export {};',
      tests: `export default {
        child: async () => (await import('node:child_process')).execSync('id'),
        worker: async () => new (await import('node:worker_threads')).Worker('1', { eval: true }),
      };`,
    });
    expect(r).toMatchObject({ status: 'ok', passed: 0, failed: 2 });
    for (const f of r.failures) expect(f.message).toMatch(/access|denied|permission/i);
  });

  it('kills an infinite loop at the time limit', async () => {
    const t0 = Date.now();
    const r = await runSandboxed(
      {
        language: 'javascript',
        source: 'export const spin = () => { for (;;) {} };',
        tests: `import { spin } from './solution.mjs';
          export default { first: () => {}, spins: () => spin(), never: () => {} };`,
      },
      { limits: { timeoutMs: 1500 } },
    );
    expect(r.status).toBe('timeout');
    expect(r.signal).toBe('SIGKILL');
    expect(r).toMatchObject({ passed: 1, total: 3, failed: 2 });
    expect(r.passRate).toBeCloseTo(1 / 3);
    expect(Date.now() - t0).toBeLessThan(8000);
  });

  it('kills a heap bomb and refuses a Buffer bomb', async () => {
    const heap = await runSandboxed(
      {
        language: 'javascript',
        source:
          'export const bomb = () => { const a = []; for (;;) a.push({ x: new Array(1000).fill(1) }); };',
        tests: `import { bomb } from './solution.mjs'; export default { bomb: () => bomb() };`,
      },
      { limits: { memoryMb: 64, timeoutMs: 20_000 } },
    );
    expect(heap.status).toBe('memory');
    expect(heap.passRate).toBe(0);
    const buf = await runSandboxed(
      {
        language: 'javascript',
        source: `export const bomb = () => { const a = []; for (let i = 0; i < 64; i++) a.push(Buffer.alloc(64 * 1024 * 1024, 1)); return a.length; };`,
        tests: `import { bomb } from './solution.mjs'; export default { bomb: () => bomb() };`,
      },
      { limits: { memoryMb: 64, timeoutMs: 20_000 } },
    );
    expect(['memory', 'ok']).toContain(buf.status);
    expect(buf.passed).toBe(0);
    expect(buf.peakRssKb).toBeLessThan((64 + 192) * 1024 + 64 * 1024);
  }, 60_000);

  it('says what it cannot run instead of guessing', async () => {
    const r = await runSandboxed({ language: 'cobol', source: 'x', tests: 'y' });
    expect(r).toMatchObject({ status: 'unsupported', code: 'UNSUPPORTED_LANGUAGE', passRate: null });
  });

  it('measures code that does not compile at 0 instead of skipping it', async () => {
    const r = await runSandboxed({
      language: 'typescript',
      source: 'export const add = (a: number =>',
      tests: ADD_TESTS,
    });
    expect(r).toMatchObject({ status: 'crashed', passRate: 0, total: 0 });
    expect(r.output).toMatch(/does not compile/);
  });
});
