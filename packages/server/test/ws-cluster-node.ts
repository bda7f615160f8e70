// One db8 server process for ws.cluster.int.test.ts: Postgres (a throwaway schema) + NATS, its key
// in a data directory shared with the other node. Prints `READY <url> <admin link|->` once listening.
import { startServer } from 'db8/server';

const [databaseUrl, pgSchema, natsUrl, dataDir, adminLink] = process.argv.slice(2);
if (!databaseUrl || !pgSchema || !natsUrl || !dataDir) {
  throw new Error('usage: ws-cluster-node <database-url> <schema> <nats-url> <data-dir> [admin]');
}
const server = await startServer({
  port: 0,
  host: '127.0.0.1',
  dataDir,
  databaseUrl,
  pgSchema,
  natsUrl,
  adminLink: adminLink === 'admin',
  logLevel: 'warn',
  env: false,
  print: () => {},
});
process.stdout.write(`READY ${server.url} ${server.adminLink ?? '-'}\n`);
const stop = async () => {
  await server.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
