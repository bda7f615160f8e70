import { writeFile } from 'node:fs/promises';
import { canonicalize, sha256Hex, utf8Encode } from '@db8/core';
import type { Store } from '@db8/server/kit';
import type { AgentRunResult } from '../agent/index.ts';
import { runAgentProcess, strategyNamed } from '../agent/index.ts';
import type { HandSummary } from '../rules/index.ts';
import { type LocalPokerServer, loadTableExport, startLocalPokerServer, toJsonl } from '../server/index.ts';
import { quantile, seatNets, type WinRate, winRate } from './stats.ts';

export interface SimulateOptions {
  agents: string[];
  hands: number;
  seed: number;
  smallBlind?: number;
  bigBlind?: number;
  stack?: number;
  actionTimeoutMs?: number;
  /** Write the table's JSONL export here (for `db8 poker replay`). */
  exportPath?: string;
  /** Write the room's journal bundle (admin view) here: `db8 verify` and `db8 poker replay` read it. */
  journalPath?: string;
  /** Progress lines (stderr). */
  log?: (line: string) => void;
  /** The store to play on (benchmarks: PGlite on disk); default an in-memory one. */
  store?: Store;
}

export interface SimulateResult {
  tableId: string;
  hands: number;
  /** Wall time, agent processes' start-up included. */
  seconds: number;
  /** Play time: from the last seat taken to the table's last entry (what hands/s is over). */
  playSeconds: number;
  agents: Array<{ name: string; strategy: string; seat: number } & WinRate>;
  latencyMs: { p50: number; p99: number; samples: number };
  chipsConserved: boolean;
  replayOk: boolean;
  problems: string[];
  agentErrors: string[];
}

/**
 * Win rates per agent from the replayed log, not from the hands each agent saw: a seat that joined
 * just before a hand was folded to it never gets that hand's `hand_complete`, and its own tally
 * would leave the blinds that moved unaccounted (heads-up nets not summing to zero).
 */
export function agentRows(
  results: readonly AgentRunResult[],
  hands: readonly HandSummary[],
  bigBlind: number,
): SimulateResult['agents'] {
  return results.map((r) => ({
    name: r.agent,
    strategy: r.strategy,
    seat: r.seat,
    ...winRate(seatNets(hands, r.seat), bigBlind),
  }));
}

/**
 * The room's journal bundle as an admin sees it (sealed actions included, so it replays), one
 * canonical JSON record a line like `db8 export`. The room has closed by now, so its close entry
 * reveals the seed every deck came from.
 */
async function journalText(server: LocalPokerServer, roomId: string): Promise<string> {
  let text = '';
  for await (const record of server.runtime.export(roomId, { kind: 'admin' }))
    text += `${canonicalize(record)}\n`;
  return text;
}

/**
 * Live mode (seed 002 §11.1): a local server in this process, one table with one seat per agent,
 * each agent its own OS process talking REST + WebSocket like any outside agent. Busted seats are
 * topped up by the house so every agent plays every hand. When the table has dealt `hands` hands,
 * the log is replayed through the protocol (chips, deals) and win rates are computed per agent.
 */
/** The table a simulation plays at: one seat per agent, `hands` hands, no pause between them. */
export function tableConfig(opts: SimulateOptions) {
  for (const a of opts.agents) strategyNamed(a);
  if (opts.agents.length < 2 || opts.agents.length > 10) throw new Error('between 2 and 10 agents');
  const bb = opts.bigBlind ?? 10;
  return {
    title: `simulation ${opts.agents.join(',')}`,
    seats: opts.agents.length,
    small_blind: opts.smallBlind ?? 5,
    big_blind: bb,
    ante: 0,
    starting_stack: opts.stack ?? 100 * bb,
    action_timeout_ms: opts.actionTimeoutMs ?? 5000,
    hand_interval_ms: 0,
    max_hands: opts.hands,
    min_players: opts.agents.length,
    max_consecutive_timeouts: null,
  };
}

/** From the last join (every seat taken, the first deal follows) to the last entry, in seconds. */
export function playSeconds(entries: ReadonlyArray<{ kind: string; ts: number }>): number {
  const lastJoin = entries.findLast((e) => e.kind === 'join');
  const end = entries.at(-1);
  return lastJoin && end ? (end.ts - lastJoin.ts) / 1000 : 0;
}

/** Action → ack round trips over every agent. */
export function latencySummary(results: readonly AgentRunResult[]): SimulateResult['latencyMs'] {
  const all = results.flatMap((r) => r.latencies);
  return { p50: quantile(all, 0.5), p99: quantile(all, 0.99), samples: all.length };
}

