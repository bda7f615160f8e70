import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type JournalRecord, journalText, LocalRoom, localJournal, sha256Hex, utf8Encode } from '@db8/core';
import { parse as parseYaml } from 'yaml';
import {
  type ArenaConfig,
  ArenaConfigSchema,
  type ArenaLegal,
  arena,
  type Match,
  type Standings,
  type WinMatrix,
  winMatrixOf,
} from '../rules/index.ts';
import { signedHead } from '../rules/verify-bundles.ts';
import { CostMeter, type CostReport, type Costs, costReport } from './cost.ts';
import { type Game, type Games, gameFor } from './game.ts';
import { writeTables } from './tables.ts';

/**
 * `db8 arena run`: the tournament room and every match room in memory (core's LocalRoom), matches
 * `concurrency` at a time (interleaved in this process: each yields between moves), each finished
 * match's result appended with its signed tree head. The output directory holds the tournament's
 * journal bundle, each match's bundle (matches/<id>.jsonl), the standings and every table as CSV
 * and JSON (tables/) — what `db8 arena verify` checks — and costs.json: what model entrants cost
 * (the runner's own report, not verified). All bundles are signed by one key made for the run
 * (bundles carry it).
 */

export class SpecError extends Error {}

/** A spec file (YAML or JSON) as a tournament config. */
export async function readSpec(path: string): Promise<ArenaConfig> {
  const text = await readFile(path, 'utf8');
  let raw: unknown;
  try {
    raw = /\.ya?ml$/i.test(path) ? parseYaml(text) : JSON.parse(text);
  } catch (e) {
    throw new SpecError(`${path}: not ${/\.ya?ml$/i.test(path) ? 'YAML' : 'JSON'}: ${(e as Error).message}`);
  }
  const r = ArenaConfigSchema.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0]!;
    throw new SpecError(`${path}: ${i.path.join('.') || '(top)'}: ${i.message}`);
  }
  return r.data;
}

export interface RunOptions {
  out: string;
  /** Overrides the spec's concurrency. */
  concurrency?: number;
  /** Progress: called after every finished match. */
  onMatch?: (done: number, total: number, match: Match, line: string) => void;
  /** The ISO time written into bundles (default now). */
  exportedAt?: string;
}

export interface RunResult {
  room: string;
  matches: number;
  standings: Standings;
  matrix: WinMatrix;
  /** What model entrants cost, per match and in total (also costs.json). */
  costs: CostReport;
  out: string;
}

export const TOURNAMENT_FILE = 'tournament.jsonl';
export const STANDINGS_FILE = 'standings.json';
export const COSTS_FILE = 'costs.json';
export const matchFile = (id: string) => join('matches', `${id}.jsonl`);

/** The last checkpoint of a bundle: the signed tree head a result reports. */
export function headOf(records: readonly JournalRecord[]): { size: number; rootHash: string; note: string } {
  const head = signedHead(records);
  if (!head) throw new Error('bundle has no checkpoint');
  return head;
}

/** A stable room id from the tournament's name and seed. */
export function tournamentId(config: ArenaConfig): string {
  return `arena_${sha256Hex(utf8Encode(`${config.name}\u0000${config.seed}`)).slice(0, 12)}`;
}

async function pool<T>(items: readonly T[], n: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
}

const pause = () => new Promise<void>((r) => setImmediate(r));

export async function runTournament(config: ArenaConfig, games: Games, opts: RunOptions): Promise<RunResult> {
  const game = gameFor(games, config);
  if (typeof game === 'string') throw new SpecError(game);
  const key = new Uint8Array(randomBytes(32));
  const exportedAt = opts.exportedAt ?? new Date().toISOString();
  const id = tournamentId(config);
  const seed = () => randomBytes(32).toString('hex');
  const t = new LocalRoom({ protocol: arena, config, seed: seed(), now: Date.now(), id, title: config.name });
  await mkdir(join(opts.out, 'matches'), { recursive: true });
  let done = 0;
  let total = 0;
  const costs: Record<string, Costs> = {};
  for (;;) {
    const due = t.legal('organizer').actions.find((a) => (a as ArenaLegal).type === 'schedule') as
      | Extract<ArenaLegal, { type: 'schedule' }>
      | undefined;
    if (!due) break;
    t.must('organizer', due, Date.now());
    total = t.state.matches.length;
    await pool(due.matches, opts.concurrency ?? config.concurrency, async (match) => {
      const r = await playMatch(game, config, match, `${id}-${match.id}`, key, exportedAt);
      await writeFile(join(opts.out, matchFile(match.id)), journalText(r.records));
      if (Object.keys(r.costs).length > 0) costs[match.id] = r.costs;
      t.must(
        'organizer',
        {
          type: 'result',
          match: match.id,
          room: r.room,
          head: headOf(r.records),
          placements: r.placements,
          ...(r.hands === undefined ? {} : { hands: r.hands }),
        },
        Date.now(),
      );
      done++;
      const fell = Object.entries(r.costs)
        .filter(([, c]) => c.fallbacks > 0)
        .map(([n, c]) => `${n} ${c.fallbacks} fallback${c.fallbacks === 1 ? '' : 's'}`);
      const line = `${match.id}: ${r.placements.map((p) => `${p.entrant} ${p.score >= 0 ? '+' : ''}${p.score}`).join(', ')}${fell.length > 0 ? ` (${fell.join(', ')}: failed call or illegal answer, safe move played)` : ''}`;
      opts.onMatch?.(done, total, match, line);
    });
  }
  t.must('organizer', { type: 'close' }, Date.now());
  const standings = t.result() as Standings;
  await writeFile(
    join(opts.out, TOURNAMENT_FILE),
    journalText(localJournal(t, { key, exportedAt, title: config.name })),
  );
  await writeFile(join(opts.out, STANDINGS_FILE), `${JSON.stringify(standings, null, 2)}\n`);
  await writeTables(opts.out, t.state);
  const report = costReport(costs);
  await writeFile(join(opts.out, COSTS_FILE), `${JSON.stringify(report, null, 2)}\n`);
  return { room: id, matches: total, standings, matrix: winMatrixOf(t.state), costs: report, out: opts.out };
}

