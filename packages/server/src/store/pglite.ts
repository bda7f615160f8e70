import { mkdirSync } from 'node:fs';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import type { SqlDriver } from './driver.ts';

const INT8 = 20;
// int8 as a JS number, like the Postgres driver (our bigints are unix ms and counters, < 2^53).
const parsers = { [INT8]: (v: string) => Number(v) };

type Runner = Pick<Transaction, 'query' | 'exec'>;

function wrap(db: Runner, inTx: boolean, owner: PGlite): SqlDriver {
  const self: SqlDriver = {
    kind: 'pglite',
    async query<T>(sql: string, params: readonly unknown[] = []) {
      const res = await db.query<T>(sql, params as unknown[]);
      return res.rows;
    },
    async exec(sql: string) {
      await db.exec(sql);
    },
    tx<T>(fn: (q: SqlDriver) => Promise<T>): Promise<T> {
      if (inTx) return fn(self);
      return owner.transaction((t) => fn(wrap(t, true, owner)));
    },
    async close() {
      if (!inTx) await owner.close();
    },
  };
  return self;
}

/**
 * Embedded Postgres (WASM). `'memory'` keeps everything in memory (tests); a path persists there.
 * PGlite is one connection: queries and transactions are serialised by PGlite itself.
 */
export async function pgliteDriver(dataDir: string | 'memory'): Promise<SqlDriver> {
  if (dataDir !== 'memory') mkdirSync(dataDir, { recursive: true });
  const db =
    dataDir === 'memory' ? await PGlite.create({ parsers }) : await PGlite.create(dataDir, { parsers });
  // Nothing in memory outlives the process, so a commit need not wait on its WAL write (~20% less
  // per append, paid on the event loop). On disk the WAL is written at each commit: that is what
  // makes an acknowledged entry survive a crash of the process.
  if (dataDir === 'memory') await db.exec('SET synchronous_commit = off');
  return wrap(db, false, db);
}
