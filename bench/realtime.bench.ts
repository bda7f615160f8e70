// WebSocket fan-out: p50/p99 latency from a REST append to each of 1,000 subscribers of one room
// receiving that entry's push, on a real server (startServer: Fastify, runtime, LocalBus) with
// PGlite on disk and with PostgreSQL (a throwaway schema): subscribers that follow entries only
// (one frame per append, like the peer's), then default subscribers that also get the room's state
// after each entry. The subscribers and the appender run in a child process
// (bench/realtime-clients.ts) so one clock times both ends and the clients' JSON parsing is not
// charged to the server's event loop. Peer: the same push, same size, broadcast by a bare `ws`
// server to 1,000 sockets with no db8 in between; beside default subscribers, that push and a second
// message the size of db8's state. Each peer runs after each db8 run and is pooled (the machine
// drifts over a run). Figures only; nothing asserts.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Db8Client } from '@db8/sdk';
import { postgresDriver, type StartOptions } from '@db8/server';
import { startServer } from '../packages/app/src/server.ts';
import { runChild } from './child.ts';
import type { RunResult, RunSpec } from './realtime-clients.ts';
import type { BenchRow } from './types.ts';

const AREA = 'realtime';
const PG_URL = process.env.DB8_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SUBSCRIBERS = Number(process.env.DB8_BENCH_SUBSCRIBERS ?? 1000);
const APPENDS = 200;
// Untimed appends first, on both sides: the first few fan-outs run unoptimised code (50–100 ms
// against ~20 after), and 3 slow appends of 200 are the whole p99.
const WARMUP = 20;
/** Per target; the whole file stays well under a minute of appending even when fan-out is slow. */
const BUDGET_MS = 15_000;
const PUSH_TIMEOUT_MS = 5_000;
const GOAL = '< 100 ms';
const CLIENTS = new URL('./realtime-clients.ts', import.meta.url);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

/** Run the clients child with `spec`; resolves with its measurements. */
function runClients(spec: RunSpec): Promise<RunResult> {
  return runChild<RunSpec, RunResult>(CLIENTS, spec, spec.budgetMs + 120_000);
}

function rows(label: string, r: RunResult, peer?: RunResult, withState = false): BenchRow[] {
  const send = [...r.fromSend].sort((a, b) => a - b);
  const ack = [...r.fromAck].sort((a, b) => a - b);
  const ps = peer ? [...peer.fromSend].sort((a, b) => a - b) : null;
  const withPeer = (p: number) =>
    ps
      ? {
          peer: `bare ws broadcast (${SUBSCRIBERS} sockets${withState ? ', entry + state-sized message' : ''})`,
          peerValue: percentile(ps, p),
        }
      : {};
  const rtt = [...r.appendRtt].sort((a, b) => a - b);
  return [
    {
      area: AREA,
      name: `${label}: append -> push p50, ${SUBSCRIBERS} subs`,
      value: percentile(send, 50),
      unit: 'ms',
      ...withPeer(50),
    },
    {
      area: AREA,
      name: `${label}: append -> push p99, ${SUBSCRIBERS} subs`,
      value: percentile(send, 99),
      unit: 'ms',
      ...withPeer(99),
      goal: GOAL,
    },
    {
      area: AREA,
      name: `${label}: ack -> push p99 (after the append returned)`,
      value: percentile(ack, 99),
      unit: 'ms',
    },
    {
      area: AREA,
      name: `${label}: append round trip p50 (while fanning out)`,
      value: percentile(rtt, 50),
      unit: 'ms',
    },
    {
      area: AREA,
      name: `${label}: appends fanned out (of ${APPENDS}, ${BUDGET_MS / 1000} s budget)`,
      value: r.appendsDone,
      unit: 'appends',
    },
    {
      area: AREA,
      name: `${label}: pushes missed (> ${PUSH_TIMEOUT_MS / 1000} s)`,
      value: r.missed,
      unit: 'pushes',
    },
    {
      area: AREA,
      name: `${label}: connect + subscribe ${SUBSCRIBERS} sockets`,
      value: r.connectMs,
      unit: 'ms',
    },
  ];
}

/**
 * A db8 server, a sealed-bid room, one seated bidder; the clients append bids and time the pushes.
 * `state: false`: the subscribers follow entries only (one frame per append, as the peer sends);
 * true: a default subscription, each entry followed by the room's state.
 */
async function measureDb8(
  label: string,
  opts: Omit<StartOptions, 'modules'>,
  state: boolean,
): Promise<RunResult> {
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    env: false,
    print: () => {},
    logLevel: 'warn',
    adminLink: true,
    // One IP opens a thousand sockets and one principal appends a few hundred times a minute.
    rateLimit: { max: 1_000_000, windowMs: 60_000 },
    authRateLimit: { max: 1_000_000, windowMs: 60_000 },
    ...opts,
  });
  try {
    const api = new Db8Client({ baseUrl: server.url });
    const linkToken = new URL(server.adminLink!).hash.replace(/^#token=/, '');
    const admin = api.withToken((await api.adminLogin(linkToken)).token);
    const day = 24 * 3600 * 1000;
    const room = await admin.createRoom({
      protocol: 'sealed-bid',
      title: `bench ${label}`,
      config: {
        item: 'fan-out',
        bidders: 2,
        reservePrice: 1,
        biddingWindowMs: day,
        revealWindowMs: day,
        rule: 'first-price',
      },
    });
    const agent = await api.registerAgent({ name: 'bench-bidder' });
    const joined = await api.withToken(agent.api_key).join(room.room_id, { seat: 'bidder_1' });
    return await runClients({
      target: 'db8',
      wsUrl: `${server.url.replace(/^http/, 'ws')}/v1/ws`,
      appendUrl: `${server.url}/v1/rooms/${room.room_id}/actions`,
      // Bidder 1 re-bids: every bid is a new sealed entry and bidding stays open (bidder 2 never bids).
      appendBody: { seat: 'bidder_1', action: { type: 'bid', amount: 50 }, client_nonce: 'bench-{i}' },
      token: joined.session_token,
      roomId: room.room_id,
      state,
      subscribers: SUBSCRIBERS,
      appends: APPENDS,
      warmup: WARMUP,
      budgetMs: BUDGET_MS,
      pushTimeoutMs: PUSH_TIMEOUT_MS,
    });
  } finally {
    await server.close();
  }
}

