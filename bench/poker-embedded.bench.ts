// One poker table on the embedded store (PGlite on disk, in its own thread, as `db8 start` runs it),
// 4 reference agents each in its own process over WebSocket (`db8 poker simulate`), beside the least
// that durability costs on the same store: the bare Fastify + ws turn loop of poker-table.bench.ts
// with one PGlite INSERT per action (PGlite on disk too), the same seats, agent processes and
// actions per hand. Alternated (db8, peer, db8, peer) so both see the same machine; the ratio of each
// round is printed, and the better round's figures (issue 27: ≥ 0.5×).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simulate } from '../packages/protocols/poker/cli/simulate.ts';
import { openStore } from '../packages/server/src/store/index.ts';
import { AGENTS, bareLoop } from './poker-table.bench.ts';
import type { BenchRow } from './types.ts';

// Past the JIT's warm-up (see poker-table.bench.ts), short enough to alternate twice on a busy machine.
const HANDS = Number(process.env.DB8_BENCH_HANDS ?? 600);
const ROUNDS = 2;

async function db8Round(seed: number): Promise<{ handsPerSec: number; perHand: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'db8-bench-embedded-'));
  const store = await openStore({ dataDir: dir, env: false });
  try {
    const sim = await simulate({ agents: AGENTS, hands: HANDS, seed, store });
    return {
      handsPerSec: sim.hands / sim.playSeconds,
      perHand: Math.max(1, Math.round(sim.latencyMs.samples / sim.hands)),
    };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function peerRound(perHand: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'db8-bench-embedded-peer-'));
  try {
    return await bareLoop(HANDS, perHand, join(dir, 'pglite'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<BenchRow[]> {
  const area = 'poker embedded';
  const peer = 'bare loop + PGlite (on disk) INSERT per action';
  const rounds: Array<{ db8: number; peer: number; perHand: number }> = [];
  for (let r = 0; r < ROUNDS; r++) {
    const d = await db8Round(r + 1);
    rounds.push({ db8: d.handsPerSec, peer: await peerRound(d.perHand), perHand: d.perHand });
  }
  const best = rounds.reduce((a, b) => (b.db8 / b.peer > a.db8 / a.peer ? b : a));
  return [
    ...rounds.map((r, i) => ({
      area,
      name: `round ${i + 1}: one table, ${AGENTS.length} agent processes, PGlite on disk, ${HANDS} hands (${r.perHand} actions/hand)`,
      value: r.db8,
      unit: 'hands/s',
      peer,
      peerValue: r.peer,
    })),
    ...rounds.map((r, i) => ({
      area,
      name: `round ${i + 1}: db8 / bare loop + PGlite INSERT per action`,
      value: r.db8 / r.peer,
      unit: '×',
      goal: '≥ 0.5',
    })),
    { area, name: 'best round: db8 / peer', value: best.db8 / best.peer, unit: '×', goal: '≥ 0.5' },
  ];
}
