import type { SqlDriver } from '@db8/server/src/store/index.ts';

/**
 * Seed 004's three tables, transcribed from its column, constraint and index tables: what
 * `information_schema`, `pg_indexes` and `pg_constraint` must show after the migrations.
 * [column, data_type, max length or numeric precision/scale, nullable, default as Postgres prints it]
 */
type Col = [string, string, string, 'YES' | 'NO', string | null];

const uuidPk: Col = ['id', 'uuid', '', 'NO', 'gen_random_uuid()'];
const tstz = (name: string, def: string | null = 'now()'): Col => [
  name,
  'timestamp with time zone',
  '',
  'YES',
  def,
];
const jsonb = (name: string, def: string): Col => [name, 'jsonb', '', 'YES', `'${def}'::jsonb`];
const dec = (name: string): Col => [name, 'numeric', '5,4', 'YES', null];
const vc = (name: string, n: number, nullable: 'YES' | 'NO' = 'YES', def: string | null = null): Col => [
  name,
  'character varying',
  String(n),
  nullable,
  def,
];

export const SEED_COLUMNS: Record<string, Col[]> = {
  debate_sessions: [
    uuidPk,
    vc('debate_id', 255, 'NO'),
    ['topic', 'text', '', 'NO', null],
    vc('status', 50, 'NO', "'pending'::character varying"),
    vc('topology_type', 50),
    vc('coordination_protocol', 50),
    jsonb('config', '{}'),
    vc('initiated_by', 255),
    tstz('created_at'),
    tstz('updated_at'),
    tstz('completed_at', null),
    ['total_rounds', 'integer', '', 'YES', '0'],
    dec('final_consensus_score'),
    jsonb('outcome', '{}'),
    jsonb('metadata', '{}'),
  ],
  debate_turns: [
    uuidPk,
    ['session_id', 'uuid', '', 'NO', null],
    ['round', 'integer', '', 'NO', null],
    vc('phase', 50, 'NO'),
    vc('agent_id', 255, 'NO'),
    vc('agent_role', 100),
    vc('provider', 100),
    vc('model', 255),
    ['content', 'text', '', 'YES', null],
    dec('confidence'),
    jsonb('tool_calls', '[]'),
    jsonb('test_results', '{}'),
    jsonb('reflections', '[]'),
    jsonb('metadata', '{}'),
    tstz('created_at'),
    ['response_time_ms', 'integer', '', 'YES', null],
  ],
  code_versions: [
    uuidPk,
    ['session_id', 'uuid', '', 'NO', null],
    ['turn_id', 'uuid', '', 'YES', null],
    vc('language', 50),
    ['code', 'text', '', 'NO', null],
    ['version_number', 'integer', '', 'NO', null],
    dec('quality_score'),
    dec('test_pass_rate'),
    jsonb('metrics', '{}'),
    ['diff_from_previous', 'text', '', 'YES', null],
    tstz('created_at'),
  ],
};

/** [index, method, key columns, partial predicate mentions] per the seed's index tables. */
export const SEED_INDEXES: [string, string, string, string | null][] = [
  ['idx_debate_sessions_debate_id', 'btree', 'debate_id', null],
  ['idx_debate_sessions_status', 'btree', 'status', null],
  ['idx_debate_sessions_created_at', 'btree', 'created_at', null],
  ['idx_debate_sessions_topology', 'btree', 'topology_type', null],
  ['idx_debate_sessions_active', 'btree', 'status', "'pending'|'running'|'paused'"],
  ['idx_debate_sessions_metadata', 'gin', 'metadata', null],
  ['idx_debate_sessions_config', 'gin', 'config', null],
  ['idx_debate_sessions_debate_status', 'btree', 'debate_id, status', null],
  ['idx_debate_turns_session_id', 'btree', 'session_id', null],
  ['idx_debate_turns_session_round', 'btree', 'session_id, round', null],
  ['idx_debate_turns_phase', 'btree', 'phase', null],
  ['idx_debate_turns_agent', 'btree', 'agent_id', null],
  ['idx_debate_turns_session_round_phase', 'btree', 'session_id, round, phase', null],
  ['idx_debate_turns_created_at', 'btree', 'created_at', null],
  ['idx_debate_turns_reflections', 'gin', 'reflections', "reflections <> '[]'::jsonb"],
  ['idx_debate_turns_tool_calls', 'gin', 'tool_calls', "tool_calls <> '[]'::jsonb"],
  ['idx_debate_turns_metadata', 'gin', 'metadata', null],
  ['idx_code_versions_session_id', 'btree', 'session_id', null],
  ['idx_code_versions_turn_id', 'btree', 'turn_id', null],
  ['idx_code_versions_session_version', 'btree', 'session_id, version_number', null],
  ['idx_code_versions_language', 'btree', 'language', null],
  ['idx_code_versions_quality', 'btree', 'quality_score', 'quality_score IS NOT NULL'],
  ['idx_code_versions_test_pass_rate', 'btree', 'test_pass_rate', 'test_pass_rate IS NOT NULL'],
  ['idx_code_versions_metrics', 'gin', 'metrics', null],
];

