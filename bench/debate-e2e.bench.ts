// A debate end to end over the real API: scripted agents (packages/cli/src/debate) drive every seat
// through the SDK — REST actions, SSE state pushes — against a server in a child process
// (bench/debate-e2e-server.ts: startServer, the real timer watcher; PGlite on disk, then PostgreSQL
// in a throwaway schema when one answers at DB8_BENCH_DATABASE_URL).
//   one room: five debaters (one signing with an SSH key), a fact-checker and a judge, three rounds
//     + final on short timers; wall time from creation to closed minus the timers the protocol must
//     wait out (submit windows, final vote, results, reveal): what db8 itself adds.
//   100 rooms at once on one server (per store): entries written per second (over the run, which
//     the timers bound, and in the busiest second) and the p50/p99 round trip of an action, bounded
//     (the drivers are cut off at BUDGET_MS).
// No peer exists for a whole debate; figures only, nothing asserts.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { createConnection } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Db8Client } from '@db8/sdk';
import {
  type Agent,
  castSeats,
  createDebate,
  keySigner,
  playCast,
  registerAgents,
  type SeatHandle,
  takeSeats,
} from '../packages/protocols/debate/cli/cast.ts';
import type { ActRecord } from '../packages/protocols/debate/cli/driver.ts';
import type { DebateConfigInput } from '../packages/protocols/debate/rules/index.ts';
import type { BenchRow } from './types.ts';

