// One db8 server process for arena.server.int.test.ts's crash test: the arena's match writes are
// held at write `hold` of the first match room that reaches it, forever (the test kills this
// process with SIGKILL there, so it never releases its leases). Argument: JSON
// {databaseUrl, pgSchema, dataDir, env, hold}. Prints `READY <url> <admin link>` once listening and
// `HELD <room>` once a match waits.
import { startServer } from '../src/server.ts';
import { Holds, modulesPacedBy } from './arena-holds.ts';

const o = JSON.parse(process.argv[2] ?? '{}') as {
  databaseUrl: string;
  pgSchema: string;
  dataDir: string;
  env: Record<string, string>;
  hold: number;
};
const holds = Holds.first(o.hold);
const server = await startServer({
  port: 0,
  host: '127.0.0.1',
  dataDir: o.dataDir,
  databaseUrl: o.databaseUrl,
  pgSchema: o.pgSchema,
  logLevel: 'warn',
  adminLink: true,
  print: () => {},
  env: o.env,
  modules: modulesPacedBy(holds.pace),
});
process.stdout.write(`READY ${server.url} ${server.adminLink}\n`);
void holds.until((rooms) => rooms[0]).then((room) => process.stdout.write(`HELD ${room}\n`));
