/**
 * The one small interface both storage drivers implement (PGlite embedded, Postgres server).
 * Everything above it is plain SQL with $n parameters that runs unchanged on both.
 */
export interface SqlDriver {
  readonly kind: 'pglite' | 'postgres';
  /** One statement with $1.. parameters; bigint columns come back as JS numbers. */
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Several statements, no parameters (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * Runs fn in one transaction: commit when it resolves, roll back when it throws. Inside a
   * transaction `tx` simply reuses it (no savepoints): callers keep transactions flat.
   */
  tx<T>(fn: (q: SqlDriver) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** SQLSTATE 23505 on either driver: a unique or primary key constraint was violated. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; constraint?: unknown; constraint_name?: unknown };
  if (e.code !== '23505') return false;
  if (constraint === undefined) return true;
  return e.constraint === constraint || e.constraint_name === constraint;
}
