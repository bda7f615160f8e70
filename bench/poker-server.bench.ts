// The poker table server under load, on loopback: 50 tables × 6 agents, each agent its own
// WebSocket client (in a child process, bench/poker-agents.ts) doing exactly what an outside agent
// does — register, join over REST, answer game_state with actions. Measures hands/s across all
// tables (from the first deal to the last hand's end) and the action → ack round trip at p50/p99,
// beside peers playing the same tables, seats and actions per hand (bench/poker-server-peer.ts): a
// bare Fastify+ws turn loop, that loop with one Postgres INSERT per action, and with group commit.
// Bounded: tables are stopped by the house after BUDGET_MS whatever they have played; each store
// (PGlite on disk, then Postgres) takes < 60 s.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalPokerServer } from '../packages/protocols/poker/server/index.ts';
import { migrate, openStore, postgresDriver, Store } from '../packages/server/src/store/index.ts';
import { runChild } from './child.ts';
import { type Cost, costMeter } from './cost.ts';
import type { AgentsResult, AgentsSpec } from './poker-agents.ts';
import { bareTables, type PeerResult } from './poker-server-peer.ts';
import { quantile } from './stats.ts';
import type { BenchRow } from './types.ts';

// `DB8_BENCH_TABLES`: fewer tables for quick A/B runs on a busy machine (the goals are at 50).
const TABLES = Number(process.env.DB8_BENCH_TABLES ?? 50);
const SEATS = 6;
// Enough hands that the measure is the tables playing, not 300 agents registering and joining.
const HANDS = 30;
const BUDGET_MS = 25_000;
const PEER_BUDGET_MS = 10_000;
const AREA = 'poker-server';
const MIX = ['tight', 'random', 'station', 'station', 'tight', 'random'];
const AGENTS = new URL('./poker-agents.ts', import.meta.url);
const PG_URL = process.env.DB8_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
// `DB8_BENCH_POKER=postgres`: only the Postgres run and its group-commit peer (quick checks);
// `DB8_BENCH_POKER=db8`: only db8 on Postgres, no peer (for a profile of the server alone).
const POSTGRES_ONLY = process.env.DB8_BENCH_POKER === 'postgres';
const DB8_ONLY = process.env.DB8_BENCH_POKER === 'db8';

/** Every table's agents in a child process (bench/poker-agents.ts); resolves with their figures. */
function runAgents(spec: AgentsSpec): Promise<AgentsResult> {
  return runChild<AgentsSpec, AgentsResult>(AGENTS, spec, spec.maxRunMs + 60_000);
}