interface WsServerLike {
  clients: Set<{ readyState: number; send(d: string): void; terminate(): void }>;
  close(cb?: () => void): void;
}

/**
 * The floor: a bare `ws` server that broadcasts a push of the same size on each POST — and, when
 * `stateBytes` is set, a second message of that size after it, as db8 sends a default subscriber.
 */
async function measurePeer(pushBytes: number, stateBytes = 0): Promise<RunResult> {
  const wsName = 'ws';
  const { WebSocketServer } = (await import(wsName)) as {
    WebSocketServer: new (o: { server: unknown; perMessageDeflate: boolean }) => WsServerLike;
  };
  let seq = 0;
  const http = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seq++;
      const base = {
        type: 'entry',
        room_id: 'peer',
        seq,
        ts: new Date().toISOString(),
        payload: { pad: '' },
      };
      const pad = Math.max(0, pushBytes - JSON.stringify(base).length);
      base.payload.pad = 'x'.repeat(pad);
      const text = JSON.stringify(base);
      const state =
        stateBytes > 0
          ? JSON.stringify({
              ...base,
              type: 'state',
              payload: { pad: 'x'.repeat(Math.max(0, stateBytes - text.length + pad)) },
            })
          : null;
      for (const c of wss.clients) {
        if (c.readyState !== 1) continue;
        c.send(text);
        if (state !== null) c.send(state);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ seq }));
    });
  });
  const wss = new WebSocketServer({ server: http, perMessageDeflate: false });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const { port } = http.address() as AddressInfo;
  try {
    return await runClients({
      target: 'peer',
      wsUrl: `ws://127.0.0.1:${port}/`,
      appendUrl: `http://127.0.0.1:${port}/append`,
      appendBody: { n: '{i}' },
      subscribers: SUBSCRIBERS,
      appends: APPENDS,
      warmup: WARMUP,
      budgetMs: BUDGET_MS,
      pushTimeoutMs: PUSH_TIMEOUT_MS,
    });
  } finally {
    for (const c of wss.clients) c.terminate();
    await new Promise<void>((r) => wss.close(() => r()));
    await new Promise<void>((r) => http.close(() => r()));
  }
}

/** The peer's runs pooled into one: it is measured at the start, middle and end of the file. */
function pooled(runs: RunResult[]): RunResult {
  const [first] = runs;
  if (!first) throw new Error('no peer run');
  return {
    ...first,
    fromSend: runs.flatMap((r) => r.fromSend),
    fromAck: runs.flatMap((r) => r.fromAck),
    appendRtt: runs.flatMap((r) => r.appendRtt),
    missed: runs.reduce((a, r) => a + r.missed, 0),
  };
}

export async function run(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'db8-bench-rt-'));
  let pglite: RunResult;
  let pgliteState: RunResult;
  // The machine drifts over a run: each kind of peer is measured beside each db8 run, and pooled.
  const peers: RunResult[] = [];
  const statePeers: RunResult[] = [];
  try {
    pglite = await measureDb8('pglite', { dataDir: dir }, false);
    peers.push(await measurePeer(pglite.pushBytes));
    pgliteState = await measureDb8('pglite', { dataDir: dir }, true);
    statePeers.push(await measurePeer(pgliteState.pushBytes, pgliteState.stateBytes));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const schema = `db8_bench_rt_${process.pid}_${Date.now().toString(36)}`;
  const admin = postgresDriver(PG_URL, { max: 1 });
  await admin.exec(`CREATE SCHEMA ${schema}`);
  const keyDir = mkdtempSync(join(tmpdir(), 'db8-bench-rt-key-'));
  let postgres: RunResult;
  let postgresState: RunResult;
  try {
    const pg = { dataDir: keyDir, databaseUrl: PG_URL, pgSchema: schema };
    postgres = await measureDb8('postgres', pg, false);
    peers.push(await measurePeer(postgres.pushBytes));
    postgresState = await measureDb8('postgres', pg, true);
    statePeers.push(await measurePeer(postgresState.pushBytes, postgresState.stateBytes));
  } finally {
    rmSync(keyDir, { recursive: true, force: true });
    await admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.close();
  }
  const peer = pooled(peers);
  const statePeer = pooled(statePeers);
  return [
    ...rows('pglite', pglite, peer),
    ...rows('pglite, entry + state', pgliteState, statePeer, true),
    ...rows('postgres', postgres, peer),
    ...rows('postgres, entry + state', postgresState, statePeer, true),
  ];
}
