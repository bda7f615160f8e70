import { refoldLog, type StoredEntry } from '@db8/core';
import type { SqlDriver } from '@db8/server/kit';
import { type DeliberationState, deliberation, isOver } from '../../rules/index.ts';
import { sessionUuid } from './ids.ts';
import { type ExtractOptions, upsertLessons } from './lessons.ts';
import { type SessionSource, sessionRow, turnRows, versionRows } from './rows.ts';

/**
 * The SQL half of the projection: upserts keyed by deterministic ids, one transaction per call.
 * A row is rewritten only when a projected column changed (`IS DISTINCT FROM`), so re-projecting
 * the same state writes nothing and leaves `updated_at` alone.
 */

// unix ms → timestamptz without float rounding (interval arithmetic is in microseconds).
const ts = (p: string) => `('epoch'::timestamptz + (${p})::bigint * interval '1 millisecond')`;

const SESSION_COLS = [
  'debate_id',
  'topic',
  'status',
  'topology_type',
  'coordination_protocol',
  'config',
  'initiated_by',
  'created_at',
  'total_rounds',
  'final_consensus_score',
  'outcome',
  'metadata',
];
const TURN_COLS = [
  'session_id',
  'round',
  'phase',
  'agent_id',
  'agent_role',
  'provider',
  'model',
  'content',
  'confidence',
  'tool_calls',
  'test_results',
  'reflections',
  'metadata',
  'created_at',
  'response_time_ms',
];
const VERSION_COLS = [
  'session_id',
  'turn_id',
  'language',
  'code',
  'version_number',
  'quality_score',
  'test_pass_rate',
  'metrics',
  'diff_from_previous',
  'created_at',
];

function upsertTail(table: string, cols: readonly string[], extra = ''): string {
  const set = cols.map((c) => `${c} = EXCLUDED.${c}`).join(', ');
  const mine = cols.map((c) => `${table}.${c}`).join(', ');
  const theirs = cols.map((c) => `EXCLUDED.${c}`).join(', ');
  return `ON CONFLICT (id) DO UPDATE SET ${set}${extra} WHERE (${mine}) IS DISTINCT FROM (${theirs})${extra ? ` OR ${table}.completed_at IS NULL AND EXCLUDED.completed_at IS NOT NULL` : ''}`;
}

export interface ProjectOptions extends ExtractOptions {
  /** Only turns with seq ≥ this are written (the entry just committed); default all. */
  fromSeq?: number;
}

export interface ProjectResult {
  sessionId: string;
  turns: number;
  versions: number;
  lessons: number;
}

/** Upserts a deliberation room's session, turns (seq ≥ fromSeq), code versions and lessons. */
export function projectSession(
  db: SqlDriver,
  src: SessionSource,
  opts: ProjectOptions = {},
): Promise<ProjectResult> {
  return db.tx(async (q) => {
    const s = sessionRow(src);
    await q.query(
      `INSERT INTO debate_sessions (id, ${SESSION_COLS.join(', ')}, completed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7::text::jsonb, $8, ${ts('$9')}, $10, $11, $12::text::jsonb, $13::text::jsonb,
               CASE WHEN $14::bigint IS NULL THEN NULL ELSE ${ts('$14')} END)
       ${upsertTail(
         'debate_sessions',
         SESSION_COLS,
         // The first terminal instant wins: a later re-projection never moves completed_at.
         ', completed_at = COALESCE(debate_sessions.completed_at, EXCLUDED.completed_at)',
       )}`,
      [
        s.id,
        s.debate_id,
        s.topic,
        s.status,
        s.topology_type,
        s.coordination_protocol,
        JSON.stringify(s.config),
        s.initiated_by,
        s.created_at,
        s.total_rounds,
        s.final_consensus_score,
        JSON.stringify(s.outcome),
        JSON.stringify(s.metadata),
        s.completed_at,
      ],
    );
    const turns = turnRows(src.roomId, src.state, opts.fromSeq ?? 0);
    if (turns.length > 0)
      await q.query(
        `INSERT INTO debate_turns (id, ${TURN_COLS.join(', ')})
         SELECT r.id, $1::uuid, r.round, r.phase, r.agent_id, r.agent_role, r.provider, r.model, r.content,
                r.confidence, r.tool_calls, r.test_results, r.reflections, r.metadata, ${ts('r.at')},
                r.response_time_ms
         FROM jsonb_to_recordset($2::text::jsonb) AS r(id uuid, round integer, phase text, agent_id text,
           agent_role text, provider text, model text, content text, confidence numeric, tool_calls jsonb,
           test_results jsonb, reflections jsonb, metadata jsonb, at bigint, response_time_ms integer)
         ${upsertTail('debate_turns', TURN_COLS)}`,
        [s.id, JSON.stringify(turns)],
      );
    const versions = versionRows(src.roomId, src.state);
    if (versions.length > 0)
      await q.query(
        `INSERT INTO code_versions (id, ${VERSION_COLS.join(', ')})
         SELECT r.id, $1::uuid, r.turn_id, r.language, r.code, r.version_number, r.quality_score,
                r.test_pass_rate, r.metrics, r.diff_from_previous, ${ts('r.at')}
         FROM jsonb_to_recordset($2::text::jsonb) AS r(id uuid, turn_id uuid, language text, code text,
           version_number integer, quality_score numeric, test_pass_rate numeric, metrics jsonb,
           diff_from_previous text, at bigint)
         ${upsertTail('code_versions', VERSION_COLS)}`,
        [s.id, JSON.stringify(versions)],
      );
    const lessons = await upsertLessons(q, src, opts);
    return { sessionId: s.id, turns: turns.length, versions: versions.length, lessons };
  });
}

