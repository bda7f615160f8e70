import { mkdir, rm } from 'node:fs/promises';
import { hashCanonical } from '@db8/core';
import { PGlite } from '@electric-sql/pglite';
import { type CouncilState, ROLES, stageOfTurn, TURN_STAGES, type TurnRecord } from '../rules/index.ts';
import { indexDir } from './files.ts';
import { type IndexLock, lockIndex } from './index-lock.ts';

/**
 * The local index (seed 001, Decision 5: `debate_runs`, `debate_turns`, `debate_actions`) in an
 * embedded PGlite database under `<home>/index`, with Postgres full-text search. The JSON artifacts
 * are the source of truth; the index is for listing, searching and cross-checking replay. The
 * migration is additive and idempotent, with a version marker in `council_meta`.
 *
 * Only one process may have the database open: `open` takes the home's index lock and `close`
 * releases it. A database that is missing or fails to open is recreated empty; `rebuilt` in
 * `council_meta` says whether it holds every run from the artifacts (reindex.ts fills it).
 */

export const INDEX_SCHEMA_VERSION = 1;

const MIGRATION = `
CREATE TABLE IF NOT EXISTS council_meta (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE IF NOT EXISTS debate_runs (
  run_id text PRIMARY KEY,
  question text NOT NULL,
  context text NOT NULL,
  status text NOT NULL,
  output_type text NOT NULL,
  created_at timestamptz NOT NULL,
  decision text NOT NULL,
  verdict text NOT NULL,
  decision_source text NOT NULL,
  rationale text NOT NULL,
  consensus double precision NOT NULL,
  confidence double precision NOT NULL,
  degraded boolean NOT NULL,
  scripted boolean NOT NULL,
  run_dir text NOT NULL,
  packet_path text NOT NULL,
  record_path text,
  packet_sha256 text NOT NULL,
  state_sha256 text NOT NULL,
  artifacts jsonb NOT NULL,
  search tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', question), 'A') ||
    setweight(to_tsvector('english', decision), 'A') ||
    setweight(to_tsvector('english', rationale || ' ' || context), 'B')
  ) STORED
);
CREATE INDEX IF NOT EXISTS debate_runs_search ON debate_runs USING gin (search);
CREATE TABLE IF NOT EXISTS debate_turns (
  run_id text NOT NULL REFERENCES debate_runs (run_id) ON DELETE CASCADE,
  stage text NOT NULL,
  role text NOT NULL,
  seq integer NOT NULL,
  status text NOT NULL,
  error_code text,
  provider text,
  model text,
  scripted boolean,
  attempts integer,
  input_tokens integer,
  output_tokens integer,
  cost_usd double precision,
  latency_ms integer,
  payload_sha256 text,
  content text NOT NULL,
  search tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED,
  PRIMARY KEY (run_id, stage, role)
);
CREATE INDEX IF NOT EXISTS debate_turns_search ON debate_turns USING gin (search);
CREATE TABLE IF NOT EXISTS debate_actions (
  run_id text NOT NULL REFERENCES debate_runs (run_id) ON DELETE CASCADE,
  idx integer NOT NULL,
  action text NOT NULL,
  owner text NOT NULL,
  due date NOT NULL,
  source text NOT NULL,
  PRIMARY KEY (run_id, idx)
);
INSERT INTO council_meta (key, value) VALUES ('schema_version', '${INDEX_SCHEMA_VERSION}')
  ON CONFLICT (key) DO NOTHING;
`;

export interface RunRow {
  run_id: string;
  question: string;
  status: string;
  created_at: Date;
  decision: string;
  verdict: string;
  consensus: number;
  confidence: number;
  degraded: boolean;
  scripted: boolean;
  run_dir: string;
  packet_path: string;
  record_path: string | null;
  packet_sha256: string;
  state_sha256: string;
  artifacts: Record<string, string>;
}

export interface TurnRow {
  stage: string;
  role: string;
  seq: number;
  status: string;
  error_code: string | null;
  payload_sha256: string | null;
}

export interface ActionRow {
  idx: number;
  action: string;
  owner: string;
  due: string;
  source: string;
}

