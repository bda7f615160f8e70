/**
 * Deliberation storage (seed 004; docs/deliberation.md#storage): the seed's three tables as
 * projections of deliberation rooms, db8's lesson bank, history and statistics. Migration
 * this package's `server/migrations/040_deliberation.sql` (the module's `migrations`, applied when it is mounted). Every call takes a `SqlDriver` (PGlite or Postgres).
 *
 * API for the module (this package's server/index.ts):
 *
 * - `applyEntry(db, entry, state, extra?)` after each committed entry of a deliberation room:
 *   `entry` = {room, seq, ts} of that entry, `state` = the folded state after it. Upserts the
 *   session, the turns made at seq ≥ entry.seq, every code version and, once the session has
 *   completed with consensus, its lessons. Idempotent (deterministic ids; unchanged rows are not
 *   rewritten). `extra`: {initiatedBy, domain, expiryDays, minScore}.
 * - `projectSession(db, {roomId, state, initiatedBy?, completedAt?, domain?}, {fromSeq?})`: the
 *   same from a state alone (all turns unless `fromSeq`).
 * - `rebuildFromLog(db, entries, {seed?, …})`: refolds the room log with core's `refoldLog` and
 *   rebuilds that room's rows in one transaction (an open room needs its `seed`).
 *   `rebuildSession(db, source)`: wipe and re-project from a state. `deleteSession(db, roomId)`.
 * - Lessons: `searchLessons(db, {q, domain?, category?, tier?, minTier?, minScore?,
 *   includeExpired?, limit?, offset?, now})` → ranked hits with snippet and highlights;
 *   `listLessons`, `viewLesson`, `recordLessonUse(db, id, {success, now})` (tier promotion),
 *   `purgeExpiredLessons(db, now)`.
 * - Lessons given to a session: `lessonsForTask(db, config, now)` (full-text search over the task,
 *   for the config's `lessons`), `countGivenLessons(db, roomId, state, now)` once it has ended.
 * - `sessionHistory(db, filter)`, `statistics(db, filter)`.
 * - `deliberationStorageRoutes(app, {db, authorize, now?, prefix?})` registers
 *   GET /v1/deliberation/lessons, GET /v1/deliberation/lessons/:id,
 *   POST /v1/deliberation/lessons/:id/uses, GET /v1/deliberation/history,
 *   GET /v1/deliberation/statistics. Call it from the module's `routes()`; `authorize` decides
 *   who may read and who may record a use.
 */
export { sessionUuid, stableUuid, turnUuid, versionUuid } from './ids.ts';
export {
  type ExtractOptions,
  type Lesson,
  type LessonFilter,
  type LessonHit,
  type LessonQuery,
  listLessons,
  PROMOTION,
  purgeExpiredLessons,
  recordLessonUse,
  searchLessons,
  upsertLessons,
  viewLesson,
} from './lessons.ts';
export {
  categorize,
  extractLessons,
  LESSON_CATEGORIES,
  type LessonCategory,
  type LessonDraft,
  TIERS,
  type Tier,
} from './lessons-extract.ts';
export {
  countGivenLessons,
  GIVEN_MIN_SCORE,
  lessonsForTask,
  taskQuery,
  withGivenLessons,
} from './lessons-given.ts';
export {
  applyEntry,
  deleteSession,
  type ProjectOptions,
  type ProjectResult,
  projectSession,
  RebuildError,
  rebuildFromLog,
  rebuildSession,
} from './projection.ts';
export {
  deliberationStorageRoutes,
  HistoryQuerySchema,
  LessonParamsSchema,
  LessonsQuerySchema,
  LessonUseBodySchema,
  StatisticsQuerySchema,
  type StorageRoutesOptions,
} from './routes.ts';
export { domainOf, lastEventAt, type SessionSource, sessionRow, turnRows, versionRows } from './rows.ts';
export {
  type HistoryItem,
  type SessionFilter,
  type Statistics,
  sessionHistory,
  statistics,
} from './stats.ts';
