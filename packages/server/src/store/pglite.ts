import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { SqlDriver } from './driver.ts';
import { type PgliteRunner, type PgliteSession, pgliteSession } from './pglite-session.mjs';

const INT8 = 20;
// int8 as a JS number, like the Postgres driver (our bigints are unix ms and counters, < 2^53).
const parsers = { [INT8]: (v: string) => Number(v) };

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
  if (dataDir !== 'memory') mkdirSync(dataDir, { recursive: true });
  const db =
    dataDir === 'memory' ? await PGlite.create({ parsers }) : await PGlite.create(dataDir, { parsers });
  // Nothing in memory outlives the process, so a commit need not wait on its WAL write (~20% less
  // per append, paid on the event loop). On disk the WAL is written at each commit: that is what
  // makes an acknowledged entry survive a crash of the process.
  if (dataDir === 'memory') await db.exec('SET synchronous_commit = off');
  const session = pgliteSession(db);
  return wrap(session, session, false);
}
