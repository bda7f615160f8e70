import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SqlDriver } from './driver.ts';

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
// Any constant: serialises concurrent starts of several server processes on one database.
const MIGRATION_LOCK = 0x0db8_0001;

export interface Migration {
  name: string;
  sql: string;
}

/** The migrations shipped with the server, in order (NNN_name.sql). */
export function bundledMigrations(dir: string = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((name) => ({ name, sql: readFileSync(join(dir, name), 'utf8') }));
}

/**
 * Applies the migrations not yet recorded in schema_migrations, each in order, all in one
 * transaction under an advisory lock, so two processes starting together apply each once.
 * Returns the names applied now.
 */
export async function migrate(
  db: SqlDriver,
  migrations: readonly Migration[] = bundledMigrations(),
): Promise<string[]> {
  return db.tx(async (q) => {
    await q.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await q.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at bigint NOT NULL)',
    );
    const done = new Set(
      (await q.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name),
    );
    const applied: string[] = [];
    for (const m of migrations) {
      if (done.has(m.name)) continue;
      await q.exec(m.sql);
      await q.query('INSERT INTO schema_migrations (name, applied_at) VALUES ($1, $2)', [m.name, Date.now()]);
      applied.push(m.name);
    }
    return applied;
  });
}
