import type { SqlDriver } from '@db8/server/kit';
import { sessionUuid } from './ids.ts';
import { extractLessons, type LessonCategory, TIERS, type Tier } from './lessons-extract.ts';
import { lastEventAt, type SessionSource } from './rows.ts';

/**
 * `deliberation_lessons`: db8's lesson bank in SQL. Full-text search is Postgres' own (a weighted
 * tsvector column with a GIN index, `websearch_to_tsquery`, `ts_rank_cd`, `ts_headline`), the same
 * SQL on PGlite and Postgres. Tiers rise with use and success; lessons expire unless they keep
 * succeeding.
 */

export interface ExtractOptions {
  /** Days a new lesson lives (upstream: 90); a successful use extends it. 0 = never expires. */
  expiryDays?: number;
  /** Lessons scoring below this are not kept (upstream's MinConfidence, 0.7). */
  minScore?: number;
}

const DAY = 86_400_000;
// Upstream promotes after 5 applications at a success rate ≥ 0.8; we ask 5 more uses per tier.
export const PROMOTION = { usesPerTier: 5, successRate: 0.8 } as const;
const ms = (p: string) => `('epoch'::timestamptz + (${p})::bigint * interval '1 millisecond')`;
const toMs = (c: string) => `(extract(epoch from ${c}) * 1000)::float8`;

/** Upserts the lessons of a session that reached consensus; use counts and tiers are kept. */
export async function upsertLessons(
  q: SqlDriver,
  src: SessionSource,
  opts: ExtractOptions = {},
): Promise<number> {
  const min = opts.minScore ?? 0.7;
  const drafts = sameLessonOnce(extractLessons(src).filter((l) => l.score >= min));
  if (drafts.length === 0) return 0;
  const created = src.completedAt ?? lastEventAt(src.state);
  const days = opts.expiryDays ?? 90;
  const rows = drafts.map((l) => ({ ...l, created, expires: days > 0 ? created + days * DAY : null }));
  await q.query(
    `INSERT INTO deliberation_lessons (id, session_id, debate_id, source, title, problem, solution, rationale,
       domain, category, score, tags, contributors, created_at, expires_at)
     SELECT r.id, $1::uuid, $2, r.source, r.title, r.problem, r.solution, r.rationale, r.domain, r.category,
            r.score, ARRAY(SELECT jsonb_array_elements_text(r.tags)),
            ARRAY(SELECT jsonb_array_elements_text(r.contributors)), ${ms('r.created')},
            CASE WHEN r.expires IS NULL THEN NULL ELSE ${ms('r.expires')} END
     FROM jsonb_to_recordset($3::text::jsonb) AS r(id uuid, source text, title text, problem text, solution text,
       rationale text, domain text, category text, score numeric, tags jsonb, contributors jsonb,
       created bigint, expires bigint)
     ON CONFLICT (content_key) DO UPDATE SET session_id = EXCLUDED.session_id,
       debate_id = EXCLUDED.debate_id, rationale = EXCLUDED.rationale, category = EXCLUDED.category,
       score = GREATEST(deliberation_lessons.score, EXCLUDED.score), tags = EXCLUDED.tags,
       contributors = ARRAY(SELECT DISTINCT c FROM unnest(deliberation_lessons.contributors || EXCLUDED.contributors) c ORDER BY c)
     WHERE (deliberation_lessons.session_id, deliberation_lessons.debate_id, deliberation_lessons.rationale,
            deliberation_lessons.category, deliberation_lessons.tags)
       IS DISTINCT FROM (EXCLUDED.session_id, EXCLUDED.debate_id, EXCLUDED.rationale, EXCLUDED.category,
            EXCLUDED.tags)
       OR EXCLUDED.score > deliberation_lessons.score
       OR NOT (EXCLUDED.contributors <@ deliberation_lessons.contributors)`,
    [sessionUuid(src.roomId), src.roomId, JSON.stringify(rows)],
  );
  return rows.length;
}

/**
 * One draft per lesson: drafts with the same source, domain, title, problem and solution (three
 * proposers writing the same reflection) are the same lesson — the first, with every contributor
 * and the best score. The table keys lessons the same way (`content_key`), so another session's
 * copy merges into the stored row.
 */
