import type { SqlDriver } from './driver.ts';
import { openPgliteSession, type PgliteRunner, type PgliteSession } from './pglite-session.mjs';

function wrap(db: PgliteRunner, session: PgliteSession, inTx: boolean): SqlDriver {
  const self: SqlDriver = {
    kind: 'pglite',
    async query<T>(sql: string, params: readonly unknown[] = []) {
      return (await db.query(sql, params)) as T[];
    },
    async exec(sql: string) {
      await db.exec(sql);
    },
    tx<T>(fn: (q: SqlDriver) => Promise<T>): Promise<T> {
      if (inTx) return fn(self);
      return session.transaction((t) => fn(wrap(t, session, true)));
    },
    async close() {
      if (!inTx) await session.close();
    },
  };
  return self;
}

/**
 * Embedded Postgres (WASM). `'memory'` keeps everything in memory (tests); a path persists there.
 * PGlite is one connection: pglite-session.mjs runs its statements one at a time, each SQL text
 * prepared once.
 */
export async function pgliteDriver(dataDir: string | 'memory'): Promise<SqlDriver> {
  const session = await openPgliteSession(dataDir);
  return wrap(session, session, false);
}
