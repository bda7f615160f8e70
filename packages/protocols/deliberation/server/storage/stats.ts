import type { SqlDriver } from '@db8/server/kit';

/**
 * History and statistics over the projection, in SQL (upstream's GetDebateHistory and
 * GetStatistics, widened to the issue's list). Every figure is computed by the database.
 */

const ms = (p: string) => `('epoch'::timestamptz + (${p})::bigint * interval '1 millisecond')`;
const toMs = (c: string) => `(extract(epoch from ${c}) * 1000)::float8`;

export interface SessionFilter {
  status?: string | undefined;
  topology?: string | undefined;
  coordination?: string | undefined;
  domain?: string | undefined;
  /** true: completed with consensus; false: anything else that ended. */
  success?: boolean | undefined;
  minConsensus?: number | undefined;
  /** created_at in [from, to) (unix ms). */
  from?: number | undefined;
  to?: number | undefined;
}

function where(f: SessionFilter, params: unknown[]): string {
  const w: string[] = ['TRUE'];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  if (f.status !== undefined) w.push(`s.status = ${p(f.status)}`);
  if (f.topology !== undefined) w.push(`s.topology_type = ${p(f.topology)}`);
  if (f.coordination !== undefined) w.push(`s.coordination_protocol = ${p(f.coordination)}`);
  if (f.domain !== undefined) w.push(`s.metadata->>'domain' = ${p(f.domain)}`);
  if (f.success === true) w.push(`s.status = 'completed' AND (s.outcome->>'reachedConsensus')::boolean`);
  if (f.success === false)
    w.push(
      `s.status IN ('completed', 'failed', 'cancelled') AND NOT (s.status = 'completed' AND coalesce((s.outcome->>'reachedConsensus')::boolean, false))`,
    );
  if (f.minConsensus !== undefined) w.push(`s.final_consensus_score >= ${p(f.minConsensus)}::numeric`);
  if (f.from !== undefined) w.push(`s.created_at >= ${ms(p(f.from))}`);
  if (f.to !== undefined) w.push(`s.created_at < ${ms(p(f.to))}`);
  return w.join(' AND ');
}

export interface HistoryItem {
  id: string;
  roomId: string;
  topic: string;
  status: string;
  topology: string | null;
  coordination: string | null;
  domain: string | null;
  initiatedBy: string | null;
  totalRounds: number;
  finalConsensus: number | null;
  reachedConsensus: boolean;
  winner: string | null;
  turns: number;
  codeVersions: number;
  createdAt: number;
  completedAt: number | null;
}

