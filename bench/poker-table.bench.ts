// One poker table, 4 reference agents each in its own process over WebSocket (`db8 poker
// simulate`), against the floor the wire sets: a bare Fastify + ws turn loop with the same number of
// seats, agent processes and actions per hand, and that loop again with one PGlite INSERT per action
// (what durability costs at the least). Ratios, not absolute figures: the machine is shared.
import { spawn } from 'node:child_process';
import { PGlite } from '@electric-sql/pglite';
import websocket from '@fastify/websocket';
import Fastify from 'fastify';
import { simulate } from '../packages/protocols/poker/cli/simulate.ts';
import type { BenchRow } from './types.ts';

// Enough hands that the figure is the table's steady pace, not the JIT's warm-up: at 300 hands db8
// still runs its first few hundred actions unoptimised (~35 hands/s, against ~60 after).
const HANDS = 1000;
export const AGENTS = ['tight', 'random', 'station', 'random'];

// A peer agent: answers every "turn" addressed to its seat at once, as the reference agents do.
const PEER_AGENT = `
const ws = new (require('ws'))(process.argv[1]);
const seat = Number(process.argv[2]);
ws.on('message', (d) => {
  const m = JSON.parse(String(d));
  if (m.type === 'turn' && m.seat === seat) ws.send(JSON.stringify({ type: 'action', seat, token: m.token, kind: 'call' }));
  if (m.type === 'stop') ws.close();
});
`;

/**
 * The bare turn loop: hands of `perHand` actions round the seats; hands/s over `hands` hands. With
 * `insert`, one PGlite INSERT per action before the ack (`true`: in memory; a path: on disk there).
 */
export async function bareLoop(hands: number, perHand: number, insert: boolean | string): Promise<number> {
  const db = insert === false ? null : await PGlite.create(insert === true ? undefined : insert);
  await db?.exec('CREATE TABLE log (seq int PRIMARY KEY, body text NOT NULL)');
  const app = Fastify();
  await app.register(websocket);
  const sockets: Array<{ send(s: string): void }> = [];
  let seq = 0;
  let hand = 0;
  let step = 0;
  let started = 0;
  let resolveDone: (s: number) => void = () => {};
  const done = new Promise<number>((r) => {
    resolveDone = r;
  });
  const broadcast = (m: object) => {
    const text = JSON.stringify(m);
    for (const s of sockets) s.send(text);
  };
  const next = () => broadcast({ type: 'turn', seat: step % AGENTS.length, token: `${hand}.${step}` });
  app.register(async (scope) => {
    scope.get('/ws', { websocket: true }, (socket) => {
      sockets.push(socket);
      socket.on('message', async (d: Buffer) => {
        const m = JSON.parse(String(d)) as { seat: number; token: string; kind: string };
        if (m.token !== `${hand}.${step}`) return;
        seq++;
        if (db) await db.query('INSERT INTO log (seq, body) VALUES ($1, $2)', [seq, String(d)]);
        socket.send(JSON.stringify({ type: 'ack', seq }));
        step++;
        if (step === perHand) {
          step = 0;
          hand++;
          if (hand === hands) {
            broadcast({ type: 'stop' });
            return resolveDone((performance.now() - started) / 1000);
          }
        }
        next();
      });
      if (sockets.length === AGENTS.length) {
        started = performance.now();
        next();
      }
    });
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const procs = AGENTS.map((_, i) =>
    spawn(process.execPath, ['-e', PEER_AGENT, url.replace('http', 'ws') + '/ws', String(i)], {
      stdio: 'ignore',
    }),
  );
  try {
    const seconds = await done;
    return hands / seconds;
  } finally {
    for (const p of procs) p.kill();
    await app.close();
    await db?.close();
  }
}

export async function run(): Promise<BenchRow[]> {
  const sim = await simulate({ agents: AGENTS, hands: HANDS, seed: 1 });
  const perHand = Math.max(1, Math.round(sim.latencyMs.samples / sim.hands));
  // Over play time (every seat taken to the last entry), as the peer is timed from its first turn.
  const db8 = sim.hands / sim.playSeconds;
  const bare = await bareLoop(HANDS, perHand, false);
  const withInsert = await bareLoop(HANDS, perHand, true);
  const area = 'poker table';
  const name = `one table, ${AGENTS.length} agent processes over WebSocket (${perHand} actions/hand)`;
  return [
    {
      area,
      name,
      value: db8,
      unit: 'hands/s',
      peer: 'bare Fastify+ws turn loop',
      peerValue: bare,
      goal: '≥ 100, ≥ 0.35× bare',
    },
    {
      area,
      name,
      value: db8,
      unit: 'hands/s',
      peer: 'bare loop + PGlite INSERT per action',
      peerValue: withInsert,
    },
    // Hands take 9–12 actions from run to run (each table deals from its own random seed): actions/s
    // is the steadier figure of the two.
    {
      area,
      name: 'actions/s, one table (db8 vs the bare loop at the same actions per hand)',
      value: sim.latencyMs.samples / sim.playSeconds,
      unit: 'actions/s',
      peer: 'bare Fastify+ws turn loop',
      peerValue: bare * perHand,
    },
    { area, name: 'db8 / bare turn loop', value: db8 / bare, unit: '×', goal: '≥ 0.35' },
    { area, name: 'action → ack p50 (db8)', value: sim.latencyMs.p50, unit: 'ms' },
    { area, name: 'action → ack p99 (db8)', value: sim.latencyMs.p99, unit: 'ms' },
  ];
}