/**
 * After each committed entry of a deliberation room: the state after it and the entry itself.
 * Writes the session, the turns that entry made, the code versions and (once consensus is
 * reached) the lessons. The entry that first leaves the state over becomes `completed_at`.
 */
export function applyEntry(
  db: SqlDriver,
  entry: { room: string; seq: number; ts: number },
  state: DeliberationState,
  extra: Omit<SessionSource, 'roomId' | 'state' | 'completedAt'> & ExtractOptions = {},
): Promise<ProjectResult> {
  return projectSession(
    db,
    { ...extra, roomId: entry.room, state, completedAt: isOver(state) ? entry.ts : null },
    { ...extra, fromSeq: entry.seq },
  );
}

/** Removes a room's projection (turns and code versions cascade; lessons stay, unlinked). */
export async function deleteSession(db: SqlDriver, roomId: string): Promise<boolean> {
  const rows = await db.query('DELETE FROM debate_sessions WHERE id = $1 RETURNING id', [
    sessionUuid(roomId),
  ]);
  return rows.length > 0;
}

/** Wipes and re-projects one room in one transaction. */
export function rebuildSession(
  db: SqlDriver,
  src: SessionSource,
  opts: ExtractOptions = {},
): Promise<ProjectResult> {
  return db.tx(async (q) => {
    await deleteSession(q, src.roomId);
    return projectSession(q, src, opts);
  });
}

export class RebuildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RebuildError';
  }
}

/**
 * Refolds a deliberation room's log (core's `refoldLog`: the same fold the server loads rooms
 * with) and rebuilds its projection from the result. `seed` is needed while the room is open (its
 * close entry reveals it otherwise). `completed_at` is the ts of the first entry after which the
 * state is over, exactly as `applyEntry` records it.
 */
export async function rebuildFromLog(
  db: SqlDriver,
  entries: readonly StoredEntry[],
  opts: Omit<SessionSource, 'roomId' | 'state' | 'completedAt'> & ExtractOptions & { seed?: string } = {},
): Promise<ProjectResult> {
  let completedAt: number | null = null;
  const report = refoldLog(entries, new Map([[deliberation.name, deliberation]]), {
    ...(opts.seed ? { seed: opts.seed } : {}),
    check: (entry, state) => {
      if (completedAt === null && isOver(state as DeliberationState)) completedAt = entry.ts;
      return [];
    },
  });
  if (!report.ok || report.state === undefined)
    throw new RebuildError(report.skipped ?? report.problems[0] ?? 'the log did not refold');
  const room = entries[0]?.room;
  if (!room) throw new RebuildError('empty log');
  return rebuildSession(
    db,
    { ...opts, roomId: room, state: report.state as DeliberationState, completedAt },
    opts,
  );
}
