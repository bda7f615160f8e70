#!/usr/bin/env node
// `npm test`: lint, then the typecheck and the fast vitest suite side by side (tsc is one thread
// and mostly waits on the disk at first; vitest's workers fill the rest). The typecheck's output is
// printed after vitest's so the two never interleave. Fails if either fails; extra arguments go to
// vitest (e.g. `npm test -- packages/core`).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => join(root, 'node_modules', '.bin', name);

function run(cmd, args, { capture = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let out = '';
    if (capture) {
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
    }
    child.on('error', (e) => resolve({ code: 1, out: `${cmd}: ${e.message}\n` }));
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

const lint = await run(bin('biome'), ['check', '.']);
if (lint.code !== 0) process.exit(lint.code);
const started = Date.now();
const [types, tests] = await Promise.all([
  run(bin('tsc'), ['--noEmit', '-p', 'tsconfig.json'], { capture: true }),
  run(bin('vitest'), ['run', ...process.argv.slice(2)]),
]);
process.stdout.write(types.out);
console.log(
  `typecheck: ${types.code === 0 ? 'ok' : 'FAILED'}; tests: ${tests.code === 0 ? 'ok' : 'FAILED'} (${((Date.now() - started) / 1000).toFixed(0)} s)`,
);
process.exit(types.code || tests.code);
