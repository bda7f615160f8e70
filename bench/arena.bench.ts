// A 100-match tournament's wall time (issue 28), as `db8 arena run` plays it — matches interleaved,
// `concurrency` at a time — beside the same 100 matches played one by one (concurrency 1), same
// process, same seeds, same output files. Scripted matches are CPU-bound in one process, so the
// two are expected to be close: interleaving pays where matches wait (model or outside agents).
// Then the server-run figure: the sealed-bid tournament played by two server nodes sharing one
// PostgreSQL (and NATS when one answers) beside one node, in the same run (bench/arena-cluster.ts);
// skipped, with a line on stderr, when no PostgreSQL answers at DB8_BENCH_DATABASE_URL.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ArenaConfigInput } from '@db8/arena';
import { ArenaConfigSchema } from '@db8/arena';
import { runTournament } from '@db8/arena/cli/run.ts';
import { arenaGames } from '../packages/app/src/arena-games.ts';
import { clusterRun, NATS_URL, PG_URL, reachable } from './arena-cluster.ts';
import type { BenchRow } from './types.ts';

const AREA = 'arena';

const SPECS: Record<string, ArenaConfigInput> = {
  // 5 entrants, every pair 10 times: 10 × 10 = 100 sealed-bid matches.
  'sealed-bid round robin': {
    name: 'bench sealed-bid',
    game: 'sealed-bid',
    format: { kind: 'round-robin', games: 10 },
    entrants: ['truthful', 'shade', 'lowball', 'truthful', 'shade'].map((strategy, i) => ({
      name: `${strategy}-${i}`,
      kind: 'scripted' as const,
      strategy,
    })),
    seed: 'bench',
    concurrency: 8,
    bootstrap: 100,
  },
  // 50 duplicate sets × 2 seat rotations = 100 heads-up matches of 20 hands.
  'duplicate poker': {
    name: 'bench duplicate',
    game: 'poker',
    gameConfig: { hands: 20, bigBlind: 10 },
    format: { kind: 'duplicate-poker', deals: 50 },
    entrants: [
      { name: 'tight', kind: 'scripted', strategy: 'tight' },
      { name: 'random', kind: 'scripted', strategy: 'random' },
    ],
    seed: 'bench',
    concurrency: 8,
    bootstrap: 100,
  },
};

async function wallMs(
  config: ArenaConfigInput,
  concurrency: number,
): Promise<{ ms: number; matches: number }> {
  const out = await mkdtemp(join(tmpdir(), 'db8-bench-arena-'));
  try {
    const t = performance.now();
    const r = await runTournament(ArenaConfigSchema.parse(config), arenaGames, { out, concurrency });
    return { ms: performance.now() - t, matches: r.matches };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const [name, spec] of Object.entries(SPECS)) {
    await wallMs(spec, 1); // warm-up: JIT and module loading are not the tournament's
    // Alternated, best of three each, so neither side gets the quieter moment of a shared machine.
    const together: number[] = [];
    const single: number[] = [];
    let matches = 0;
    for (let i = 0; i < 3; i++) {
      const a = await wallMs(spec, spec.concurrency ?? 8);
      const b = await wallMs(spec, 1);
      together.push(a.ms);
      single.push(b.ms);
      matches = a.matches;
    }
    rows.push({
      area: AREA,
      name: `${name}: ${matches} matches, ${spec.concurrency} at once (wall)`,
      value: Math.min(...together),
      unit: 'ms',
      peer: 'the same matches one by one',
      peerValue: Math.min(...single),
    });
  }
  rows.push(...(await serverRows()));
  return rows;
}

/** Runs of each side, alternated; the best of each is reported. */
const SERVER_RUNS = Number(process.env.DB8_BENCH_ARENA_SERVER_RUNS ?? 2);

async function serverRows(): Promise<BenchRow[]> {
  if (!(await reachable(PG_URL, 5432))) {
    process.stderr.write(`bench: ${AREA}: no PostgreSQL at ${PG_URL}, skipping the server-run figures\n`);
    return [];
  }
  const nats = await reachable(NATS_URL, 4222);
  const spec = SPECS['sealed-bid round robin']!;
  const one: number[] = [];
  const two: number[] = [];
  let matches = 0;
  let split = '';
  for (let i = 0; i < SERVER_RUNS; i++) {
    one.push((await clusterRun(spec, 1, nats)).ms);
    const r = await clusterRun(spec, 2, nats);
    two.push(r.ms);
    matches = r.matches;
    split = Object.values(r.byNode).join(' + ');
  }
  return [
    {
      area: AREA,
      name:
        `sealed-bid round robin on the server: ${matches} matches, ${spec.concurrency} at once, two nodes ` +
        `on one Postgres${nats ? ' and NATS' : ''} (wall, best of ${SERVER_RUNS}; last split ${split})`,
      value: Math.min(...two),
      unit: 'ms',
      peer: 'one server node',
      peerValue: Math.min(...one),
    },
  ];
}
