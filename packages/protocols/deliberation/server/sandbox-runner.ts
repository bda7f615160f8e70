/**
 * What runs inside the sandbox besides the code under test (docs/deliberation.md#the-results-channel):
 *
 * - `runner.mjs` (RUNNER_SOURCE), the entry: it reads the run's nonce from stdin before any code
 *   under test exists, locks what that code could use to fake or read a result (below), then
 *   imports the suite and writes each verdict, prefixed with the nonce, to fd 3 — a socket only
 *   the server reads. It never uses a regular expression on the nonce (RegExp.input would keep it)
 *   and never puts it in an object or a Buffer.
 * - `suite.mjs` (buildSuite), the room's tests bundled by esbuild with `./solution.mjs` left as an
 *   import: the tests module's exports become locals of the bundle, so the code under test cannot
 *   import the tests object and rewrite it (an import cycle would give it the live object); the
 *   bundle exports a frozen snapshot of the cases, taken in the same synchronous evaluation.
 *
 * Node runs with --frozen-intrinsics (Object, Array, Promise, JSON, Error… and their prototypes
 * cannot be patched); the runner also freezes node:assert (deeply), node:util, Buffer, makes every
 * existing global binding read-only, and replaces the APIs that read the heap (v8 heap snapshots
 * and flags, the inspector) before the code loads.
 */

export const RUNNER_SOURCE = String.raw`
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const fs = require('node:fs');
const { Buffer } = require('node:buffer');
const writeSync = fs.writeSync;
const readSync = fs.readSync;
const fstatSync = fs.fstatSync;
const stringify = JSON.stringify;
const toText = String;
const entries = Object.entries;
const isArray = Array.isArray;

// The nonce: 64 hex digits on stdin, which the server then closes. Checked by character codes.
const nonce = (() => {
  const buf = Buffer.alloc(128);
  let n = 0;
  for (;;) {
    let got = 0;
    try {
      got = readSync(0, buf, n, buf.length - n, null);
    } catch (e) {
      if (e && e.code === 'EAGAIN') continue;
      throw e;
    }
    n += got;
    if (got === 0 || n === buf.length) break;
  }
  let digits = 0;
  while (digits < n && ((buf[digits] >= 48 && buf[digits] <= 57) || (buf[digits] >= 97 && buf[digits] <= 102))) digits++;
  // One flat string (no rope of characters): hiding it in the heap is not the defence, refusing
  // every way to read the heap is, and the tests look for it as a whole.
  const s = digits === 64 ? buf.toString('latin1', 0, 64) : '';
  buf.fill(0);
  if (s.length !== 64) throw new Error('db8 sandbox: no nonce on stdin');
  return s;
})();

// Lock what the code under test could use to read the nonce or change a verdict.
const refused = (what) => () => {
  throw new Error(what + ' is not available in the db8 sandbox');
};
const v8 = require('node:v8');
for (const k of ['getHeapSnapshot', 'writeHeapSnapshot', 'setHeapSnapshotNearHeapLimit', 'setFlagsFromString', 'queryObjects', 'takeCoverage', 'stopCoverage'])
  if (k in v8) v8[k] = refused('v8.' + k);
for (const id of ['node:inspector', 'node:inspector/promises']) {
  let mod = null;
  try { mod = require(id); } catch { continue; }
  for (const k of ['Session', 'open', 'close', 'url', 'waitForDebugger']) if (k in mod) mod[k] = refused('inspector.' + k);
  Object.freeze(mod);
}
for (const k of ['binding', '_linkedBinding', 'dlopen']) process[k] = refused('process.' + k);
const deepFreeze = (o, seen) => {
  if ((typeof o !== 'object' && typeof o !== 'function') || o === null || seen.has(o)) return;
  seen.add(o);
  for (const k of Reflect.ownKeys(o)) {
    const d = Object.getOwnPropertyDescriptor(o, k);
    if (d && 'value' in d) deepFreeze(d.value, seen);
  }
  Object.freeze(o);
};
const seen = new Set();
deepFreeze(require('node:assert'), seen);
deepFreeze(require('node:assert/strict'), seen);
const util = require('node:util');
for (const o of [v8, util, util.types, Buffer, Buffer.prototype]) Object.freeze(o);
for (const k of Reflect.ownKeys(globalThis)) {
  const d = Object.getOwnPropertyDescriptor(globalThis, k);
  if (!d || !d.configurable) continue;
  const value = globalThis[k];
  Object.defineProperty(globalThis, k, { value, writable: false, configurable: false, enumerable: d.enumerable });
}
/x/.exec('x'); // RegExp statics hold nothing of ours

const ascii = (s) => {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    out += c < 127 ? s[i] : '\\u' + (c + 0x10000).toString(16).slice(1);
  }
  return out;
};
// fd 3 as the server gave it: if the code closes it and opens a file in its place, the verdicts
// (and the nonce) must not land in that file — they are lost instead.
const channel = fstatSync(3);
const sameChannel = () => {
  try {
    const now = fstatSync(3);
    return now.dev === channel.dev && now.ino === channel.ino;
  } catch {
    return false;
  }
};
const say = (o) => {
  if (!sameChannel()) return;
  let line = nonce + ' ' + ascii(stringify(o)) + '\n';
  while (line.length > 0) {
    let n = 0;
    try {
      n = writeSync(3, line);
    } catch (e) {
      if (e && e.code === 'EAGAIN') continue;
      return; // the code closed our descriptor: its results are lost, never invented
    }
    line = line.slice(n);
  }
};
const messageOf = (e) => {
  try {
    const m = e !== null && typeof e === 'object' && 'message' in e ? e.message : e;
    return toText(m).slice(0, 1000);
  } catch {
    return 'failed (its error could not be read)';
  }
};

const suite = await import('./suite.mjs');
const solution = suite.solution;
let cases = suite.cases;
if (typeof cases === 'function') cases = await cases(solution);
const list = isArray(cases) ? cases : entries(cases ?? {});
const plan = [];
for (const pair of list) plan.push([toText(pair[0]).slice(0, 200), pair[1]]);
const names = [];
for (const p of plan) names.push(p[0]);
say({ plan: plan.length, names });
for (let i = 0; i < plan.length; i++) {
  const test = plan[i][1]; // called bare: no receiver of ours to reach
  let verdict;
  try {
    await test(solution);
    verdict = { i, ok: true };
  } catch (e) {
    verdict = { i, ok: false, message: messageOf(e) };
  }
  say(verdict);
}
say({ done: true });
`;