export interface SearchHit {
  run_id: string;
  question: string;
  decision: string;
  created_at: Date;
  rank: number;
  matched_turns: number;
}

/** All string leaves of a payload, in order: what full-text search indexes for a turn. */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(textOf).filter(Boolean).join(' ');
  if (value && typeof value === 'object') return Object.values(value).map(textOf).filter(Boolean).join(' ');
  return '';
}

function turnRow(runId: string, t: TurnRecord) {
  const failed = t.kind === 'failed';
  return [
    runId,
    stageOfTurn(t),
    t.role,
    t.seq,
    failed ? 'failed' : 'ok',
    failed ? t.error.code : null,
    t.call?.provider ?? null,
    t.call?.model ?? null,
    t.call?.scripted ?? null,
    t.call?.attempts ?? null,
    t.call?.inputTokens ?? null,
    t.call?.outputTokens ?? null,
    t.call?.costUsd ?? null,
    t.call?.latencyMs ?? null,
    failed ? null : hashCanonical(t.payload),
    failed ? `${t.error.code} ${t.error.message}` : textOf(t.payload),
  ];
}

/** Turns in a stable order: stage order, then roster order. */
export function orderedTurns(state: CouncilState): TurnRecord[] {
  return TURN_STAGES.flatMap((stage) =>
    ROLES.flatMap((role) => state.turns.filter((t) => t.role === role && stageOfTurn(t) === stage)),
  );
}

async function openDatabase(dir: string): Promise<PGlite> {
  await mkdir(dir, { recursive: true });
  const db = await PGlite.create(dir);
  try {
    await db.exec(MIGRATION);
  } catch (e) {
    await db.close().catch(() => {});
    throw e;
  }
  return db;
}

export class CouncilIndex {
  private constructor(
    private readonly db: PGlite,
    private readonly lock: IndexLock,
  ) {}

  /**
   * Lock the home's index and open it. `fresh` drops it first; a database that fails to open
   * (a torn write, a foreign file) is dropped and recreated too: it only ever holds what the
   * artifacts can rebuild.
   */
  static async open(home: string, opts: { fresh?: boolean } = {}): Promise<CouncilIndex> {
    const dir = indexDir(home);
    const lock = await lockIndex(home);
    try {
      if (opts.fresh) await rm(dir, { recursive: true, force: true });
      const db = await openDatabase(dir).catch(async () => {
        await rm(dir, { recursive: true, force: true });
        return openDatabase(dir);
      });
      return new CouncilIndex(db, lock);
    } catch (e) {
      await lock.release();
      throw e;
    }
  }

  async close(): Promise<void> {
    try {
      await this.db.close();
    } finally {
      await this.lock.release();
    }
    const lost = this.lock.compromised();
    if (lost)
      throw new Error(`the index lock was lost while open (${lost.message}): run db8 council reindex`);
  }

  /** False for a new or recreated database until every run's artifacts have been indexed. */
  async isRebuilt(): Promise<boolean> {
    const r = await this.db.query(`SELECT 1 FROM council_meta WHERE key = 'rebuilt' AND value = 'true'`);
    return r.rows.length > 0;
  }

  async markRebuilt(): Promise<void> {
    await this.db.query(
      `INSERT INTO council_meta (key, value) VALUES ('rebuilt', 'true') ON CONFLICT (key) DO UPDATE SET value = 'true'`,
    );
  }

  async schemaVersion(): Promise<number> {
    const r = await this.db.query<{ value: string }>(
      `SELECT value FROM council_meta WHERE key = 'schema_version'`,
    );
    return Number(r.rows[0]?.value ?? 0);
  }

