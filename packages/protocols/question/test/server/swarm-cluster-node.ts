// One db8 server process of swarm.cluster.int.test.ts: Postgres (a throwaway schema), a data
// directory (and server key) shared with the other process of the cluster, the swarm's settings in
// SWARM_ENV (JSON). Prints `READY <url> <admin link|->` once listening.
import { startServer } from 'db8/server';

const [databaseUrl, pgSchema, natsUrl, dataDir, adminLink] = process.argv.slice(2);
if (!databaseUrl || !pgSchema || !natsUrl || !dataDir) {
  throw new Error('usage: swarm-cluster-node <database-url> <schema> <nats-url> <data-dir> [admin]');
}
const server = await startServer({
  port: 0,
  host: '127.0.0.1',
  dataDir,
  databaseUrl,
  pgSchema,
  // The cluster's own bus: each process hears the entries the other commits.
  natsUrl,
  adminLink: adminLink === 'admin',
  logLevel: 'warn',
  env: JSON.parse(process.env.SWARM_ENV ?? '{}') as Record<string, string>,
  print: () => {},
} as never);
process.stdout.write(`READY ${server.url} ${server.adminLink ?? '-'}\n`);
const stop = async () => {
  await server.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
