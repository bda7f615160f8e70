import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startServer } from 'db8/server';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { configFromEnv } from '../src/config.ts';
import { openStore, resolveDataDir } from '../src/store/index.ts';

const dirs: string[] = [];
const tmp = (p: string) => {
  const d = mkdtempSync(join(tmpdir(), p));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

// A process environment that points somewhere else: nothing listens on port 1.
const saved = { ...process.env };
function pollute(): string {
  const elsewhere = tmp('db8-env-elsewhere-');
  process.env.DATABASE_URL = 'postgres://nobody@127.0.0.1:1/none';
  process.env.DB8_PG_SCHEMA = 'not_this_one';
  process.env.DB8_DATA_DIR = elsewhere;
  return elsewhere;
}
afterEach(() => {
  for (const k of ['DATABASE_URL', 'DB8_PG_SCHEMA', 'DB8_DATA_DIR'] as const) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

/** Each starts PGlite (seconds on a loaded 2-core machine). */
const SLOW = 120_000;

describe('the store follows the resolved config', () => {
  it(
    'startServer({ env: false }) opens the embedded store it reports, whatever process.env says',
    async () => {
      const elsewhere = pollute();
      const dataDir = tmp('db8-env-mine-');
      const lines: string[] = [];
      const s = await startServer({
        port: 0,
        dataDir,
        env: false,
        logLevel: 'silent',
        print: (l) => lines.push(l),
      });
      try {
        expect(s.store.kind).toBe('pglite');
        expect(lines[0]).toContain(`embedded store in ${resolve(dataDir)}`);
        expect(s.adminLink).not.toBeNull();
        expect(existsSync(join(dataDir, 'pglite'))).toBe(true);
        expect(existsSync(join(elsewhere, 'pglite'))).toBe(false);
      } finally {
        await s.close();
      }
    },
    SLOW,
  );

  it(
    'openStore({ env: false }) ignores DATABASE_URL / DB8_DATA_DIR; an env object is read instead',
    async () => {
      const elsewhere = pollute();
      const mine = tmp('db8-env-open-');
      const a = await openStore({ env: false, dataDir: mine });
      expect(a.kind).toBe('pglite');
      await a.close();
      expect(existsSync(join(mine, 'pglite'))).toBe(true);

      const viaEnv = tmp('db8-env-obj-');
      const b = await openStore({ env: { DB8_DATA_DIR: viaEnv } });
      expect(b.kind).toBe('pglite');
      await b.close();
      expect(existsSync(join(viaEnv, 'pglite'))).toBe(true);
      expect(existsSync(join(elsewhere, 'pglite'))).toBe(false);

      expect(resolveDataDir(undefined, false)).toBe(resolve('.db8'));
      expect(resolveDataDir(undefined, { DB8_DATA_DIR: viaEnv })).toBe(resolve(viaEnv));
      expect(resolveDataDir(undefined)).toBe(resolve(elsewhere));
    },
    SLOW,
  );

  it('DB8_PG_SCHEMA is part of the config read from the environment', () => {
    expect(configFromEnv({ DATABASE_URL: 'postgres://x@h/db', DB8_PG_SCHEMA: 's1' })).toMatchObject({
      databaseUrl: 'postgres://x@h/db',
      pgSchema: 's1',
    });
    expect(configFromEnv({}).pgSchema).toBeUndefined();
  });
});
