import type { PGlite } from '@electric-sql/pglite';

export interface PgliteRunner {
  query(sql: string, params?: readonly unknown[]): Promise<unknown[]>;
  exec(sql: string): Promise<unknown>;
}
export interface PgliteSession extends PgliteRunner {
  transaction<T>(fn: (t: PgliteRunner) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
export function pgliteSession(db: PGlite): PgliteSession;
export function openPgliteSession(
  dataDir: string | 'memory',
  opts?: { template?: string | undefined },
): Promise<PgliteSession>;
