import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measurementOf, runSandboxed, sandboxSupport } from '../src/protocols/deliberation/sandbox.ts';

// The deliberation sandbox: a code version's tests run in a child process; each escape attempt —
// a write outside its temp dir, a socket to a server on this machine, an infinite loop, a memory
// bomb (heap and Buffer), a child process — is refused or killed, and the pass rate says so.

const ADD_TESTS = `
import assert from 'node:assert/strict';
import { add } from './solution.mjs';
export default {
  'adds small numbers': () => assert.equal(add(1, 2), 3),
  'adds negatives': () => assert.equal(add(-2, -3), -5),
  'adds zero': () => assert.equal(add(0, 7), 7),
  'is commutative': () => assert.equal(add(4, 9), add(9, 4)),
};
`;

/** Tests that run `body` inside the sandbox and pass only if the escape worked. */
function escapeTests(body: string): string {
  return `export default { 'escape': async () => { ${body} } };`;
}

let server: Server;
let port = 0;
let hits = 0;
const outside = join(tmpdir(), `db8-sandbox-escape-${process.pid}.txt`);

beforeAll(async () => {
  server = createServer((_req, res) => {
    hits++;
    res.end('reached');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  await rm(outside, { force: true });
});

describe('deliberation sandbox', () => {
  it('has a network namespace and prlimit on this machine (CI runs as root)', () => {
    const s = sandboxSupport();
    expect(s.netns).not.toBeNull();
    expect(s.prlimit).toBe(true);
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
    expect(good.isolation).toEqual({ network: 'netns', fs: 'permission', prlimit: true });
    const m = measurementOf(good, 'export const add = (a, b) => a + b;');
    expect(m).toMatchObject({ qualityScore: null, testPassRate: 1 });
    expect(m.metrics).toMatchObject({ tests: 4, passed: 4, netIsolated: 1, timedOut: 0 });
  });

  it('refuses a write outside the temp dir (and allows one inside)', async () => {
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
    expect(r.failures.every((f) => /access|denied|permission/i.test(f.message))).toBe(true);
    expect(existsSync(outside)).toBe(false);
  });

  it('refuses a socket to a server on this machine', async () => {
    const before = hits;
    const r = await runSandboxed({
      language: 'javascript',
      source: 'export {};',
      tests: escapeTests(`
        const net = await import('node:net');
        await new Promise((ok, fail) => {
          const s = net.connect(${port}, '127.0.0.1');
          s.on('connect', () => { s.destroy(); ok(); });
          s.on('error', fail);
        });`),
    });
    expect(r).toMatchObject({ status: 'ok', passed: 0, failed: 1, passRate: 0 });
    expect(r.failures[0]!.message).toMatch(/ENETUNREACH|ECONNREFUSED|EACCES/);
    expect(hits).toBe(before);
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
    expect(r).toMatchObject({ status: 'unsupported', passRate: null });
  });
});
