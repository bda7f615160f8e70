import type { SqlDriver } from '@db8/server/kit';
import type { DeliberationConfig, DeliberationState, GivenLesson } from '../../rules/index.ts';
import { MAX_GIVEN_LESSONS } from '../../rules/index.ts';
import { recordLessonUse, searchLessons } from './lessons.ts';

/**
 * Lessons that teach (docs/deliberation.md#lessons-given): before a session starts the server
 * searches the lesson bank over the task's words and puts the best matches in the config's
 * `lessons` (so the log's first entry records which were given, and replay needs no bank); the
 * seats' prompts carry them. When the session ends, each given lesson's use is counted once, a
 * success when the session completed with consensus — which is how tiers rise.
 */

/** Lessons kept for a task: at least this score (upstream's MinConfidence). */
export const GIVEN_MIN_SCORE = 0.7;
// websearch_to_tsquery reads these as operators: never pass them on as words.
const OPERATORS = new Set(['or', 'and', 'not']);

/** The task's distinct words (3+ letters or digits), each an alternative of the search. */
export function taskQuery(topic: string): string {
  const words = [...new Set(topic.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [])].filter(
    (w) => !OPERATORS.has(w),
  );
  return words.slice(0, 32).join(' OR ');
}

type TaskConfig = Pick<DeliberationConfig, 'topic'> & { task?: { kind?: string } | undefined };

/** The most relevant lessons for a task, ranked by full-text search (same domain, score ≥ 0.7). */
export async function lessonsForTask(db: SqlDriver, config: TaskConfig, now: number): Promise<GivenLesson[]> {
  const q = taskQuery(config.topic);
  if (!q) return [];
  const hits = await searchLessons(db, {
    q,
    domain: config.task?.kind === 'code' ? 'code' : 'general',
    minScore: GIVEN_MIN_SCORE,
    limit: MAX_GIVEN_LESSONS,
    now,
  });
  return hits.map(({ lesson: l }) => ({
    id: l.id,
    title: l.title.slice(0, 300),
    solution: l.solution.slice(0, 8000),
    category: l.category,
    tier: l.tier,
    score: l.score,
  }));
}

/**
 * A create-room config with `lessons` set from the bank (left alone while it is no config). The
 * bank is an aid: where it cannot be read (the module's tables not migrated, as in an app built
 * without mounting its modules) the room is still created, given no lessons.
 */
export async function withGivenLessons<T>(db: SqlDriver, config: T): Promise<T> {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) return config;
  const c = config as { topic?: unknown; task?: { kind?: string } };
  if (typeof c.topic !== 'string') return config;
  const lessons = await lessonsForTask(db, { topic: c.topic, task: c.task }, Date.now()).catch(
    () => [] as GivenLesson[],
  );
  return { ...config, lessons };
}

/**
 * Counts the use of the lessons a finished session was given, once per session and lesson
 * (`deliberation_lesson_uses`), however often its end is projected. Returns how many were counted
 * now. A cancelled session applied nothing and counts nothing.
 */
export async function countGivenLessons(
  db: SqlDriver,
  roomId: string,
  state: DeliberationState,
  now: number,
): Promise<number> {
  if (state.status !== 'completed' && state.status !== 'failed') return 0;
  const given = state.config.lessons;
  if (given.length === 0) return 0;
  const success = state.status === 'completed' && state.outcome?.reachedConsensus === true;
  let counted = 0;
  for (const l of given) {
    const fresh = await db.query(
      `INSERT INTO deliberation_lesson_uses (debate_id, lesson_id, success, recorded_at)
       SELECT $1, l.id, $3, 'epoch'::timestamptz + $4::bigint * interval '1 millisecond'
       FROM deliberation_lessons l WHERE l.id = $2::uuid
       ON CONFLICT (debate_id, lesson_id) DO NOTHING RETURNING lesson_id`,
      [roomId, l.id, success, now],
    );
    if (fresh.length === 0) continue;
    await recordLessonUse(db, l.id, { success, now });
    counted++;
  }
  return counted;
}