const AREA = 'debate-e2e';
const ROOMS = Number(process.env.DB8_BENCH_DEBATE_ROOMS ?? 100);
const BUDGET_MS = 85_000;
const SERVER = fileURLToPath(new URL('./debate-e2e-server.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');
const PG_URL = process.env.DB8_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const CAST = { debaters: 5, judges: 1, viewers: 0 };

function config(submitMs: number, researchMs: number): DebateConfigInput {
  return {
    topic: '[scripted bench] Should cities ban private cars from their centres?',
    tags: ['bench'],
    ...CAST,
    max_rounds: 3,
    timings: {
      research_ms: researchMs,
      submit_ms: submitMs,
      verify_ms: 10_000,
      continue_vote_ms: 10_000,
      final_submit_ms: submitMs,
      final_vote_ms: submitMs,
      results_ms: 300,
      reveal_ms: 300,
    },
  };
}

/** What the protocol waits out whatever happens (verify and the continue vote end when all are in). */
function timersMs(c: DebateConfigInput): number {
  const t = c.timings!;
  return (
    (t.research_ms ?? 0) * (c.max_rounds ?? 3) +
    (t.submit_ms ?? 0) * (c.max_rounds ?? 3) +
    (t.final_submit_ms ?? 0) +
    (t.final_vote_ms ?? 0) +
    (t.results_ms ?? 0) +
    (t.reveal_ms ?? 0)
  );
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

function startServerChild(
  store: string,
): Promise<{ url: string; adminLink: string; stop: () => Promise<void> }> {
  const child = fork(SERVER, [store], {
    execArgv: [
      '--import',
      TSX,
      ...(process.env.DB8_BENCH_PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/dbg'] : []),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`bench server exited (${code})`)));
    child.once('message', (m) => {
      const { url, adminLink } = m as { url: string; adminLink: string };
      resolve({
        url,
        adminLink,
        stop: () =>
          new Promise<void>((done) => {
            child.removeAllListeners('exit');
            child.once('exit', () => done());
            child.send('stop');
            setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
          }),
      });
    });
  });
}

/** Limited concurrency over a list. */
async function pool<T, R>(items: readonly T[], n: number, fn: (x: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      for (;;) {
        const i = next++;
        if (i >= items.length) return;
        out[i] = await fn(items[i]!, i);
      }
    }),
  );
  return out;
}

async function seatRoom(api: Db8Client, admin: Db8Client, agents: Agent[], c: DebateConfigInput) {
  const roomId = await createDebate(admin, c, 'bench');
  const handles: SeatHandle[] = await takeSeats(api, roomId, castSeats(CAST), agents, admin);
  keySigner(handles[0]!, new Uint8Array(randomBytes(32)));
  return { roomId, handles };
}

type Server = Awaited<ReturnType<typeof startServerChild>>;

const connections = new Map<Server, ReturnType<typeof connectOnce>>();
/** The admin link is single-use: one connection (admin session, agents) per server. */
function connect(server: Server) {
  let c = connections.get(server);
  if (!c) {
    c = connectOnce(server);
    connections.set(server, c);
  }
  return c;
}

async function connectOnce(server: Server) {
  const api = new Db8Client({ baseUrl: server.url });
  const admin = api.withToken((await api.adminLogin(server.adminLink.split('#token=')[1]!)).token);
  const agents = await registerAgents(
    api,
    castSeats(CAST).map((s) => `bench-${s}`),
  );
  const forfeitsOf = async (roomId: string) => {
    const v = (await admin.state(roomId)).view as { results?: { stats: Array<{ forfeits: number }> } | null };
    return (v.results?.stats ?? []).reduce((n, x) => n + x.forfeits, 0);
  };
  return { api, admin, agents, forfeitsOf };
}

async function oneRoom(server: Server): Promise<BenchRow[]> {
  const { api, admin, agents, forfeitsOf } = await connect(server);
  const one = config(2_000, 0);
  const t0 = performance.now();
  const solo = await seatRoom(api, admin, agents, one);
  const acts = await playCast(solo.roomId, solo.handles);
  const wall = performance.now() - t0;
  const timers = timersMs(one);
  const room = await admin.getRoom(solo.roomId);
  const forfeits = await forfeitsOf(solo.roomId);
  return [
    { area: AREA, name: 'one room: wall, creation to closed', value: wall, unit: 'ms' },
    {
      area: AREA,
      name: `one room: timers waited out (${room.seq + 1} entries, ${acts.length} actions, ${forfeits} forfeits)`,
      value: timers,
      unit: 'ms',
    },
    {
      area: AREA,
      name: 'one room: wall minus timers',
      value: wall - timers,
      unit: 'ms',
      goal: '< 3,000 ms (7 deadlines at 250 ms watcher granularity included)',
    },
  ];
}

/** ROOMS rooms at once; each room's agents start as soon as its seats are taken (16 set up at a time). */
async function manyRooms(server: Server, store: string): Promise<BenchRow[]> {
  const { api, admin, agents, forfeitsOf } = await connect(server);
  const many = config(5_000, 0);
  const ac = new AbortController();
  const cut = setTimeout(() => ac.abort(), BUDGET_MS);
  const lat: number[] = [];
  let refused = 0;
  const onAct = (r: ActRecord) => {
    if (r.ok) lat.push(r.ms);
    else refused++;
  };
  const s0 = performance.now();
  let setupMs = 0;
  const rooms: Array<{ roomId: string; handles: SeatHandle[] }> = [];
  const plays: Promise<unknown>[] = [];
  const errors: string[] = [];
  await pool(Array.from({ length: ROOMS }), 16, async () => {
    if (ac.signal.aborted) return;
    let r: { roomId: string; handles: SeatHandle[] };
    try {
      r = await seatRoom(api, admin, agents, many);
    } catch (e) {
      errors.push(`setup: ${(e as Error).message}`);
      return;
    }
    rooms.push(r);
    // One signal per room (chained to the budget), so reconnect waits do not pile listeners on one.
    const room = new AbortController();
    setMaxListeners(64, room.signal); // seven seats, each with its stream and reconnect wait
    ac.signal.addEventListener('abort', () => room.abort(), { once: true });
    plays.push(
      playCast(r.roomId, r.handles, { signal: room.signal, onAct }).catch((e: Error) => {
        errors.push(`${r.roomId}: ${e.message}`);
      }),
    );
    setupMs = performance.now() - s0;
  });
  await Promise.all(plays);
  if (errors.length > 0)
    process.stderr.write(`bench: ${AREA} (${store}): ${errors.length} failures, first: ${errors[0]}\n`);
  const runMs = performance.now() - s0;
  clearTimeout(cut);
  const infos = await pool(rooms, 16, (r) => admin.getRoom(r.roomId));
  const closed = infos.filter((r) => r.status === 'closed').length;
  const forfeits = (await pool(rooms, 16, (r) => forfeitsOf(r.roomId))).reduce((a, b) => a + b, 0);
  const entries = infos.reduce((n, r) => n + r.seq + 1, 0);
  lat.sort((a, b) => a - b);
  // Busiest second on the server's own clock (entry timestamps), across every room.
  const perSecond = new Map<number, number>();
  await pool(rooms, 16, async (r) => {
    for await (const e of admin.allEntries(r.roomId)) {
      const sec = Math.floor(e.ts / 1000);
      perSecond.set(sec, (perSecond.get(sec) ?? 0) + 1);
    }
  });
  const peak = Math.max(0, ...perSecond.values());
  const tag = `${ROOMS} rooms, ${store}`;
  return [
    {
      area: AREA,
      name: `${tag}: closed within ${BUDGET_MS / 1000} s (${forfeits} forfeited submissions)`,
      value: closed,
      unit: 'rooms',
      goal: `${ROOMS}`,
    },
    {
      area: AREA,
      name: `${tag}: all created and seated after (${rooms.length * castSeats(CAST).length} joins)`,
      value: setupMs,
      unit: 'ms',
    },
    {
      area: AREA,
      name: `${tag}: entries written (${entries}) / run time (timer-bound)`,
      value: entries / (runMs / 1000),
      unit: 'entries/s',
    },
    { area: AREA, name: `${tag}: entries in the busiest second`, value: peak, unit: 'entries/s' },
    {
      area: AREA,
      name: `${tag}: action round trip p50 (${lat.length} actions, ${refused} refused)`,
      value: pct(lat, 50),
      unit: 'ms',
    },
    {
      area: AREA,
      name: `${tag}: action round trip p99`,
      value: pct(lat, 99),
      unit: 'ms',
      goal: '< 1,000 ms',
    },
    { area: AREA, name: `${tag}: total run`, value: runMs, unit: 'ms', goal: '< 90,000 ms' },
  ];
}

async function pgReachable(url: string): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = createConnection(Number(u.port || 5432), u.hostname, () => {
      s.end();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });
}

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const lite = await startServerChild('pglite');
  try {
    rows.push(...(await oneRoom(lite)), ...(await manyRooms(lite, 'PGlite')));
  } finally {
    await lite.stop();
  }
  if (await pgReachable(PG_URL)) {
    const pg = await startServerChild(PG_URL);
    try {
      rows.push(...(await manyRooms(pg, 'Postgres')));
    } finally {
      await pg.stop();
    }
  } else {
    process.stderr.write(`bench: ${AREA}: no PostgreSQL at ${PG_URL}, skipping the Postgres run\n`);
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await run()) console.log(`${r.name}: ${r.value.toFixed(1)} ${r.unit}`);
}
