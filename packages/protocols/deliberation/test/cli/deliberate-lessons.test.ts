// Local runs learn (docs/deliberation.md#lessons-given): `db8 deliberate` without --url keeps a
// lesson bank in db8's home (the server's tables and search, in an embedded PGlite); a first run
// that reaches consensus stores its lessons, a second run on the same task is given them in its
// first log entry and counts their use, the same lessons are stored once, and --no-lessons opts
// out. `db8 lessons` lists the bank.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnDb8 } from '@db8/cli/test/helpers.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { DeliberationReportSchema } from '../../cli/report.ts';

const dir = mkdtempSync(join(tmpdir(), 'db8-deliberate-lessons-'));
const env = { DB8_HOME: join(dir, 'home'), DB8_URL: '', DATABASE_URL: '' };
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const TASK = 'Design a token bucket rate limiter for the public API';

async function deliberate(extra: string[] = []) {
  const r = await spawnDb8(['deliberate', TASK, '--rounds', '1', '--json', ...extra], dir, env);
  expect(r.status, r.stderr).toBe(0);
  return DeliberationReportSchema.parse(JSON.parse(r.stdout));
}

interface LocalLesson {
  id: string;
  debateId: string;
  title: string;
  uses: { applied: number; succeeded: number };
}

async function lessons(): Promise<LocalLesson[]> {
  const r = await spawnDb8(['lessons', '--json', '--limit', '200'], dir, env);
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout).lessons;
}

describe('db8 deliberate: the local lesson bank', () => {
  it("a second local run is given the first run's lessons in its first log entry", async () => {
    expect(await lessons()).toEqual([]);
    const first = await deliberate();
    expect(first.status).toBe('completed');
    expect(first.reachedConsensus).toBe(true);
    expect(first.lessonsGiven).toEqual([]);
    const learned = await lessons();
    expect(learned.length).toBeGreaterThan(0);
    for (const l of learned) expect(l.debateId).toBe(first.id);

    const second = await deliberate();
    expect(second.id).not.toBe(first.id);
    // Read from the genesis entry's config: the lessons were in the log from its first entry.
    expect(second.lessonsGiven.length).toBeGreaterThan(0);
    const ids = new Set(learned.map((l) => l.id));
    for (const g of second.lessonsGiven) expect(ids.has(g.id)).toBe(true);
    const after = await lessons();
    // The same lessons again are stored once (merged, now linked to the latest session)...
    expect(after.map((l) => l.id).sort()).toEqual([...ids].sort());
    // ...and each lesson given was used once, successfully (the run reached consensus).
    for (const l of after)
      expect(l.uses, l.title).toEqual(
        second.lessonsGiven.some((g) => g.id === l.id)
          ? expect.objectContaining({ applied: 1, succeeded: 1 })
          : expect.objectContaining({ applied: 0 }),
      );

    const text = await spawnDb8(['lessons'], dir, env);
    expect(text.stdout).toContain(after[0]!.title);

    // --no-lessons: nothing given, nothing counted.
    const opted = await deliberate(['--no-lessons']);
    expect(opted.lessonsGiven).toEqual([]);
    expect((await lessons()).map((l) => l.uses.applied)).toEqual(after.map((l) => l.uses.applied));
  }, 180_000);

  it('--help says it', async () => {
    const r = await spawnDb8(['deliberate', '--help'], dir, env);
    expect(r.stdout).toContain('--no-lessons');
    const l = await spawnDb8(['lessons', '--help'], dir, env);
    expect(l.stdout).toContain('--min-score');
  });
});
