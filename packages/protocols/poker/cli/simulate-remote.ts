import { Remote } from '@db8/cli/kit-run';
import { parseJson } from '@db8/core';
import { z } from 'zod';
import { runAgentProcess } from '../agent/index.ts';
import { PokerSocket } from '../client/index.ts';
import { GameStatePayloadSchema, type HandSummary, TableSummarySchema } from '../rules/index.ts';
import { replayExport } from './replay.ts';
import {
  agentRows,
  handProgress,
  latencySummary,
  playSeconds,
  type SimulateOptions,
  type SimulateResult,
  tableConfig,
} from './simulate.ts';

/**
 * `db8 poker simulate --url`: the same simulation on a running server, so it can be watched in the
 * web app. The CLI's session must be an admin's (it opens the table, tops busted seats up and reads
 * the admin export); the agents register and join like any outside agent. The export is replayed
 * here, with the same checks as `db8 poker replay`.
 */
export async function simulateRemote(opts: SimulateOptions & { url: string }): Promise<SimulateResult> {
  const log = opts.log ?? (() => {});
  const remote = new Remote(opts.url);
  const admin = await remote.client();
  const config = tableConfig(opts);
  const created = await remote.call(() => admin.request(TableSummarySchema, 'POST', '/v1/tables', config));
  const id = created.table_id;
  log(`table ${id} on ${remote.url}: watch it at ${remote.url}/tables/${id}`);
  // The house tops a busted seat back up once per hand, so the table never waits on it.
  const watcher = PokerSocket.open({ url: remote.url, tableId: id });
  const toppedUp = new Set<string>();
  const progress = handProgress(log, opts.hands);
  watcher.on((m) => {
    if (m.type !== 'game_state') return;
    const gs = GameStatePayloadSchema.safeParse(m.payload);
    if (!gs.success) return;
    progress(gs.data.hand_number);
    for (const s of gs.data.seats) {
      const key = `${s.seat_id}:${gs.data.hand_number}`;
      if (s.status !== 'sittingOut' || s.stack > 0 || toppedUp.has(key)) continue;
      toppedUp.add(key);
      void admin
        .request(z.unknown(), 'POST', `/v1/admin/tables/${id}/top-up`, {
          seat_id: s.seat_id,
          amount: config.starting_stack,
        })
        .catch(() => {});
    }
  });
  const started = performance.now();
  try {
    const results = await Promise.all(
      opts.agents.map((name, i) =>
        runAgentProcess([
          '--url',
          remote.url,
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
    const text = await remote.call(async () =>
      (await admin.raw('GET', `/v1/admin/tables/${id}/export`)).text(),
    );
    const report = replayExport(text);
    // The export's recorded hands: replayExport has checked them against the log.
    const hands = text
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => parseJson(l) as { type?: string; hand?: HandSummary })
      .flatMap((r) => (r.type === 'hand' && r.hand ? [r.hand] : []));
    return {
      tableId: id,
      hands: report.hands,
      seconds,
      playSeconds: playSeconds(
        text
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map((l) => parseJson(l) as { type?: string; entry?: { kind: string; ts: number } })
          .flatMap((r) => (r.type === 'entry' && r.entry ? [r.entry] : [])),
      ),
      agents: agentRows(results, hands, opts.bigBlind ?? 10),
      latencyMs: latencySummary(results),
      chipsConserved: !report.problems.some((p) => p.includes('chips not conserved')),
      replayOk: report.ok,
      problems: report.problems,
      agentErrors: results.flatMap((r) => r.errors.map((e) => `${r.agent}: ${e}`)),
    };
  } finally {
    watcher.close();
  }
}
