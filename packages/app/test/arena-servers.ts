// The server-run arena suites' set-up: servers on one throwaway Postgres schema and one data dir
// (one server key, as the nodes of a cluster share one), each signed in as its admin, all closed
// and dropped after the file. Call `arenaServers` at a test file's top level (it registers hooks).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ArenaView } from '@db8/arena';
import { Db8Client } from '@db8/sdk';
import { createPgSchema, PG_URL } from '@db8/server/test/store.helpers.ts';
import { afterAll, beforeAll } from 'vitest';
import { PATIENCE_MS } from '../../../test/patience.ts';
import { type RunningServer, startServer } from '../src/server.ts';

type StartOptions = Omit<Parameters<typeof startServer>[0], 'env'>;

export function arenaServers(label: string) {
  let schema: { schema: string; drop(): Promise<void> } | undefined;
  let dataDir: string | undefined;
  const running: RunningServer[] = [];
  beforeAll(async () => {
    schema = await createPgSchema();
    dataDir = mkdtempSync(join(tmpdir(), `db8-${label}-`));
  });
  afterAll(async () => {
    for (const s of running) await s.close().catch(() => {});
    await schema?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    get schema(): string {
      return schema!.schema;
    },
    get dataDir(): string {
      return dataDir!;
    },
    /** A server on the file's schema (the arena's safety-net scan every 200 ms), and its admin. */
    async start(
      env: Record<string, string> = {},
      opts: Partial<StartOptions> = {},
    ): Promise<{ s: RunningServer; admin: Db8Client }> {
      const s = await startServer({
        port: 0,
        host: '127.0.0.1',
        dataDir: dataDir!,
        databaseUrl: PG_URL,
        pgSchema: schema!.schema,
        logLevel: 'warn',
        adminLink: true,
        print: () => {},
        env: { DB8_ARENA_SCAN_MS: '200', ...env },
        ...opts,
      });
      running.push(s);
      const token = new URL(s.adminLink!).hash.replace('#token=', '');
      const login = await new Db8Client({ baseUrl: s.url }).adminLogin(token);
      return { s, admin: new Db8Client({ baseUrl: s.url, token: login.token }) };
    },
    /** Closes the server started last. */
    async stopLast(): Promise<void> {
      await running.pop()!.close();
    },
  };
}

export const viewOf = async (c: Db8Client, id: string) => ((await c.state(id)) as { view: ArenaView }).view;

/**
 * Reads until `done` holds. A safety limit, not a measure: a whole tournament on a busy machine may
 * take minutes, so it waits 4 × PATIENCE_MS (below the suite's 600-s test limit, so its message,
 * with what it last read, is the one reported).
 */
export async function until<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  const patience = 4 * PATIENCE_MS;
  const deadline = Date.now() + patience;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > deadline)
      throw new Error(`still waiting after ${patience} ms: ${JSON.stringify(v).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
