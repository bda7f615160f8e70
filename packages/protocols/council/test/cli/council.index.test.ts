// The council index under concurrency and loss: runs on one home at once (real processes, the
// scripted provider), then the index deleted, broken and rebuilt from the JSON artifacts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CliRun, spawnDb8 } from '@db8/cli/test/helpers.ts';
import { afterAll, describe, expect, it } from 'vitest';

const home = mkdtempSync(join(tmpdir(), 'db8-council-index-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

// A safety limit against a hang (each test spawns several CLI processes), not a budget.
const LONG = 900_000;
const env = { DB8_HOME: home };
const db8 = (...args: string[]): Promise<CliRun> => spawnDb8(args, home, env);
const runIds: string[] = [];

async function listed(): Promise<string[]> {
  const r = await db8('council', 'list', '--json');
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout)
    .map((x: { run_id: string }) => x.run_id)
    .sort();
}

async function replayAll(): Promise<void> {
  for (const id of runIds) {
    const r = await db8('council', 'replay', id);
    expect(r.stderr, id).toBe('');
    expect(r.status, id).toBe(0);
  }
}

describe('db8 council index', () => {
  it(
    'three runs on one home at once all complete, and list, replay and search see every one',
    async () => {
      const questions = [
        'Adopt trunk-based development?',
        'Retire the legacy billing API?',
        'Rotate on-call weekly?',
      ];
      const results = await Promise.all(
        questions.map((q) => db8('council', q, '--provider', 'scripted', '--json')),
      );
      for (const r of results) {
        expect(r.stderr).toBe('');
        expect(r.status).toBe(0);
        runIds.push(JSON.parse(r.stdout).runId);
      }
      runIds.sort();
      expect(await listed()).toEqual(runIds);
      await replayAll();
      const hit = await db8('council', 'search', 'billing', '--json');
      expect(hit.status).toBe(0);
      expect(JSON.parse(hit.stdout)).toHaveLength(1);
    },
    LONG,
  );

  it(
    'a deleted index is rebuilt from the artifacts when it is next opened',
    async () => {
      expect(runIds).toHaveLength(3);
      rmSync(join(home, 'index'), { recursive: true, force: true });
      expect(await listed()).toEqual(runIds);
      await replayAll();
    },
    LONG,
  );

  it(
    'a broken index is rebuilt too, and `council reindex` rebuilds it on request',
    async () => {
      writeFileSync(join(home, 'index', 'PG_VERSION'), 'not a version');
      expect(await listed()).toEqual(runIds);

      const r = await db8('council', 'reindex');
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(r.stdout).toBe(`reindexed ${runIds.length} run(s) from the artifacts in ${home}\n`);
      await replayAll();
    },
    LONG,
  );
});
