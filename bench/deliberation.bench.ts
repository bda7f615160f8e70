// A full deliberation — 3 rounds × 8 phases, 6 scripted seats (early stop off) — three ways in one
// run: through the drivers' turn code and the scripted provider on a LocalRoom (the signed, hashed
// log `db8 deliberate` keeps), on a real server (POST /v1/debates, the driver host, the storage
// projection), and the peer: the same run of the pure protocol folded in memory with the protocol's
// own scripted seat (no provider, no log, no server).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProvider } from '../packages/agents/src/index.ts';
import { startServer } from '../packages/app/src/server.ts';
import {
  type DeliberationState,
  deliberation,
  isOver,
  readyNow,
  scriptedAction,
} from '../packages/protocols/deliberation/rules/index.ts';
import {
  deliberationScript,
  runLocalDeliberation,
  scriptedText,
} from '../packages/protocols/deliberation/server/index.ts';
import type { BenchRow } from './types.ts';

const SEATS = [
  ['ana', 'architect', 9.5],
  ['ben', 'critic', 9.1],
  ['cai', 'reviewer', 8.7],
  ['dee', 'optimizer', 8.6],
  ['eli', 'red_team', 8.2],
  ['fay', 'blue_team', 7.9],
] as const;
const SEED = 'cd'.repeat(32);

function config(provider: string, model: string) {
  return {
    sessionId: 'bench_delib',
    topic: 'Design a rate limiter for the public API',
    seats: SEATS.map(([id, role, score]) => ({ id, role, score, provider, model })),
    maxRounds: 3,
    earlyStop: false,
    topology: 'graph_mesh',
    coordination: 'cpde',
    timeoutMs: 7 * 86_400_000,
    phaseTimeoutMs: 86_400_000,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The pure protocol: setup, then apply each seat's scriptedAction (schemas parsed), in memory. */
function pureFold(): { ms: number; inputs: number; state: DeliberationState } {
  const t0 = performance.now();
  const cfg = deliberation.configSchema.parse(config('scripted', 'scripted:default'));
  let now = Date.UTC(2026, 0, 1);
  let state = deliberation.setup(cfg, { seats: deliberation.seats(cfg), seed: SEED, now });
  let seq = 1;
  let inputs = 0;
  while (!isOver(state)) {
    const ready = readyNow(state);
    if (ready.length === 0) {
      const due = deliberation.deadline(state);
      const t = due === null ? null : deliberation.tick(state, due, seq);
      if (!t) break;
      state = t.state;
      seq++;
      continue;
    }
    for (const seat of ready) {
      now += 1;
      const legal = deliberation.legal(state, seat);
      if (!legal.turnToken) continue;
      const action = scriptedAction(deliberation.view(state, { kind: 'seat', seat }), legal, {
        text: scriptedText,
      });
      const r = deliberation.apply(state, {
        seat,
        action: deliberation.actionSchema.parse(action),
        now,
        seq,
      });
      if (!r.ok) throw new Error(`${seat}: ${r.error.code}`);
      state = r.state;
      seq++;
      inputs++;
    }
  }
  return { ms: performance.now() - t0, inputs, state };
}

async function localRun() {
  const provider = () => createProvider({ provider: 'scripted', script: deliberationScript, env: {} });
  const providers = Object.fromEntries(SEATS.map(([id]) => [id, provider()]));
  const t0 = performance.now();
  const run = await runLocalDeliberation({
    config: config('scripted', 'scripted:default'),
    providers,
    seed: SEED,
  });
  return { ms: performance.now() - t0, entries: run.room.entries.length, run };
}

async function serverRun(): Promise<{ ms: number; entries: number; status: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'db8-bench-delib-'));
  const server = await startServer({
    port: 0,
    dataDir: dir,
    env: false,
    logLevel: 'silent',
    print: () => {},
  } as never);
  try {
    const token = new URL(server.adminLink!).hash.replace('#token=', '');
    const login = await fetch(`${server.url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    const admin = ((await login.json()) as { token: string }).token;
    const api = async (method: string, path: string, body?: unknown) =>
      (await fetch(`${server.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${admin}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      }).then((r) => r.json())) as Record<string, unknown>;
    const t0 = performance.now();
    const created = await api('POST', '/v1/debates', {
      topic: 'Design a rate limiter for the public API',
      participants: SEATS.map(([name, role, score]) => ({ name, role, score, provider: 'scripted' })),
      max_rounds: 3,
      early_stop: false,
      topology_type: 'graph_mesh',
      coordination_protocol: 'cpde',
    });
    const id = String(created.id);
    let status = '';
    for (let i = 0; i < 6000; i++) {
      status = String((await api('GET', `/v1/debates/${id}/status`)).status);
      if (['completed', 'failed', 'cancelled'].includes(status)) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const ms = performance.now() - t0;
    const audit = await api('GET', `/v1/debates/${id}/audit`);
    return { ms, entries: Number(audit.total_events), status };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<BenchRow[]> {
  // Warm up (JIT, module loading), then the median of five of each.
  pureFold();
  await localRun();
  const pure = Array.from({ length: 5 }, () => pureFold());
  const local: Awaited<ReturnType<typeof localRun>>[] = [];
  for (let i = 0; i < 5; i++) local.push(await localRun());
  const check = local[0]!.run.state;
  if (check.status !== 'completed' || check.rounds.length !== 3 || check.phases.length !== 24)
    throw new Error(`not a full 3-round, 8-phase run: ${check.status}, ${check.rounds.length} rounds`);
  const pureMs = median(pure.map((p) => p.ms));
  const localMs = median(local.map((l) => l.ms));
  const entries = local[0]!.entries;
  const inputs = pure[0]!.inputs;
  const server = await serverRun();
  return [
    {
      area: 'deliberation',
      name: `3 rounds × 8 phases, 6 scripted seats: drivers' turn code + scripted provider on a LocalRoom, ${entries} log entries (median of 5)`,
      value: localMs,
      unit: 'ms',
      peer: `pure protocol fold in memory, ${inputs} inputs`,
      peerValue: pureMs,
    },
    {
      area: 'deliberation',
      name: 'same run: log entries per second (LocalRoom) vs inputs per second (pure fold)',
      value: entries / (localMs / 1000),
      unit: 'entries/s',
      peer: 'pure protocol fold',
      peerValue: inputs / (pureMs / 1000),
    },
    {
      area: 'deliberation',
      name: `same run on a server: POST /v1/debates → ${server.status}, driver host + storage projection (${server.entries} entries)`,
      value: server.ms,
      unit: 'ms',
      peer: 'LocalRoom run (above)',
      peerValue: localMs,
    },
    {
      area: 'deliberation',
      name: 'same run on a server: entries per second',
      value: server.entries / (server.ms / 1000),
      unit: 'entries/s',
      peer: 'LocalRoom run',
      peerValue: entries / (localMs / 1000),
    },
  ];
}