function sameLessonOnce<T extends LessonDraftLike>(drafts: readonly T[]): T[] {
  const byKey = new Map<string, T>();
  for (const d of drafts) {
    const key = JSON.stringify([d.source, d.domain, d.title, d.problem, d.solution]);
    const seen = byKey.get(key);
    byKey.set(
      key,
      seen
        ? {
            ...seen,
            score: Math.max(seen.score, d.score),
            contributors: [...new Set([...seen.contributors, ...d.contributors])].sort(),
          }
        : d,
    );
  }
  return [...byKey.values()];
}
interface LessonDraftLike {
  source: string;
  domain: string;
  title: string;
  problem: string;
  solution: string;
  score: number;
  contributors: string[];
}

export interface Lesson {
  id: string;
  debateId: string;
  source: string;
  title: string;
  problem: string;
  solution: string;
  rationale: string;
  domain: string;
  category: LessonCategory;
  tier: Tier;
  score: number;
  tags: string[];
  contributors: string[];
  uses: { views: number; applied: number; succeeded: number; failed: number; lastAppliedAt: number | null };
  createdAt: number;
  expiresAt: number | null;
}

const LESSON_SELECT = `l.id::text AS id, l.debate_id, l.source, l.title, l.problem, l.solution, l.rationale,
  l.domain, l.category, l.tier, l.score::float8 AS score, l.tags, l.contributors, l.view_count, l.apply_count,
  l.success_count, l.failure_count, ${toMs('l.last_applied_at')} AS last_applied_at,
  ${toMs('l.created_at')} AS created_at, ${toMs('l.expires_at')} AS expires_at`;

type LessonSqlRow = Record<string, unknown>;
function toLesson(r: LessonSqlRow): Lesson {
  return {
    id: r.id as string,
    debateId: r.debate_id as string,
    source: r.source as string,
    title: r.title as string,
    problem: r.problem as string,
    solution: r.solution as string,
    rationale: r.rationale as string,
    domain: r.domain as string,
    category: r.category as LessonCategory,
    tier: TIERS[Number(r.tier)] as Tier,
    score: Number(r.score),
    tags: r.tags as string[],
    contributors: r.contributors as string[],
    uses: {
      views: Number(r.view_count),
      applied: Number(r.apply_count),
      succeeded: Number(r.success_count),
      failed: Number(r.failure_count),
      lastAppliedAt: r.last_applied_at === null ? null : Number(r.last_applied_at),
    },
    createdAt: Number(r.created_at),
    expiresAt: r.expires_at === null ? null : Number(r.expires_at),
  };
}

export interface LessonFilter {
  domain?: string | undefined;
  category?: LessonCategory | undefined;
  tier?: Tier | undefined;
  minTier?: Tier | undefined;
  minScore?: number | undefined;
  includeExpired?: boolean | undefined;
}

export interface LessonQuery extends LessonFilter {
  /** websearch syntax: words, "a phrase", OR, -not. */
  q: string;
  limit?: number;
  offset?: number;
  /** The clock expiry is judged by (unix ms). */
  now: number;
}

export interface LessonHit {
  lesson: Lesson;
  rank: number;
  /** Plain text around the matches. */
  snippet: string;
  /** The same snippet cut into pieces, `hit` on the matched words: render without trusting HTML. */
  highlights: { text: string; hit: boolean }[];
}

// Private-use characters delimit matches, so stored text is never taken for markup.
const OPEN = '\uE000';
const CLOSE = '\uE001';

