import { migrate } from '@db8/server/src/store/migrate.ts';
import { pgliteMemoryStore, type TestStore } from '@db8/server/test/store.helpers.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LegalAction } from '../../rules/index.ts';
import { deliberationModule } from '../../server/index.ts';
import {
  countGivenLessons,
  lessonsForTask,
  searchLessons,
  taskQuery,
  viewLesson,
} from '../../server/storage/index.ts';
import { turnPrompt } from '../../server/turn.ts';
import { newRoom, playProjected, T0, withDeliberationTables } from './deliberation-storage.helpers.ts';

// Lessons that teach: the same lesson from two sessions is stored once; a new task is given the
// bank's best matches by full-text search (same domain, score ≥ 0.7); a session given lessons
// carries them in its first log entry and in its seats' prompts, and its end counts each lesson's
// use once. Lessons stored twice before the merge migration become one row.

const DAY = 86_400_000;
const TASK = { topic: 'Rate limiting the public API with a token bucket', task: { kind: 'code' } };
const lessonCount = async (db: TestStore['store']['db']) =>
  Number((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM deliberation_lessons'))[0]!.n);

describe('lessons given to a session (pglite)', () => {
  let t: TestStore;
  beforeAll(async () => {
    t = await withDeliberationTables(pgliteMemoryStore)();
  });
  afterAll(() => t.cleanup());

  it('stores the same lesson once, however many sessions teach it', async () => {
    const db = t.store.db;
    await playProjected(newRoom('delib_lg_1'), db);
    const first = await lessonCount(db);
    expect(first).toBeGreaterThan(1);
    // A second session on the same task, played the same way, teaches the same lessons.
    await playProjected(newRoom('delib_lg_2'), db);
    expect(await lessonCount(db)).toBe(first);
    const consensus = await db.query<{ debate_id: string }>(
      `SELECT debate_id FROM deliberation_lessons WHERE source = 'consensus'`,
    );
    expect(consensus).toEqual([{ debate_id: 'delib_lg_2' }]);
  });

  it("gives a task the bank's best matches: full-text, same domain, score ≥ 0.7", async () => {
    const db = t.store.db;
    const now = T0 + DAY;
    const given = await lessonsForTask(db, TASK, now);
    expect(given.length).toBeGreaterThan(0);
    expect(given.length).toBeLessThanOrEqual(5);
    const hits = await searchLessons(db, { q: taskQuery(TASK.topic), domain: 'code', minScore: 0.7, now });
    expect(given.map((g) => g.id)).toEqual(hits.slice(0, 5).map((h) => h.lesson.id));
    expect(given.every((g) => g.score >= 0.7)).toBe(true);
    // Another domain, or a task sharing no words, is given nothing.
    expect(await lessonsForTask(db, { ...TASK, task: { kind: 'text' } }, now)).toEqual([]);
    expect(await lessonsForTask(db, { topic: 'Moor a zeppelin', task: { kind: 'code' } }, now)).toEqual([]);
    // The task's words are alternatives; websearch's operator words are never passed on.
    expect(taskQuery('Cache or queue? AND not, cache!')).toBe('cache OR queue');
  });

  it('a session given lessons logs them, shows them to its seats, and counts each use once', async () => {
    const db = t.store.db;
    const given = await lessonsForTask(db, TASK, T0 + DAY);
    const room = newRoom('delib_lg_3', { lessons: given });
    // The log's first entry holds the config, with the lessons given: replay needs no bank.
    expect(JSON.stringify(room.entries[0])).toContain(given[0]!.id);
    const seat = room.view({ kind: 'admin' }).waitingFor[0]!;
    const legal = room.legal(seat).actions as LegalAction[];
    const prompt = turnPrompt({ seat, view: room.view({ kind: 'seat', seat }), legal }, legal[0]!).prompt;
    expect(prompt).toContain('Lessons from earlier sessions');
    expect(prompt).toContain(given[0]!.title);
    await playProjected(room, db);
    expect(room.state.status).toBe('completed');
    const before = (await viewLesson(db, given[0]!.id))!.uses.applied;
    expect(await countGivenLessons(db, 'delib_lg_3', room.state, T0 + 2 * DAY)).toBe(given.length);
    // Projected again (a rebuild, a retried hook): not counted twice.
    expect(await countGivenLessons(db, 'delib_lg_3', room.state, T0 + 2 * DAY)).toBe(0);
    const after = (await viewLesson(db, given[0]!.id))!;
    expect(after.uses.applied).toBe(before + 1);
    expect(after.uses.succeeded).toBe(room.state.outcome!.reachedConsensus ? 1 : 0);
  });
});

describe('the merge migration (pglite)', () => {
  it('folds lessons stored twice into the oldest row', async () => {
    const t = await pgliteMemoryStore();
    try {
      const db = t.store.db;
      const all = deliberationModule.migrations ?? [];
      await migrate(
        db,
        all.filter((m) => !m.name.includes('lessons_once')),
      );
      const row = (id: string, created: string, contributors: string, applied: number) =>
        db.query(
          `INSERT INTO deliberation_lessons (id, debate_id, source, title, problem, solution, domain, category,
             score, contributors, apply_count, success_count, created_at)
           VALUES ($1::uuid, 'd', 'consensus', 'Consensus on caching', 'caching', 'use an LRU', 'general',
             'pattern', 0.8, $2::text[], $3, $3, $4::timestamptz)`,
          [id, contributors, applied, created],
        );
      await row('00000000-0000-4000-8000-000000000001', '2026-01-02', '{ben}', 2);
      await row('00000000-0000-4000-8000-000000000002', '2026-01-01', '{ana}', 3);
      await migrate(db, all);
      const rows = await db.query(
        'SELECT id::text, contributors, apply_count, success_count FROM deliberation_lessons',
      );
      expect(rows).toEqual([
        {
          id: '00000000-0000-4000-8000-000000000002',
          contributors: ['ana', 'ben'],
          apply_count: 5,
          success_count: 5,
        },
      ]);
    } finally {
      await t.cleanup();
    }
  });
});
