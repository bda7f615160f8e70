// Child process of bench/debate-e2e.bench.ts: a db8 server (startServer: Fastify, runtime, timer
// watcher, LocalBus) in its own process, so the scripted agents' work in the parent is not charged
// to the server's event loop (both still share the cores). Store: argv[2] = `pglite` (on disk in a
// temp dir) or a PostgreSQL URL (a throwaway schema, dropped on stop).
// IPC: sends {url, adminLink} once listening; exits on 'stop'.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../packages/app/src/server.ts';
import { postgresDriver } from '../packages/server/src/index.ts';

const store = process.argv[2] ?? 'pglite';
const dir = mkdtempSync(join(tmpdir(), 'db8-bench-debate-'));
const schema = `db8_bench_debate_${process.pid}_${Date.now().toString(36)}`;
const pg = store === 'pglite' ? null : postgresDriver(store, { max: 1 });
if (pg) await pg.exec(`CREATE SCHEMA ${schema}`);
const server = await startServer({
  port: 0,
  host: '127.0.0.1',
  dataDir: dir,
  env: false,
  adminLink: true,
  logLevel: 'silent',
  print: () => {},
  ...(pg ? { databaseUrl: store, pgSchema: schema } : {}),
  // Hundreds of scripted agents share a few principals and one IP: the limits are not under test.
  rateLimit: { max: 10_000_000, windowMs: 60_000 },
  authRateLimit: { max: 10_000_000, windowMs: 60_000 },
});
process.send?.({ url: server.url, adminLink: server.adminLink });
process.on('message', async (m) => {
  if (m !== 'stop') return;
  await server.close();
  if (pg) {
    await pg.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await pg.close();
  }
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
});