function filterSql(f: LessonFilter, params: unknown[], now: number): string {
  const where: string[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  if (f.domain !== undefined) where.push(`l.domain = ${p(f.domain)}`);
  if (f.category !== undefined) where.push(`l.category = ${p(f.category)}`);
  if (f.tier !== undefined) where.push(`l.tier = ${p(TIERS.indexOf(f.tier))}::smallint`);
  if (f.minTier !== undefined) where.push(`l.tier >= ${p(TIERS.indexOf(f.minTier))}::smallint`);
  if (f.minScore !== undefined) where.push(`l.score >= ${p(f.minScore)}::numeric`);
  if (!f.includeExpired) where.push(`(l.expires_at IS NULL OR l.expires_at > ${ms(p(now))})`);
  return where.map((w) => ` AND ${w}`).join('');
}

/** Ranked full-text search; highlights are computed only for the page returned. */
export async function searchLessons(db: SqlDriver, query: LessonQuery): Promise<LessonHit[]> {
  const params: unknown[] = [query.q];
  const filters = filterSql(query, params, query.now);
  params.push(query.limit ?? 20, query.offset ?? 0);
  const rows = await db.query<LessonSqlRow & { rank: number; snippet: string }>(
    `SELECT ${LESSON_SELECT}, s.rank,
       ts_headline('english', l.title || '. ' || l.problem || ' ' || l.solution, s.q,
         'StartSel="${OPEN}", StopSel="${CLOSE}", MaxWords=30, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "') AS snippet
     FROM (SELECT l.id, ts_rank_cd(l.search, q) AS rank, q
           FROM deliberation_lessons l, websearch_to_tsquery('english', $1) q
           WHERE l.search @@ q${filters}
           ORDER BY rank DESC, l.score DESC, l.id
           LIMIT $${params.length - 1} OFFSET $${params.length}) s
     JOIN deliberation_lessons l ON l.id = s.id
     ORDER BY s.rank DESC, l.score DESC, l.id`,
    params,
  );
  return rows.map((r) => ({
    lesson: toLesson(r),
    rank: Number(r.rank),
    snippet: r.snippet.replaceAll(OPEN, '').replaceAll(CLOSE, ''),
    highlights: pieces(r.snippet),
  }));
}

function pieces(marked: string): { text: string; hit: boolean }[] {
  const out: { text: string; hit: boolean }[] = [];
  for (const part of marked.split(OPEN)) {
    const [hit, rest] = part.includes(CLOSE) ? part.split(CLOSE, 2) : [null, part];
    if (hit) out.push({ text: hit, hit: true });
    if (rest) out.push({ text: rest, hit: false });
  }
  return out;
}

/** Lessons without a query: filters only, best first (score, then newest). */
export async function listLessons(
  db: SqlDriver,
  f: LessonFilter & { limit?: number; offset?: number; now: number },
): Promise<Lesson[]> {
  const params: unknown[] = [];
  const filters = filterSql(f, params, f.now);
  params.push(f.limit ?? 20, f.offset ?? 0);
  const rows = await db.query<LessonSqlRow>(
    `SELECT ${LESSON_SELECT} FROM deliberation_lessons l WHERE TRUE${filters}
     ORDER BY l.tier DESC, l.score DESC, l.created_at DESC, l.id
     LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  return rows.map(toLesson);
}

/** One lesson, counting the view (upstream's GetLesson). */
export async function viewLesson(db: SqlDriver, id: string): Promise<Lesson | null> {
  const rows = await db.query<LessonSqlRow>(
    `UPDATE deliberation_lessons l SET view_count = view_count + 1 WHERE id = $1::uuid RETURNING ${LESSON_SELECT}`,
    [id],
  );
  return rows[0] ? toLesson(rows[0]) : null;
}

/**
 * Records one application of a lesson and its outcome; promotes the tier when the lesson has at
 * least 5·(tier+1) applications at a success rate ≥ 0.8, and moves a successful lesson's expiry
 * to at least `expiryDays` from now. One UPDATE: concurrent uses never lose a count.
 */
export async function recordLessonUse(
  db: SqlDriver,
  id: string,
  use: { success: boolean; now: number; expiryDays?: number },
): Promise<Lesson | null> {
  const s = use.success ? 1 : 0;
  const rows = await db.query<LessonSqlRow>(
    `UPDATE deliberation_lessons l SET
       apply_count = apply_count + 1,
       success_count = success_count + $2::int,
       failure_count = failure_count + 1 - $2::int,
       last_applied_at = ${ms('$3')},
       updated_at = ${ms('$3')},
       tier = CASE WHEN tier < 3
                    AND apply_count + 1 >= ${PROMOTION.usesPerTier} * (tier + 1)
                    AND (success_count + $2::int)::float8 / (apply_count + 1) >= ${PROMOTION.successRate}
               THEN tier + 1 ELSE tier END,
       expires_at = CASE WHEN $2::int = 1 AND expires_at IS NOT NULL
               THEN GREATEST(expires_at, ${ms('$3')} + $4::int * interval '1 day') ELSE expires_at END
     WHERE id = $1::uuid RETURNING ${LESSON_SELECT}`,
    [id, s, use.now, use.expiryDays ?? 90],
  );
  return rows[0] ? toLesson(rows[0]) : null;
}

/** Deletes lessons expired at `now`; returns how many. */
export async function purgeExpiredLessons(db: SqlDriver, now: number): Promise<number> {
  const rows = await db.query(
    `DELETE FROM deliberation_lessons WHERE expires_at IS NOT NULL AND expires_at <= ${ms('$1')} RETURNING id`,
    [now],
  );
  return rows.length;
}