export interface SchemaReport {
  columns: Record<string, Col[]>;
  indexes: [string, string, string, string | null][];
  /** [table, constraint, type, definition] of named checks, keys and uniques. */
  constraints: [string, string, string, string][];
  triggers: [string, string, string][];
}

/** Reads the live schema (the connection's search_path) in the same shape as the seed above. */
export async function readSchema(db: SqlDriver): Promise<SchemaReport> {
  const tables = Object.keys(SEED_COLUMNS);
  const cols = await db.query<Record<string, string | number | null>>(
    `SELECT table_name, column_name, data_type, character_maximum_length, numeric_precision, numeric_scale,
            is_nullable, column_default
     FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = ANY($1) ORDER BY table_name, ordinal_position`,
    [tables],
  );
  const columns: Record<string, Col[]> = Object.fromEntries(tables.map((t) => [t, []]));
  for (const c of cols) {
    const size =
      c.character_maximum_length !== null
        ? String(c.character_maximum_length)
        : c.data_type === 'numeric'
          ? `${c.numeric_precision},${c.numeric_scale}`
          : '';
    columns[c.table_name as string]!.push([
      c.column_name as string,
      c.data_type as string,
      size,
      c.is_nullable as 'YES' | 'NO',
      (c.column_default as string | null) ?? null,
    ]);
  }
  const idx = await db.query<{ indexname: string; method: string; keys: string; pred: string | null }>(
    `SELECT i.relname AS indexname, am.amname AS method,
            pg_get_indexdef(x.indexrelid) AS def, pg_get_expr(x.indpred, x.indrelid) AS pred,
            (SELECT string_agg(a.attname, ', ' ORDER BY k.ord) FROM unnest(x.indkey) WITH ORDINALITY k(attnum, ord)
               JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum) AS keys
     FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
     JOIN pg_am am ON am.oid = i.relam JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE n.nspname = current_schema() AND t.relname = ANY($1) AND i.relname LIKE 'idx\\_%'
     ORDER BY i.relname`,
    [tables],
  );
  const cons = await db.query<{ tbl: string; conname: string; contype: string; def: string }>(
    `SELECT t.relname AS tbl, c.conname, c.contype::text AS contype, pg_get_constraintdef(c.oid) AS def
     FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE n.nspname = current_schema() AND t.relname = ANY($1) AND c.contype IN ('p', 'c', 'u', 'f')
     ORDER BY t.relname, c.conname`,
    [tables],
  );
  const trg = await db.query<{ tbl: string; tgname: string; def: string }>(
    `SELECT t.relname AS tbl, g.tgname, pg_get_triggerdef(g.oid) AS def
     FROM pg_trigger g JOIN pg_class t ON t.oid = g.tgrelid JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE n.nspname = current_schema() AND t.relname = ANY($1) AND NOT g.tgisinternal`,
    [tables],
  );
  return {
    columns,
    indexes: idx.map((i) => [i.indexname, i.method, i.keys, i.pred]),
    constraints: cons.map((c) => [c.tbl, c.conname, c.contype, c.def]),
    triggers: trg.map((t) => [t.tbl, t.tgname, t.def]),
  };
}