/** The wrapper esbuild bundles with the tests (virtual module `db8:tests`). */
const SUITE_ENTRY = `
import * as tests from 'db8:tests';
import * as solutionModule from './solution.mjs';
const declared = tests.default ?? tests.tests;
const snapshot = (c) =>
  Object.freeze((Array.isArray(c) ? c : Object.entries(c ?? {})).map((p) => Object.freeze([p[0], p[1]])));
export const solution = solutionModule;
export const cases = typeof declared === 'function' ? declared : snapshot(declared);
`;

/**
 * `suite.mjs`: the tests (JavaScript or TypeScript) and the wrapper in one module; every other
 * import (./solution.mjs, node:*, packages) stays an import. Throws with esbuild's message.
 */
export async function buildSuite(tests: string, loader: 'js' | 'ts'): Promise<string> {
  const esbuild = await import('esbuild');
  const out = await esbuild.build({
    stdin: { contents: SUITE_ENTRY, loader: 'js', resolveDir: '/', sourcefile: 'suite.mjs' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'silent',
    plugins: [
      {
        name: 'db8-tests',
        setup(b) {
          b.onResolve({ filter: /.*/ }, (a) =>
            a.path === 'db8:tests'
              ? { path: 'tests', namespace: 'db8-tests' }
              : { path: a.path, external: true },
          );
          b.onLoad({ filter: /.*/, namespace: 'db8-tests' }, () => ({ contents: tests, loader }));
        },
      },
    ],
  });
  return out.outputFiles[0]!.text;
}