export async function run(): Promise<BenchRow[]> {
  if (DB8_ONLY) return costRows(await onPostgres(), null);
  if (POSTGRES_ONLY) {
    const server = await onPostgres();
    const grouped = await bareTables({ ...peerOf(server), pgUrl: PG_URL, group: true });
    return costRows(server, grouped);
  }
  // The embedded default: PGlite on disk, in its own thread (an in-memory store runs on the event loop).
  const dir = mkdtempSync(join(tmpdir(), 'db8-bench-poker-'));
  const lite = await openStore({ dataDir: dir, env: false });
  let embedded: Measured;
  try {
    embedded = await measure('PGlite on disk', lite);
  } finally {
    await lite.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const server = await onPostgres();
  // The peers: the same tables, seats and actions per hand with nothing of db8 in between: bare, with
  // one Postgres INSERT per action (the same server, pool size and commit settings as db8's), and with
  // the actions that arrive during a commit sharing the next one (what group commit would allow).
  const peer = peerOf(server);
  const bare = await bareTables(peer);
  const withInsert = await bareTables({ ...peer, pgUrl: PG_URL });
  const grouped = await bareTables({ ...peer, pgUrl: PG_URL, group: true });
  return [
    ...rowsOf(embedded, { label: 'bare Fastify+ws turn loop', result: bare }),
    ...rowsOf(server, { label: 'bare loop + Postgres INSERT per action', result: withInsert }, '≥ 300'),
    ...costRows(server, grouped),
    {
      area: AREA,
      name: `actions per hand (${SEATS} seats, db8's run; the peers play as many)`,
      value: peer.perHand,
      unit: 'actions',
    },
  ];
}

/** The peers play db8's tables, seats and actions per hand. */
function peerOf(server: Measured) {
  const perHand = Math.max(1, Math.round(server.actions / Math.max(1, server.played)));
  return { tables: TABLES, seats: SEATS, perHand, budgetMs: PEER_BUDGET_MS };
}

/** Server mode: the same load on PostgreSQL (a schema of its own, dropped afterwards). */
async function onPostgres(): Promise<Measured> {
  const schema = `db8_pokerbench_${process.pid}_${Date.now().toString(36)}`;
  const admin = postgresDriver(PG_URL, { max: 1 });
  await admin.exec(`CREATE SCHEMA ${schema}`);
  let server: Measured;
  try {
    const db = postgresDriver(PG_URL, { schema, max: 10 });
    await migrate(db);
    const store = new Store(db);
    try {
      server = await measure('Postgres', store);
    } finally {
      await store.close();
    }
  } finally {
    await admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.close();
  }
  return server;
}

/** Cost per action on Postgres beside the group-commit peer (issue 27's fair peer), same run. */
function costRows(m: Measured, grouped: PeerResult | null): BenchRow[] {
  const peer = 'bare loop + Postgres group commit (one INSERT per commit round)';
  const setup = `${TABLES} tables × ${SEATS} WS agents, Postgres`;
  return [
    {
      area: AREA,
      name: `hands/s (${setup}, loopback)`,
      value: m.played / m.seconds,
      unit: 'hands/s',
      peer,
      peerValue: grouped?.handsPerSec,
    },
    {
      area: AREA,
      name: `server CPU per action (${setup})`,
      value: m.cpuUsPerAction,
      unit: 'µs',
      peer,
      peerValue: grouped?.cpuUsPerAction,
      goal: '≤ 2× peer',
    },
    {
      area: AREA,
      name: `GC time per second (${setup})`,
      value: m.gcMsPerSec,
      unit: 'ms/s',
      peer,
      peerValue: grouped?.gcMsPerSec,
      goal: '≤ 3× peer',
    },
    {
      area: AREA,
      name: `GC time per action (${setup})`,
      value: m.gcUsPerAction,
      unit: 'µs',
      peer,
      peerValue: grouped?.gcUsPerAction,
    },
    {
      area: AREA,
      name: `action → ack latency p99 (${setup})`,
      value: quantile(m.latencies, 0.99),
      unit: 'ms',
      peer,
      peerValue: grouped?.ackP99,
      goal: '< 50',
    },
  ];
}

interface Measured {
  label: string;
  played: number;
  seconds: number;
  tables: number;
  actions: number;
  latencies: number[];
  /**
   * Server process CPU per action the runtime took, from the moment every table is dealing (the
   * 300 registrations and joins before are not charged) until the agents are done.
   */
  cpuUsPerAction: number;
  gcMsPerSec: number;
  gcUsPerAction: number;
}

/** The rows of one store's run, each beside the peer's figure from the same bench run. */
function rowsOf(m: Measured, peer: { label: string; result: PeerResult }, goal?: string): BenchRow[] {
  const setup = `${TABLES} tables × ${SEATS} WS agents, ${m.label}, loopback`;
  const p = peer.result;
  return [
    {
      area: AREA,
      name: `hands/s (${setup})`,
      value: m.played / m.seconds,
      unit: 'hands/s',
      peer: peer.label,
      peerValue: p.handsPerSec,
      ...(goal ? { goal } : {}),
    },
    {
      area: AREA,
      name: `server CPU per action (${m.label})`,
      value: m.cpuUsPerAction,
      unit: 'µs',
      peer: peer.label,
      peerValue: p.cpuUsPerAction,
    },
    {
      area: AREA,
      name: `GC time per second (${m.label})`,
      value: m.gcMsPerSec,
      unit: 'ms/s',
      peer: peer.label,
      peerValue: p.gcMsPerSec,
    },
    { area: AREA, name: `hands played in the run (${m.label})`, value: m.played, unit: 'hands' },
    { area: AREA, name: `tables that played (${m.label})`, value: m.tables, unit: 'tables' },
    {
      area: AREA,
      name: `action → ack latency p50 (${m.label})`,
      value: quantile(m.latencies, 0.5),
      unit: 'ms',
      peer: peer.label,
      peerValue: p.ackP50,
    },
    {
      area: AREA,
      name: `action → ack latency p99 (${m.label})`,
      value: quantile(m.latencies, 0.99),
      unit: 'ms',
      peer: peer.label,
      peerValue: p.ackP99,
      ...(goal ? { goal: '< 50' } : {}),
    },
  ];
}

async function measure(label: string, store: Store): Promise<Measured> {
  const server = await startLocalPokerServer({ store, logLevel: 'error' });
  try {
    const { tables } = server.poker;
    const ids: string[] = [];
    for (let t = 0; t < TABLES; t++) {
      const table = await tables.create(
        {
          seats: SEATS,
          small_blind: 5,
          big_blind: 10,
          ante: 0,
          starting_stack: 100_000,
          action_timeout_ms: 10_000,
          hand_interval_ms: 0,
          max_hands: HANDS,
          min_players: SEATS,
          max_consecutive_timeouts: null,
        },
        'bench',
      );
      ids.push(table.table_id);
    }
    let first = Number.POSITIVE_INFINITY;
    let last = 0;
    const hands = new Map<string, number>();
    // The play budget starts at the first deal, so slow joins under load do not eat it.
    let stopAll: NodeJS.Timeout | undefined;
    // Set from the observer callback below (a holder: a `let` would be narrowed to its initial null).
    const costWindow: { stop?: () => Cost } = {};
    // Actions counted where the server takes them, so the cost window need not start at the first deal.
    const dealing = new Set<string>();
    let counting = false;
    let acted = 0;
    const act = server.runtime.act.bind(server.runtime);
    server.runtime.act = (...args) => {
      if (counting) acted++;
      return act(...args);
    };
    const toppedUp = new Set<string>();
    const off = tables.observe((id, _seq, v) => {
      const now = performance.now();
      if (v.status === 'playing' && first === Number.POSITIVE_INFINITY) {
        first = now;
        stopAll = setTimeout(() => {
          for (const t of ids) tables.house(t, { kind: 'stop' }).catch(() => {});
        }, BUDGET_MS);
      }
      if (v.status === 'playing' && !counting && dealing.add(id).size === TABLES) {
        counting = true;
        costWindow.stop = costMeter();
      }
      // The house tops busted seats back up, so every table keeps all six seats playing.
      for (const seat of v.seats) {
        const key = `${id}:${seat.seat}:${v.handsStarted}`;
        if (seat.sitOutReason !== 'busted' || toppedUp.has(key)) continue;
        toppedUp.add(key);
        tables.house(id, { kind: 'topUp', seat: seat.seat, amount: 100_000 }).catch(() => {});
      }
      const done = v.recent.at(-1)?.number ?? 0;
      if (done > (hands.get(id) ?? 0)) {
        hands.set(id, done);
        last = now;
      }
    });
    const { latencies: lat, failures } = await runAgents({
      baseUrl: server.base,
      tableIds: ids,
      mix: MIX,
      maxRunMs: BUDGET_MS + 60_000,
    });
    const cost = costWindow.stop?.() ?? { cpuUs: Number.NaN, gcMs: Number.NaN, seconds: 1 };
    if (process.env.DB8_BENCH_WINDOW) process.stderr.write(`cost window actions ${acted}\n`);
    clearTimeout(stopAll);
    off();
    if (failures.length > 0)
      process.stderr.write(
        `poker-server (${label}): ${failures.length} agents failed, e.g. ${failures[0]}\n`,
      );
    const played = [...hands.values()].reduce((a, b) => a + b, 0);
    return {
      label,
      played,
      seconds: (last - first) / 1000,
      tables: hands.size,
      actions: lat.length,
      latencies: lat,
      cpuUsPerAction: cost.cpuUs / Math.max(1, acted),
      gcMsPerSec: cost.gcMs / cost.seconds,
      gcUsPerAction: (cost.gcMs * 1000) / Math.max(1, acted),
    };
  } finally {
    await server.close();
  }
}
