import { canonicalize, parseJson } from '@db8/core';
import {
  type HandSummary,
  rebuildHand,
  replayEntriesOf,
  replayTable,
  type TableConfig,
  TableConfigSchema,
} from '@db8/protocols/poker';

/** What `db8 poker replay` found in an export. */
export interface ReplayReport {
  ok: boolean;
  tableId: string | null;
  entries: number;
  hands: number;
  /** Where the log stops agreeing with the rules (or the record), and why. */
  divergence: { seq?: number; hand?: number; reason: string } | null;
  problems: string[];
}

interface ExportLines {
  tableId: string | null;
  seed: string | undefined;
  config: TableConfig | null;
  entries: Array<{
    seq: number;
    kind: string;
    actor: string;
    ts: number;
    payload?: unknown;
    sealed?: { payload: unknown };
  }>;
  hands: HandSummary[];
}

function readExport(text: string): ExportLines {
  const out: ExportLines = { tableId: null, seed: undefined, config: null, entries: [], hands: [] };
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let rec: Record<string, unknown>;
    try {
      rec = parseJson(line) as Record<string, unknown>;
    } catch (e) {
      throw new Error(`line ${i + 1}: ${(e as Error).message}`);
    }
    if (rec.type === 'table') {
      out.tableId = typeof rec.table_id === 'string' ? rec.table_id : null;
      out.seed = typeof rec.seed === 'string' && rec.seed !== '' ? rec.seed : undefined;
      const c = TableConfigSchema.safeParse(rec.config);
      out.config = c.success ? c.data : null;
    } else if (rec.type === 'entry') out.entries.push(rec.entry as ExportLines['entries'][number]);
    else if (rec.type === 'hand') out.hands.push(rec.hand as HandSummary);
  });
  return out;
}

/**
 * Re-runs a table export (JSONL from /v1/admin/tables/:id/export or `db8 poker simulate --export`):
 * refolds every entry through the protocol (chips conserved after each, every deal verified
 * against its commitment and the seed), compares each hand with the recorded one, and re-plays
 * each hand's actions through the engine alone.
 */
export function replayExport(text: string): ReplayReport {
  const x = readExport(text);
  const report: ReplayReport = {
    ok: false,
    tableId: x.tableId,
    entries: x.entries.length,
    hands: 0,
    divergence: null,
    problems: [],
  };
  const r = replayTable(replayEntriesOf(x.entries), x.seed);
  report.hands = r.hands.length;
  report.problems.push(...r.problems);
  if (r.firstDivergence !== undefined) {
    report.divergence = {
      seq: r.firstDivergence,
      reason: (r.problems.at(-1) ?? 'diverges').replace(/^seq \d+: /, ''),
    };
    return report;
  }
  const config = r.state?.config ?? x.config;
  for (let i = 0; i < Math.max(r.hands.length, x.hands.length); i++) {
    const mine = r.hands[i];
    const theirs = x.hands[i];
    if (!mine || !theirs || canonicalize(mine) !== canonicalize(theirs)) {
      const n = (mine ?? theirs)?.number;
      report.divergence = {
        ...(n !== undefined ? { hand: n } : {}),
        reason: !theirs
          ? `hand ${n} is in the log but not in the recorded hands`
          : !mine
            ? `recorded hand ${n} does not follow from the log`
            : `hand ${n} as recorded differs from the replay`,
      };
      return report;
    }
    if (config && !mine.cancelled) {
      try {
        rebuildHand(config, mine);
      } catch (e) {
        report.divergence = { hand: mine.number, reason: (e as Error).message };
        return report;
      }
    }
  }
  report.ok = report.problems.length === 0;
  if (!report.ok) report.divergence = { reason: report.problems[0]! };
  return report;
}
