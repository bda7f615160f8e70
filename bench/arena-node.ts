// Child process of bench/arena.bench.ts: one db8 server (startServer, the arena's runner) as one
// node of a cluster — a shared PostgreSQL schema, a shared data dir (one server key, as a cluster's
// nodes share one) and, when given, a shared NATS — in its own process, so two nodes are two event
// loops as in production. argv[2]: JSON {databaseUrl, pgSchema, dataDir, node, natsUrl?}.
// IPC: sends {url, adminLink} once listening; exits on 'stop'.
import { startServer } from '../packages/app/src/server.ts';

const o = JSON.parse(process.argv[2] ?? '{}') as {
  databaseUrl: string;
  pgSchema: string;
  dataDir: string;
  node: string;
  natsUrl?: string;
};
const server = await startServer({
  port: 0,
  host: '127.0.0.1',
  dataDir: o.dataDir,
  databaseUrl: o.databaseUrl,
  pgSchema: o.pgSchema,
  ...(o.natsUrl ? { natsUrl: o.natsUrl } : {}),
  adminLink: true,
  logLevel: 'warn',
  print: () => {},
  // The arena's own knobs only: no step delay (the default), the safety-net scan every 200 ms.
  env: { DB8_ARENA_NODE: o.node, DB8_ARENA_SCAN_MS: '200' },
});
process.send?.({ url: server.url, adminLink: server.adminLink });
process.on('message', async (m) => {
  if (m !== 'stop') return;
  await server.close();
  process.exit(0);
});
