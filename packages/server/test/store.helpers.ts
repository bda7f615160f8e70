import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate, openStore, postgresDriver, type SqlDriver, Store } from '../src/store/index.ts';

export const PG_URL = process.env.DB8_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestStore {
  store: Store;
  cleanup(): Promise<void>;
}

export type StoreFactory = () => Promise<TestStore>;

export const pgliteMemoryStore: StoreFactory = async () => {
  const store = await openStore({ memory: true });
  return { store, cleanup: () => store.close() };
};

/**
 * The embedded default: PGlite on disk, in its own worker thread (pglite-thread.ts), its database
 * made by initdb as the product makes it, not from the suites' DB8_PGLITE_TEMPLATE.
 */
export const pgliteDiskStore: StoreFactory = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'db8-store-disk-'));
  const template = process.env.DB8_PGLITE_TEMPLATE;
  process.env.DB8_PGLITE_TEMPLATE = '';
  let store: Store;
  try {
    store = await openStore({ dataDir: dir, env: false });
  } finally {
    if (template === undefined) delete process.env.DB8_PGLITE_TEMPLATE;
    else process.env.DB8_PGLITE_TEMPLATE = template;
  }
  return {
    store,
    async cleanup() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

/**
 * A throwaway schema in the test database, dropped by cleanup. Throws (never skips) when Postgres
 * is unreachable: the integration suites must fail loudly without their service.
 */
export async function createPgSchema(): Promise<{ schema: string; drop(): Promise<void> }> {
  const schema = `db8_test_${randomBytes(6).toString('hex')}`;
  const admin = postgresDriver(PG_URL, { max: 1 });
  try {
    await admin.exec(`CREATE SCHEMA ${schema}`);
  } catch (err) {
    await admin.close();
    throw new Error(`PostgreSQL at ${PG_URL} is required for integration tests: ${(err as Error).message}`);
  }
  return {
    schema,
    async drop() {
      await admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.close();
    },
  };
}

/** A migrated Store on a Postgres pool bound to `schema`. */
export async function pgStoreIn(schema: string, max = 10): Promise<Store> {
  const db = postgresDriver(PG_URL, { schema, max });
  await migrate(db);
  return new Store(db);
}

export const postgresSchemaStore: StoreFactory = async () => {
  const { schema, drop } = await createPgSchema();
  const store = await pgStoreIn(schema);
  return {
    store,
    async cleanup() {
      await store.close();
      await drop();
    },
  };
};

/** A driver that counts the statements it runs (transactions' statements included). */
export function counting(db: SqlDriver): { db: SqlDriver; count: () => number } {
  let n = 0;
  const wrap = (d: SqlDriver): SqlDriver => ({
    kind: d.kind,
    query: (sql, params) => {
      n++;
      return d.query(sql, params);
    },
    exec: (sql) => {
      n++;
      return d.exec(sql);
    },
    tx: (fn) => d.tx((q) => fn(wrap(q))),
    close: () => d.close(),
  });
  return { db: wrap(db), count: () => n };
}
