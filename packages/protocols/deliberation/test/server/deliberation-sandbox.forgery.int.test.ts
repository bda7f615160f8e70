import { describe, expect, it } from 'vitest';
import { runSandboxed } from '../../server/sandbox.ts';
import { ADD_TESTS, escapeTests, WRONG_ADD } from './deliberation-sandbox.helpers.ts';

// The pass rate is the harness's, not the code's: a wrong `add` (every test fails) that tries to
// forge its result — fake result lines on stdout and on every descriptor, an early exit, a patched
// `assert`, patched globals and prototypes, the tests module reached through an import cycle, the
// run's nonce hunted in every place it could leak — must still measure 0.

const wrong = (extra: string) =>
  runSandboxed({ language: 'javascript', source: WRONG_ADD + extra, tests: ADD_TESTS });

/** What a forger writes: result lines in the old stdout format and in the harness's, with `nonce`. */
const FORGE = `
const forged = (nonce) => {
  const lines = ['@@db8-sandbox@@' + JSON.stringify({ plan: 4 })];
  for (let i = 0; i < 99; i++) lines.push('@@db8-sandbox@@' + JSON.stringify({ name: 't' + i, ok: true }));
  lines.push('@@db8-sandbox@@' + JSON.stringify({ done: true }));
  const n = nonce ?? '0'.repeat(64);
  lines.push(n + ' ' + JSON.stringify({ plan: 4, names: ['a', 'b', 'c', 'd'] }));
  for (let i = 0; i < 4; i++) lines.push(n + ' ' + JSON.stringify({ i, ok: true }));
  lines.push(n + ' ' + JSON.stringify({ done: true }));
  return '\\n' + lines.join('\\n') + '\\n';
};
const forgeEverywhere = async (nonce, fds = 32) => {
  const fs = await import('node:fs');
  for (let fd = 0; fd < fds; fd++) { try { fs.writeSync(fd, forged(nonce)); } catch {} }
};
`;

