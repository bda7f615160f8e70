import type { StoredEntry } from '@db8/core';
import type { ModuleRuntime, Store } from '@db8/server/kit';
import {
  type HandSummary,
  handToPhh,
  replayTable,
  type TableConfig,
  type TableReplay,
} from '../rules/index.ts';
import type { PokerTables } from './service.ts';

/** Where a table's log and seed are read from (a module's context, or an app's). */
export interface TableSource {
  runtime: Pick<ModuleRuntime, 'entries'>;
  store: Pick<Store, 'rooms'>;
}

const PAGE = 1000;

/** Every entry of a table as an admin sees it (sealed payloads included), in seq order. */
export async function allEntries(ctx: TableSource, tableId: string): Promise<StoredEntry[]> {
  const out: StoredEntry[] = [];
  for (;;) {
    const page = await ctx.runtime.entries(tableId, { kind: 'admin' }, out.length, PAGE);
    out.push(...page);
    if (page.length < PAGE) return out;
  }
}

export interface TableExport {
  config: TableConfig;
  entries: StoredEntry[];
  replay: TableReplay;
  seed: string;
}

/** The table's log refolded by the protocol: every hand, and whether the log replays cleanly. */
export async function loadTableExport(
  ctx: TableSource,
  tables: PokerTables,
  tableId: string,
): Promise<TableExport> {
  const room = await tables.table(tableId);
  const row = await ctx.store.rooms.get(tableId);
  const seed = row?.seed ?? '';
  const entries = await allEntries(ctx, tableId);
  return {
    config: room.config as TableConfig,
    entries,
    replay: replayTable(entries, seed),
    seed,
  };
}

/**
 * JSONL: a `table` header (config, and the room seed — admin export only; an observer gets it from
 * the close entry), every `entry`, every finished `hand` (with its revealed deck), and a `replay`
 * line saying whether the protocol refolds the log cleanly.
 */
export function toJsonl(tableId: string, title: string | null, x: TableExport): string {
  const lines: object[] = [
    { type: 'table', table_id: tableId, protocol: 'poker', title, config: x.config, seed: x.seed },
    ...x.entries.map((entry) => ({ type: 'entry', entry })),
    ...x.replay.hands.map((hand) => ({ type: 'hand', hand })),
    {
      type: 'replay',
      ok: x.replay.ok,
      hands: x.replay.hands.length,
      problems: x.replay.problems,
      ...(x.replay.firstDivergence !== undefined ? { first_divergence: x.replay.firstDivergence } : {}),
    },
  ];
  return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
}

/** Every finished (not called-off) hand as one PHH `.phhs` document: tables [1], [2], … */
export function toPhhs(config: TableConfig, hands: readonly HandSummary[]): string {
  return hands
    .filter((h) => !h.cancelled)
    .map((h) => `[${h.number}]\n${handToPhh(config, h)}`)
    .join('\n');
}
