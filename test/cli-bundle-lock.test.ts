// The prebuilt CLI's build lock waits for a builder as long as it runs (a busy machine may take
// minutes to bundle) and is taken over once the builder's process is gone: no clock decides.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { builderAlive } from '../packages/app/bin/bundle.mjs';

const dir = mkdtempSync(join(tmpdir(), 'db8-bundle-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function lock(name: string, pid?: string): string {
  const path = join(dir, name);
  mkdirSync(path);
  if (pid !== undefined) writeFileSync(join(path, 'pid'), pid);
  return path;
}

describe('the CLI bundle build lock', () => {
  it('is held while its builder runs, however long', () => {
    expect(builderAlive(lock('live', String(process.pid)))).toBe(true);
  });

  it('is free once its builder has exited', () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    expect(builderAlive(lock('dead', String(gone.stdout)))).toBe(false);
  });

  it('without a pid yet it is held, unless it is old (a lock from before pids were written)', () => {
    expect(builderAlive(lock('fresh'))).toBe(true);
    expect(builderAlive(lock('fresh-empty', ''))).toBe(true);
    const old = lock('old');
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(old, hourAgo, hourAgo);
    expect(builderAlive(old)).toBe(false);
  });
});
