// The peer of bench/poker-server.bench.ts: what the wire and the store allow at the least for the
// same load on this machine. A bare Fastify + ws server runs a turn loop per table (no rules, no
// signing, no views); every seat is a WebSocket client in a child process
// (bench/poker-server-peer-agents.ts) that answers its turn at once. Per action: optionally one
// Postgres INSERT (a row like db8's entry), an ack to the actor and the next turn to each of the
// table's seats, a frame the size of db8's game_state. Hands/s over the budget, ack p50/p99 measured
// by the agents, as in the db8 run.
import websocket from '@fastify/websocket';
import Fastify from 'fastify';
import postgres from 'postgres';
import { runChild } from './child.ts';
import { type Cost, costMeter } from './cost.ts';
import type { PeerAgentsResult, PeerAgentsSpec } from './poker-server-peer-agents.ts';
import { quantile } from './stats.ts';

export interface PeerSpec {
  tables: number;
  seats: number;
  /** Actions per hand (db8's run measures its own). */
  perHand: number;
  budgetMs: number;
  /** Postgres URL: one INSERT per action into a throwaway schema; absent, no store. */
  pgUrl?: string;
  /** With pgUrl: the actions that arrive while a commit runs share the next one (group commit). */
  group?: boolean;
}

export interface PeerResult {
  handsPerSec: number;
  ackP50: number;
  ackP99: number;
  /** This process's CPU per action over the run (the peer server's; its agents run elsewhere). */
  cpuUsPerAction: number;
  /** Main-thread GC pause time per second of the run. */
  gcMsPerSec: number;
  /** Main-thread GC pause time per action, µs. */
  gcUsPerAction: number;
}

const AGENTS = new URL('./poker-server-peer-agents.ts', import.meta.url);
// About the size of a seat's game_state frame in the db8 run (~1.3 kB).
const FILLER = 'x'.repeat(1200);

interface Table {
  sockets: Array<{ send(s: string): void } | undefined>;
  seq: number;
  step: number;
  hands: number;
}

export async function bareTables(spec: PeerSpec): Promise<PeerResult> {
  const schema = `db8_pokerpeer_${process.pid}_${Date.now().toString(36)}`;
  const sql = spec.pgUrl ? postgres(spec.pgUrl, { max: 10, onnotice: () => {} }) : null;
  if (sql) {
    await sql.unsafe(`CREATE SCHEMA ${schema}`);
    await sql.unsafe(
      `CREATE TABLE ${schema}.log (table_id text NOT NULL, seq int NOT NULL, ts bigint NOT NULL, body text NOT NULL, PRIMARY KEY (table_id, seq))`,
    );
  }
  const tables: Table[] = Array.from({ length: spec.tables }, () => ({
    sockets: [],
    seq: 0,
    step: 0,
    hands: 0,
  }));
  // Group commit: one multi-row INSERT at a time; rows that arrive meanwhile wait for the next.
  const commit = (() => {
    let queue: Array<{ row: unknown[]; done: () => void }> = [];
    let running = false;
    const flush = async (): Promise<void> => {
      running = true;
      while (queue.length > 0) {
        const batch = queue;
        queue = [];
        const col = (i: number) => batch.map((b) => b.row[i]);
        await sql!.unsafe(
          `INSERT INTO ${schema}.log (table_id, seq, ts, body) SELECT * FROM unnest($1::text[], $2::int[], $3::bigint[], $4::text[])`,
          [col(0), col(1), col(2), col(3)] as never,
        );
        for (const b of batch) b.done();
      }
      running = false;
    };
    return {
      add: (row: unknown[]) =>
        new Promise<void>((done) => {
          queue.push({ row, done });
          if (!running) void flush();
        }),
    };
  })();
  let connected = 0;
  let started = 0;
  let playing = true;
  const costWindow: { stop?: () => Cost } = {};
  const app = Fastify();
  await app.register(websocket);
  const turn = (t: number) => {
    const table = tables[t]!;
    const text = JSON.stringify({
      type: 'turn',
      table: t,
      seat: table.step % spec.seats,
      token: `${table.seq}`,
      filler: FILLER,
    });
    for (const s of table.sockets) s?.send(text);
  };
  app.register(async (scope) => {
    scope.get('/ws', { websocket: true }, (socket, req) => {
      const q = req.query as { table: string; seat: string };
      const t = Number(q.table);
      const table = tables[t]!;
      table.sockets[Number(q.seat)] = socket;
      socket.on('message', async (d: Buffer) => {
        const m = JSON.parse(String(d)) as { seat: number; token: string };
        if (!playing || m.token !== `${table.seq}` || m.seat !== table.step % spec.seats) return;
        const seq = table.seq++;
        if (sql && spec.group) await commit.add([String(t), seq, Date.now(), String(d)]);
        else if (sql)
          await sql.unsafe(`INSERT INTO ${schema}.log (table_id, seq, ts, body) VALUES ($1, $2, $3, $4)`, [
            String(t),
            seq,
            Date.now(),
            String(d),
          ]);
        socket.send(JSON.stringify({ type: 'ack', seq, token: m.token }));
        if (++table.step === spec.perHand) {
          table.step = 0;
          table.hands++;
        }
        turn(t);
      });
      if (++connected === spec.tables * spec.seats) {
        started = performance.now();
        costWindow.stop = costMeter();
        for (let i = 0; i < spec.tables; i++) turn(i);
      }
    });
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const agents = runChild<PeerAgentsSpec, PeerAgentsResult>(
      AGENTS,
      { wsUrl: `${url.replace('http', 'ws')}/ws`, tables: spec.tables, seats: spec.seats },
      spec.budgetMs + 120_000,
    );
    // The agents play until told to stop: the budget runs from the first turn (every seat connected).
    const connectBy = performance.now() + 60_000;
    while (started === 0) {
      if (performance.now() > connectBy)
        throw new Error(`peer: ${connected} of ${spec.tables * spec.seats} seats connected`);
      await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, spec.budgetMs));
    playing = false;
    const cost = costWindow.stop?.() ?? { cpuUs: Number.NaN, gcMs: Number.NaN, seconds: 1 };
    const seconds = (performance.now() - started) / 1000;
    const actions = tables.reduce((a, t) => a + t.seq, 0);
    if (process.env.DB8_BENCH_WINDOW) process.stderr.write(`cost window actions ${actions}\n`);
    const hands = tables.reduce((a, t) => a + t.hands, 0);
    for (const t of tables) for (const s of t.sockets) s?.send('{"type":"stop"}');
    const { latencies } = await agents;
    return {
      handsPerSec: hands / seconds,
      ackP50: quantile(latencies, 0.5),
      ackP99: quantile(latencies, 0.99),
      cpuUsPerAction: cost.cpuUs / Math.max(1, actions),
      gcMsPerSec: cost.gcMs / cost.seconds,
      gcUsPerAction: (cost.gcMs * 1000) / Math.max(1, actions),
    };
  } finally {
    await app.close();
    if (sql) {
      await sql.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await sql.end();
    }
  }
}
