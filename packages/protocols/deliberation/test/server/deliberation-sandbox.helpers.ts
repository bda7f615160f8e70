import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { NOBODY } from '../../server/sandbox-host.ts';

// Shared by the sandbox suites: the tests of an `add` task and tests that pass only when an escape
// worked.

export const ADD_TESTS = `
import assert from 'node:assert/strict';
import { add } from './solution.mjs';
export default {
  'adds small numbers': () => assert.equal(add(1, 2), 3),
  'adds negatives': () => assert.equal(add(-2, -3), -5),
  'adds zero': () => assert.equal(add(0, 7), 7),
  'is commutative': () => assert.equal(add(4, 9), add(9, 4)),
};
`;

/** A wrong `add`: every one of ADD_TESTS fails against it. */
export const WRONG_ADD = 'export const add = (a, b) => a - b;\n';

/** Tests that run `body` inside the sandbox and pass only if the escape worked (else it throws). */
export function escapeTests(body: string): string {
  return `export default { 'escape': async () => { ${body} } };`;
}

/**
 * A process of this machine's that the sandboxed code must not reach (a stand-in for the server),
 * under the uid the sandbox runs as (nobody when this is root), so only the sandbox's namespaces
 * keep them apart — not the uid.
 */
export async function sacrificialProcess(env: Record<string, string> = {}): Promise<ChildProcess> {
  const child = spawn('sleep', ['300'], {
    stdio: 'ignore',
    env: { ...env, PATH: process.env.PATH ?? '' },
    ...(process.getuid?.() === 0 ? { uid: NOBODY, gid: NOBODY } : {}),
  });
  await once(child, 'spawn');
  return child;
}

/** Still running: not exited, not a zombie waiting to be reaped (its state in /proc/<pid>/stat). */
export function alive(child: ChildProcess): boolean {
  if (child.exitCode !== null || child.signalCode !== null) return false;
  try {
    const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) [ZX]/.test(stat);
  } catch {
    return false;
  }
}