  /** Insert (or replace) one completed run with its turns and actions, in one transaction. */
  async putRun(args: {
    state: CouncilState;
    stateSha256: string;
    runDir: string;
    packetPath: string;
    artifacts: Record<string, string>;
  }): Promise<void> {
    const { state } = args;
    const p = state.packet;
    if (!p || !state.packetSha256) throw new Error('cannot index a run without a packet');
    const runId = state.config.runId;
    await this.db.transaction(async (tx) => {
      await tx.query('DELETE FROM debate_runs WHERE run_id = $1', [runId]);
      await tx.query(
        `INSERT INTO debate_runs (run_id, question, context, status, output_type, created_at, decision, verdict,
           decision_source, rationale, consensus, confidence, degraded, scripted, run_dir, packet_path, record_path,
           packet_sha256, state_sha256, artifacts)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20)`,
        [
          runId,
          p.question,
          p.context,
          state.status,
          p.outputType,
          p.createdAt,
          p.decision.summary,
          p.decision.verdict,
          p.decision.source,
          p.rationale,
          p.scores.consensus,
          p.scores.confidence,
          p.degradation.degraded,
          p.scripted,
          args.runDir,
          args.packetPath,
          state.writeback?.recordPath ?? null,
          state.packetSha256,
          args.stateSha256,
          JSON.stringify(args.artifacts),
        ],
      );
      for (const t of orderedTurns(state)) {
        await tx.query(
          `INSERT INTO debate_turns (run_id, stage, role, seq, status, error_code, provider, model, scripted, attempts,
             input_tokens, output_tokens, cost_usd, latency_ms, payload_sha256, content)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16)`,
          turnRow(runId, t),
        );
      }
      for (const [i, a] of p.nextActions.entries()) {
        await tx.query(
          'INSERT INTO debate_actions (run_id, idx, action, owner, due, source) VALUES ($1,$2,$3,$4,$5,$6)',
          [runId, i, a.action, a.owner, a.due, a.source],
        );
      }
    });
  }

  async listRuns(limit = 50): Promise<RunRow[]> {
    const r = await this.db.query<RunRow>(
      `SELECT run_id, question, status, created_at, decision, verdict, consensus, confidence, degraded, scripted,
              run_dir, packet_path, record_path, packet_sha256, state_sha256, artifacts
         FROM debate_runs ORDER BY created_at DESC, run_id DESC LIMIT $1`,
      [limit],
    );
    return r.rows;
  }

  /** The run with this id, or the only run whose id starts with it. */
  async findRun(idOrPrefix: string): Promise<RunRow | null> {
    const r = await this.db.query<RunRow>(
      `SELECT run_id, question, status, created_at, decision, verdict, consensus, confidence, degraded, scripted,
              run_dir, packet_path, record_path, packet_sha256, state_sha256, artifacts
         FROM debate_runs WHERE run_id = $1 OR starts_with(run_id, $1) ORDER BY run_id = $1 DESC LIMIT 2`,
      [idOrPrefix],
    );
    const [first, second] = r.rows;
    if (!first) return null;
    if (first.run_id !== idOrPrefix && second) throw new Error(`run id prefix ${idOrPrefix} is ambiguous`);
    return first;
  }

  async turns(runId: string): Promise<TurnRow[]> {
    const r = await this.db.query<TurnRow>(
      'SELECT stage, role, seq, status, error_code, payload_sha256 FROM debate_turns WHERE run_id = $1',
      [runId],
    );
    return r.rows;
  }

  async actions(runId: string): Promise<ActionRow[]> {
    const r = await this.db.query<ActionRow>(
      `SELECT idx, action, owner, to_char(due, 'YYYY-MM-DD') AS due, source FROM debate_actions
        WHERE run_id = $1 ORDER BY idx`,
      [runId],
    );
    return r.rows;
  }

  /** Full-text search over runs (question, decision, rationale, context) and every turn's text. */
  async search(query: string, limit = 20): Promise<SearchHit[]> {
    const r = await this.db.query<SearchHit>(
      `WITH q AS (SELECT websearch_to_tsquery('english', $1) AS q)
       SELECT r.run_id, r.question, r.decision, r.created_at,
              greatest(ts_rank(r.search, q.q), coalesce(max(ts_rank(t.search, q.q)), 0))::float8 AS rank,
              count(t.role)::int AS matched_turns
         FROM debate_runs r CROSS JOIN q
         LEFT JOIN debate_turns t ON t.run_id = r.run_id AND t.search @@ q.q
        GROUP BY r.run_id, q.q
       HAVING r.search @@ q.q OR count(t.role) > 0
        ORDER BY rank DESC, r.created_at DESC
        LIMIT $2`,
      [query, limit],
    );
    return r.rows;
  }
}
