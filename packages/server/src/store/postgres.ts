import postgres from 'postgres';
import type { SqlDriver } from './driver.ts';

export interface PostgresDriverOptions {
  /** Schema to put first on search_path (tests use a throwaway schema). Default: server default. */
  schema?: string;
  /** Pool size. */
  max?: number;
  /**
   * Named prepared statements. Turn off behind a transaction-mode pooler (Supabase port 6543,
   * pgbouncer), which cannot keep them across transactions. Default: on, off for Supabase's pooler.
   */
  prepare?: boolean;
}

// postgres.js returns int8 as a string by default; our bigints (unix ms, counters) fit a number.
const int8 = {
  to: 20,
  from: [20],
  serialize: (x: unknown) => String(x),
  parse: (x: string) => Number(x),
};

type Sql = postgres.Sql<{ int8: number }>;

function wrap(
  sql: Sql | postgres.TransactionSql<{ int8: number }>,
  prepare: boolean,
  root: Sql | null,
): SqlDriver {
  const self: SqlDriver = {
    kind: 'postgres',
    async query<T>(text: string, params: readonly unknown[] = []) {
      const rows = await sql.unsafe(text, params as postgres.ParameterOrJSON<number>[], { prepare });
      return rows as unknown as T[];
    },
    async exec(text: string) {
      await sql.unsafe(text);
    },
    tx<T>(fn: (q: SqlDriver) => Promise<T>): Promise<T> {
      if (!root) return fn(self);
      return root.begin((t) => fn(wrap(t, prepare, null))) as Promise<T>;
    },
    async close() {
      if (root) await root.end({ timeout: 5 });
    },
  };
  return self;
}

/** A Postgres pool (any Postgres 13+, Supabase included: plain SQL, no superuser features). */
export function postgresDriver(url: string, opts: PostgresDriverOptions = {}): SqlDriver {
  const prepare = opts.prepare ?? !/pooler\.supabase\.com:6543/.test(url);
  const sql = postgres(url, {
    max: opts.max ?? 10,
    prepare,
    onnotice: () => {},
    types: { int8 },
    ...(opts.schema ? { connection: { search_path: opts.schema } } : {}),
  }) as unknown as Sql;
  return wrap(sql, prepare, sql);
}
