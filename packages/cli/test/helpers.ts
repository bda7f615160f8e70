// Spawning the real CLI from tests, shared so each test file does not carry its own copy.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prebuiltCli } from '../../../test/cli-bundle.ts';

/** The CLI's entry as installed: `node packages/app/bin/db8.js` (its bundle when current, else tsx). */
export const SOURCE_BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'app', 'bin', 'db8.js');
/**
 * The CLI the tests spawn. The fast and e2e suites (DB8_TEST_PREBUILT_CLI, set by their vitest
 * configs) share one esbuild bundle of the same sources (test/cli-bundle.ts); debate.e2e spawns
 * the real entry.
 */
export const BIN = process.env.DB8_TEST_PREBUILT_CLI ? await prebuiltCli() : SOURCE_BIN;

export type CliRun = { status: number | null; stdout: string; stderr: string };

/** Run `db8 <args>` in `cwd` without blocking the test's event loop; resolves when it exits. */
export function spawnDb8(args: string[], cwd: string, env?: NodeJS.ProcessEnv): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += String(d);
    });
    child.stderr.on('data', (d) => {
      stderr += String(d);
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