async function playMatch(
  game: Game,
  config: ArenaConfig,
  match: Match,
  room: string,
  key: Uint8Array,
  exportedAt: string,
) {
  const r = new LocalRoom({
    protocol: game.protocol,
    config: game.config(config, match),
    seed: match.seed,
    now: Date.now(),
    id: room,
    title: `${config.name}: ${match.id}`,
  });
  const meter = new CostMeter();
  await game.play(r, config, match, pause, meter);
  const placements = game.placements(r.result(), match);
  return {
    room,
    placements,
    hands: game.hands?.(r.result()),
    costs: meter.costs(),
    records: localJournal(r, { key, exportedAt, title: `${config.name}: ${match.id}` }),
  };
}

/** Standings as a table for a terminal. */
export function formatStandings(s: Standings): string {
  const head = `${'entrant'.padEnd(16)} ${'rating'.padStart(7)}  ${'95% interval'.padEnd(15)} ${'W-D-L'.padEnd(11)} ${'points'.padStart(7)} ${'score'.padStart(9)}`;
  const rows = s.rows.map((r) => {
    const ci = r.ci ? `${r.ci[0].toFixed(0)}–${r.ci[1].toFixed(0)}` : '—';
    const wdl = `${r.wins}-${r.draws}-${r.losses}`;
    return `${r.entrant.padEnd(16)} ${r.rating.toFixed(0).padStart(7)}  ${ci.padEnd(15)} ${wdl.padEnd(11)} ${String(r.points).padStart(7)} ${String(r.score).padStart(9)}${r.clearOfNext ? '  (clear of the next)' : ''}`;
  });
  const separated = s.rows.some((r) => r.clearOfNext)
    ? ''
    : '\nnot enough games: no rank is clear of the next at 95%';
  return `${head}\n${rows.join('\n')}\n${s.sets} sets, ${s.games} pairwise games${separated}\n${s.poker ? formatPoker(s.poker) : ''}`;
}

/** bb/100 per entrant with its interval and the hands its edge would need. */
export function formatPoker(p: NonNullable<Standings['poker']>): string {
  const head = `${'entrant'.padEnd(16)} ${'bb/100'.padStart(8)}  ${'95% interval'.padEnd(17)} ${'hands'.padStart(7)}  hands for an interval clear of 0`;
  const rows = p.rows.map((r) => {
    const ci = r.ci ? `${r.ci[0].toFixed(1)} to ${r.ci[1].toFixed(1)}` : '—';
    const clear = r.ci && (r.ci[0] > 0 || r.ci[1] < 0) ? ' (clear of 0)' : '';
    const need = r.handsToExcludeZero === null ? '—' : r.handsToExcludeZero.toLocaleString('en-US');
    return `${r.entrant.padEnd(16)} ${r.bb100.toFixed(1).padStart(8)}  ${ci.padEnd(17)} ${String(r.hands).padStart(7)}  ${need}${clear}`;
  });
  return `\npoker, big blind ${p.bigBlind}:\n${head}\n${rows.join('\n')}\n`;
}

/** The pairwise matrix for a terminal: a row per entrant, its W-D-L against each opponent. */
export function formatMatrix(m: WinMatrix): string {
  const w = Math.max(8, ...m.entrants.map((e) => Math.min(e.length, 16)));
  const cell = (e: string, o: string) => {
    if (e === o) return '—';
    const c = m.cells.find((x) => x.entrant === e && x.opponent === o)!;
    return c.games === 0 ? '·' : `${c.wins}-${c.draws}-${c.losses}`;
  };
  const head = `${'W-D-L vs'.padEnd(16)} ${m.entrants.map((e) => e.slice(0, 16).padStart(w)).join(' ')}`;
  const rows = m.entrants.map(
    (e) => `${e.slice(0, 16).padEnd(16)} ${m.entrants.map((o) => cell(e, o).padStart(w)).join(' ')}`,
  );
  return `\npairwise games (row against column):\n${head}\n${rows.join('\n')}\n`;
}