/**
 * A progress line for a long simulation, at most one per 5 s (a terminal user sees it move; a log
 * stays short): `… <started>/<total> hands`.
 */
export function handProgress(
  log: (line: string) => void,
  total: number,
  clock: () => number = () => performance.now(),
): (started: number) => void {
  let last = Number.NEGATIVE_INFINITY;
  return (started) => {
    const now = clock();
    if (now - last < 5000) return;
    last = now;
    log(`… ${started}/${total} hands`);
  };
}

/** The room seed (64 hex digits) a local simulation's `--seed` gives its table: every deck follows. */
export function tableSeed(seed: number): string {
  return sha256Hex(utf8Encode(`db8/poker-simulate/table/${seed}`));
}

export async function simulate(opts: SimulateOptions): Promise<SimulateResult> {
  const config = tableConfig(opts);
  const log = opts.log ?? (() => {});
  const server = await startLocalPokerServer(opts.store ? { store: opts.store } : {});
  try {
    const bb = config.big_blind;
    const stack = config.starting_stack;
    const { tables } = server.poker;
    // The table's seed comes from --seed too, so one --seed deals the same cards every run.
    const table = await tables.create(config, 'cli:simulate', tableSeed(opts.seed));
    const id = table.table_id;
    log(`table ${id} on ${server.base}: ${opts.agents.length} agent processes, ${opts.hands} hands`);
    // The house tops busted seats back up to a full stack, so the table never waits on a seat.
    const toppedUp = new Set<string>();
    const progress = handProgress(log, opts.hands);
    const off = tables.observe((tableId, _seq, v) => {
      if (tableId !== id) return;
      for (const s of v.seats) {
        const key = `${s.seat}:${v.handsStarted}`;
        if (s.sitOutReason !== 'busted' || toppedUp.has(key)) continue;
        toppedUp.add(key);
        tables.house(id, { kind: 'topUp', seat: s.seat, amount: stack }).catch(() => {});
      }
      progress(v.handsStarted);
    });
    const started = performance.now();
    const results = await Promise.all(
      opts.agents.map((name, i) =>
        runAgentProcess([
          '--url',
          server.base,
          '--table',
          id,
          '--strategy',
          name,
          '--name',
          `${name}-${i}`,
          '--seed',
          String(opts.seed * 1000 + i),
        ]),
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    off();
    const x = await loadTableExport(server.app.db8, tables, id);
    if (opts.exportPath) await writeFile(opts.exportPath, toJsonl(id, table.title, x));
    if (opts.journalPath) await writeFile(opts.journalPath, await journalText(server, id));
    const chipsConserved = !x.replay.problems.some((p) => p.includes('chips not conserved'));
    return {
      tableId: id,
      hands: x.replay.hands.length,
      seconds,
      playSeconds: playSeconds(x.entries),
      agents: agentRows(results, x.replay.hands, bb),
      latencyMs: latencySummary(results),
      chipsConserved,
      replayOk: x.replay.ok,
      problems: x.replay.problems,
      agentErrors: results.flatMap((r) => r.errors.map((e) => `${r.agent}: ${e}`)),
    };
  } finally {
    await server.close();
  }
}

export function formatSimulation(r: SimulateResult): string {
  const sign = (x: number) => (x >= 0 ? `+${x.toFixed(1)}` : x.toFixed(1));
  const rows = r.agents.map(
    (a) =>
      `${a.name.padEnd(14)} ${String(a.seat).padStart(4)} ${String(a.hands).padStart(6)} ${sign(a.bb100).padStart(9)} ${`±${a.ci95.toFixed(1)}`.padStart(9)} ${String(a.net).padStart(8)}`,
  );
  return [
    `table ${r.tableId}: ${r.hands} hands in ${r.playSeconds.toFixed(1)} s of play (${(r.hands / r.playSeconds).toFixed(1)} hands/s; ${r.seconds.toFixed(1)} s with the agents' start-up); chips ${r.chipsConserved ? 'conserved' : 'NOT conserved'}; log replay ${r.replayOk ? 'ok' : 'FAILED'}`,
    `${'agent'.padEnd(14)} ${'seat'.padStart(4)} ${'hands'.padStart(6)} ${'bb/100'.padStart(9)} ${'95% CI'.padStart(9)} ${'chips'.padStart(8)}`,
    ...rows,
    `action→ack latency: p50 ${r.latencyMs.p50.toFixed(1)} ms, p99 ${r.latencyMs.p99.toFixed(1)} ms (${r.latencyMs.samples} actions)`,
    ...r.problems.map((p) => `problem: ${p}`),
    ...r.agentErrors.map((e) => `agent error: ${e}`),
    '',
  ].join('\n');
}
