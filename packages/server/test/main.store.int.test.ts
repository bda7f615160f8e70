import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from 'db8/server';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresDriver } from '../src/store/index.ts';
import { createPgSchema, PG_URL } from './store.helpers.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('server mode from the environment', () => {
  it('DATABASE_URL + DB8_PG_SCHEMA in the env given to startServer: Postgres, migrated in that schema', async () => {
    const { schema, drop } = await createPgSchema();
    const dataDir = mkdtempSync(join(tmpdir(), 'db8-pgenv-'));
    dirs.push(dataDir);
    const lines: string[] = [];
    const s = await startServer({
      port: 0,
      dataDir,
      logLevel: 'silent',
      env: { DATABASE_URL: PG_URL, DB8_PG_SCHEMA: schema },
      print: (l) => lines.push(l),
    });
    const probe = postgresDriver(PG_URL, { max: 1 });
    try {
      expect(s.store.kind).toBe('postgres');
      expect(lines[0]).toContain('(Postgres,');
      expect(s.adminLink).toBeNull();
      const tables = await probe.query<{ table_name: string }>(
        'SELECT table_name FROM information_schema.tables WHERE table_schema = $1',
        [schema],
      );
      expect(tables.map((t) => t.table_name)).toEqual(
        expect.arrayContaining(['schema_migrations', 'entries']),
      );
    } finally {
      await s.close();
      await probe.close();
      await drop();
    }
  });
});