/** Sessions newest first; `before` pages by created_at (ms) then id. */
export async function sessionHistory(
  db: SqlDriver,
  f: SessionFilter & { limit?: number; before?: { createdAt: number; id: string } | undefined },
): Promise<HistoryItem[]> {
  const params: unknown[] = [];
  let cond = where(f, params);
  if (f.before) {
    params.push(f.before.createdAt, f.before.id);
    cond += ` AND (s.created_at, s.id) < (${ms(`$${params.length - 1}`)}, $${params.length}::uuid)`;
  }
  params.push(f.limit ?? 50);
  const rows = await db.query<Record<string, unknown>>(
    `SELECT s.id::text AS id, s.debate_id, s.topic, s.status, s.topology_type, s.coordination_protocol,
       s.metadata->>'domain' AS domain, s.initiated_by, s.total_rounds,
       s.final_consensus_score::float8 AS final_consensus_score,
       coalesce((s.outcome->>'reachedConsensus')::boolean, false) AS reached, s.outcome->>'winner' AS winner,
       (SELECT count(*)::int FROM debate_turns t WHERE t.session_id = s.id) AS turns,
       (SELECT count(*)::int FROM code_versions v WHERE v.session_id = s.id) AS versions,
       ${toMs('s.created_at')} AS created_at, ${toMs('s.completed_at')} AS completed_at
     FROM debate_sessions s WHERE ${cond}
     ORDER BY s.created_at DESC, s.id DESC LIMIT $${params.length}`,
    params,
  );
  return rows.map((r) => ({
    id: r.id as string,
    roomId: r.debate_id as string,
    topic: r.topic as string,
    status: r.status as string,
    topology: (r.topology_type as string | null) ?? null,
    coordination: (r.coordination_protocol as string | null) ?? null,
    domain: (r.domain as string | null) ?? null,
    initiatedBy: (r.initiated_by as string | null) ?? null,
    totalRounds: Number(r.total_rounds ?? 0),
    finalConsensus: r.final_consensus_score === null ? null : Number(r.final_consensus_score),
    reachedConsensus: r.reached === true,
    winner: (r.winner as string | null) ?? null,
    turns: Number(r.turns),
    codeVersions: Number(r.versions),
    createdAt: Number(r.created_at),
    completedAt: r.completed_at === null ? null : Number(r.completed_at),
  }));
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const count = (rows: Record<string, unknown>[], key: string) =>
  Object.fromEntries(rows.map((r) => [String(r[key]), Number(r.n)]));

export interface Statistics {
  sessions: { total: number; byStatus: Record<string, number>; byDomain: Record<string, number> };
  /** Completed with consensus ÷ every session that ended (null when none ended). */
  successRate: number | null;
  turns: { total: number; failed: number };
  codeVersions: number;
  lessons: {
    total: number;
    byDomain: Record<string, number>;
    byCategory: Record<string, number>;
    byTier: Record<string, number>;
    applied: number;
    succeeded: number;
    /** Successful applications ÷ applications (null before any). */
    successRate: number | null;
  };
  consensusByRound: { round: number; sessions: number; meanConsensus: number; reached: number }[];
  roles: { role: string; turns: number; failed: number; sessions: number; meanConfidence: number | null }[];
  providers: {
    provider: string;
    turns: number;
    failed: number;
    meanLatencyMs: number | null;
    p50LatencyMs: number | null;
    p95LatencyMs: number | null;
    inputTokens: number;
    outputTokens: number;
    costUsd: number;
  }[];
}

const TIER_NAME = `(ARRAY['bronze', 'silver', 'gold', 'platinum'])[tier + 1]`;

/** Every figure the statistics route serves, for the sessions the filter selects. */
export async function statistics(db: SqlDriver, f: SessionFilter = {}): Promise<Statistics> {
  const params: unknown[] = [];
  const cond = where(f, params);
  const sel = `WITH sel AS (SELECT s.* FROM debate_sessions s WHERE ${cond})`;
  const q = <T = Record<string, unknown>>(sql: string) =>
    db.query<T & Record<string, unknown>>(`${sel} ${sql}`, params);
  const ended = `status IN ('completed', 'failed', 'cancelled')`;
  const [status, domain, success, turns, versions, rounds, roles, providers] = await Promise.all([
    q(`SELECT status, count(*)::int AS n FROM sel GROUP BY status`),
    q(`SELECT coalesce(metadata->>'domain', 'unknown') AS domain, count(*)::int AS n FROM sel GROUP BY 1`),
    q(`SELECT count(*) FILTER (WHERE ${ended})::int AS ended,
              count(*) FILTER (WHERE status = 'completed' AND coalesce((outcome->>'reachedConsensus')::boolean, false))::int AS ok
       FROM sel`),
    q(`SELECT count(*)::int AS n, count(*) FILTER (WHERE t.metadata->>'type' = 'failed')::int AS failed
       FROM debate_turns t JOIN sel ON sel.id = t.session_id`),
    q(`SELECT count(*)::int AS n FROM code_versions v JOIN sel ON sel.id = v.session_id`),
    q(`SELECT (r->>'round')::int AS round, count(*)::int AS sessions, avg((r->>'confidence')::float8) AS mean,
              count(*) FILTER (WHERE (r->>'reachedConsensus')::boolean)::int AS reached
       FROM sel, jsonb_array_elements(coalesce(sel.metadata->'rounds', '[]'::jsonb)) r
       GROUP BY 1 ORDER BY 1`),
    q(`SELECT coalesce(t.agent_role, 'unknown') AS role, count(*)::int AS turns,
              count(*) FILTER (WHERE t.metadata->>'type' = 'failed')::int AS failed,
              count(DISTINCT t.session_id)::int AS sessions, avg(t.confidence)::float8 AS mean_confidence
       FROM debate_turns t JOIN sel ON sel.id = t.session_id GROUP BY 1 ORDER BY 1`),
    q(`SELECT coalesce(t.provider, 'unknown') AS provider, count(*)::int AS turns,
              count(*) FILTER (WHERE t.metadata->>'type' = 'failed')::int AS failed,
              avg(t.response_time_ms)::float8 AS mean_latency,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY t.response_time_ms) AS p50,
              percentile_cont(0.95) WITHIN GROUP (ORDER BY t.response_time_ms) AS p95,
              coalesce(sum((t.metadata->'call'->>'inputTokens')::bigint), 0)::float8 AS input_tokens,
              coalesce(sum((t.metadata->'call'->>'outputTokens')::bigint), 0)::float8 AS output_tokens,
              coalesce(sum((t.metadata->'call'->>'costUsd')::numeric), 0)::float8 AS cost
       FROM debate_turns t JOIN sel ON sel.id = t.session_id GROUP BY 1 ORDER BY 1`),
  ]);
  // Lessons follow the same session filter when one is given (via debate_id: rebuilt sessions keep theirs).
  const lsel = `${sel} SELECT l.* FROM deliberation_lessons l WHERE ${
    Object.values(f).some((v) => v !== undefined) ? 'l.debate_id IN (SELECT debate_id FROM sel)' : 'TRUE'
  }`;
  const lq = (sql: string) => db.query<Record<string, unknown>>(`WITH ls AS (${lsel}) ${sql}`, params);
  const [lDomain, lCategory, lTier, lUse] = await Promise.all([
    lq(`SELECT domain, count(*)::int AS n FROM ls GROUP BY 1`),
    lq(`SELECT category, count(*)::int AS n FROM ls GROUP BY 1`),
    lq(`SELECT ${TIER_NAME} AS tier, count(*)::int AS n FROM ls GROUP BY 1`),
    lq(`SELECT count(*)::int AS n, coalesce(sum(apply_count), 0)::int AS applied,
               coalesce(sum(success_count), 0)::int AS succeeded FROM ls`),
  ]);
  const s0 = success[0] ?? { ended: 0, ok: 0 };
  const l0 = lUse[0] ?? { n: 0, applied: 0, succeeded: 0 };
  const byStatus = count(status, 'status');
  return {
    sessions: {
      total: Object.values(byStatus).reduce((a, b) => a + b, 0),
      byStatus,
      byDomain: count(domain, 'domain'),
    },
    successRate: Number(s0.ended) > 0 ? Number(s0.ok) / Number(s0.ended) : null,
    turns: { total: Number(turns[0]?.n ?? 0), failed: Number(turns[0]?.failed ?? 0) },
    codeVersions: Number(versions[0]?.n ?? 0),
    lessons: {
      total: Number(l0.n),
      byDomain: count(lDomain, 'domain'),
      byCategory: count(lCategory, 'category'),
      byTier: count(lTier, 'tier'),
      applied: Number(l0.applied),
      succeeded: Number(l0.succeeded),
      successRate: Number(l0.applied) > 0 ? Number(l0.succeeded) / Number(l0.applied) : null,
    },
    consensusByRound: rounds.map((r) => ({
      round: Number(r.round),
      sessions: Number(r.sessions),
      meanConsensus: Number(r.mean),
      reached: Number(r.reached),
    })),
    roles: roles.map((r) => ({
      role: String(r.role),
      turns: Number(r.turns),
      failed: Number(r.failed),
      sessions: Number(r.sessions),
      meanConfidence: num(r.mean_confidence),
    })),
    providers: providers.map((r) => ({
      provider: String(r.provider),
      turns: Number(r.turns),
      failed: Number(r.failed),
      meanLatencyMs: num(r.mean_latency),
      p50LatencyMs: num(r.p50),
      p95LatencyMs: num(r.p95),
      inputTokens: Number(r.input_tokens),
      outputTokens: Number(r.output_tokens),
      costUsd: Number(r.cost),
    })),
  };
}