describe('sandbox results cannot be forged by the code under test', () => {
  it('measures the wrong code at 0 as it is', async () => {
    const r = await wrong('');
    expect(r).toMatchObject({ status: 'ok', total: 4, passed: 0, passRate: 0 });
  });

  it('ignores fake result lines on stdout and on every descriptor, at import and in a test', async () => {
    const r = await wrong(`${FORGE}
      await forgeEverywhere();
      process.stdout.write(forged());
      const real = add;
      export { real };`);
    expect(r.passRate).toBe(0);
    expect(r.passed).toBe(0);
  });

  it('an early exit after faking results measures 0', async () => {
    const r = await wrong(`${FORGE}
      process.stdout.write(forged());
      await forgeEverywhere();
      process.exit(0);`);
    expect(r).toMatchObject({ passed: 0, passRate: 0 });
    expect(r.status).toBe('crashed');
  });

  it('cannot patch node:assert (default, strict, named) into passing', async () => {
    const r = await wrong(`
      import assert from 'node:assert/strict';
      import * as A from 'node:assert';
      import { syncBuiltinESMExports } from 'node:module';
      const yes = () => {};
      for (const o of [assert, A.default, A.default.strict]) {
        for (const k of ['equal', 'strictEqual', 'deepEqual', 'deepStrictEqual', 'ok', 'throws']) {
          try { o[k] = yes; } catch {}
        }
      }
      try { Object.defineProperty(A.default.AssertionError.prototype, 'name', { get() { throw 0; } }); } catch {}
      try { syncBuiltinESMExports(); } catch {}`);
    expect(r).toMatchObject({ total: 4, passed: 0, passRate: 0 });
  });

  it('cannot patch the globals and prototypes the harness and the tests use', async () => {
    const r = await wrong(`
      const tries = [
        () => { Promise.prototype.then = function (ok) { return ok(); }; },
        () => { Object.defineProperty(Promise.prototype, 'then', { value: (ok) => ok() }); },
        () => { globalThis.Promise = class { static resolve() { return { then: (ok) => ok() }; } }; },
        () => { globalThis.JSON = { stringify: () => '{"ok":true}', parse: JSON.parse }; },
        () => { Object.entries = () => []; },
        () => { globalThis.Object = { ...Object, entries: () => [] }; },
        () => { Array.prototype[Symbol.iterator] = function* () {}; },
        () => { Error.prototype.toString = () => 'ok'; },
        () => { Function.prototype.call = function () {}; },
        () => { globalThis.Error = function () {}; },
      ];
      for (const t of tries) { try { t(); } catch {} }`);
    expect(r).toMatchObject({ total: 4, passed: 0, passRate: 0 });
  });

  it('cannot replace the globals the tests judge with', async () => {
    // Tests that judge through globals, and a wrong `add` that knows them (it can read them).
    const tests = `import assert from 'node:assert/strict';
      import { add } from './solution.mjs';
      export default {
        'by JSON': () => assert.equal(JSON.stringify({ v: add(1, 2) }), '{"v":3}'),
        'by Math': () => assert.equal(Math.abs(add(-2, -3)), 5),
        'by Number': () => assert.ok(Number.isInteger(add(0.25, 0.75))),
      };`;
    const r = await runSandboxed({
      language: 'javascript',
      source: `${WRONG_ADD}
        const tries = [
          () => { globalThis.JSON = { stringify: () => '{"v":3}', parse: JSON.parse }; },
          () => { globalThis.Math = { ...Math, abs: () => 5 }; },
          () => { globalThis.Number = { isInteger: () => true }; },
          () => { Object.defineProperty(globalThis, 'Math', { value: { abs: () => 5 } }); },
        ];
        for (const t of tries) { try { t(); } catch {} }`,
      tests,
    });
    expect(r).toMatchObject({ total: 3, passed: 0, passRate: 0 });
  });

  it('cannot reach the tests through an import cycle and replace them', async () => {
    for (const name of ['./tests.mjs', './suite.mjs', './runner.mjs']) {
      const r = await wrong(`
        import * as T from ${JSON.stringify(name)};
        const pass = () => {};
        const rewrite = () => {
          for (const o of [T.default, T.tests, T.cases]) {
            if (!o || typeof o !== 'object') continue;
            for (const k of Object.keys(o)) {
              try { o[k] = Array.isArray(o[k]) ? [o[k][0], pass] : pass; } catch {}
              try { if (Array.isArray(o[k])) o[k][1] = pass; } catch {}
            }
          }
        };
        try { rewrite(); } catch {}
        queueMicrotask(rewrite);
        setTimeout(rewrite, 0);`);
      expect(r.passed, name).toBe(0);
      expect(r.passRate, name).toBe(0);
    }
  });

  it('cannot find the run nonce (heap, V8 flags, RegExp statics, stdin, /proc, inspector) to sign forged lines', async () => {
    const r = await wrong(`${FORGE}
      const found = new Set();
      const hex = /[0-9a-f]{64}/g;
      const scan = (s) => { for (const m of String(s).match(hex) ?? []) found.add(m); };
      try { scan(RegExp.input); scan(RegExp.lastMatch); scan(RegExp['$_']); } catch {}
      try { scan(JSON.stringify(process.env)); scan(process.argv.join(' ')); scan(process.execArgv.join(' ')); } catch {}
      const fs = await import('node:fs');
      for (const p of [0, '/proc/self/fd/0', '/proc/self/fd/3', '/proc/self/environ', '/proc/self/cmdline']) {
        try { scan(fs.readFileSync(p, 'latin1')); } catch {}
      }
      try {
        const v8 = await import('node:v8');
        const chunks = [];
        for await (const c of v8.getHeapSnapshot()) chunks.push(c);
        scan(Buffer.concat(chunks).toString('latin1'));
      } catch {}
      try {
        const v8 = await import('node:v8');
        const file = v8.writeHeapSnapshot();
        scan(fs.readFileSync(file, 'latin1'));
      } catch {}
      try { (await import('node:v8')).setFlagsFromString('--allow-natives-syntax'); } catch {}
      try {
        const inspector = await import('node:inspector');
        const s = new inspector.Session();
        s.connect();
      } catch {}
      // On stdout, stderr and the results descriptor (junk on node's own internal descriptors
      // would crash it, a 0 anyway: the test above covers every descriptor).
      for (const n of found) await forgeEverywhere(n, 4);
      await forgeEverywhere(undefined, 4);`);
    expect(r).toMatchObject({ total: 4, passed: 0, passRate: 0 });
  });

  it('cannot take fd 3 over to read the verdicts (and the nonce) the harness writes', async () => {
    const r = await runSandboxed({
      language: 'javascript',
      source: `import fs from 'node:fs';
        const grab = new URL('./grab', import.meta.url);
        fs.closeSync(3);
        fs.openSync(grab, 'w+'); // the lowest free descriptor: 3
        export const add = (a, b) => {
          try { process.stdout.write('GRAB[' + fs.readFileSync(grab, 'latin1') + ']'); } catch {}
          return a - b;
        };`,
      tests: ADD_TESTS,
    });
    expect(r).toMatchObject({ passed: 0, passRate: 0 });
    expect(r.output).toContain('GRAB[');
    expect(r.output).not.toMatch(/[0-9a-f]{64} \{/);
  });

  it('cannot start the inspector with SIGUSR1 and connect to it', async () => {
    const r = await runSandboxed({
      language: 'javascript',
      source: 'export {};',
      tests: escapeTests(`
        process.kill(process.pid, 'SIGUSR1');
        await new Promise((ok) => setTimeout(ok, 300));
        const net = await import('node:net');
        await new Promise((ok, fail) => {
          const s = net.connect(9229, '127.0.0.1');
          s.on('connect', () => { s.destroy(); ok(); });
          s.on('error', fail);
        });`),
    });
    expect(r).toMatchObject({ status: 'ok', total: 1, passed: 0, passRate: 0 });
  });
});
