import {
  canonicalize,
  formatFailure,
  JOURNAL_TYPE,
  parseJson,
  type StoredEntry,
  verifyBundleText,
} from '@db8/core';
import {
  entriesOfJournal,
  type HandSummary,
  rebuildHand,
  replayTable,
  type TableConfig,
  TableConfigSchema,
  verifyDeckNotes,
} from '../rules/index.ts';

/** What `db8 poker replay` found in an export. */
export interface ReplayReport {
  ok: boolean;
  tableId: string | null;
  entries: number;
  hands: number;
  /** Where the log stops agreeing with the rules (or the record), and why. */
  divergence: { seq?: number; hand?: number; reason: string } | null;
  problems: string[];
  /** 'table' (the admin table export) or 'journal' (a db8-journal bundle, e.g. simulate --journal). */
  format: 'table' | 'journal';
}

interface ExportLines {
  tableId: string | null;
  seed: string | undefined;
  config: TableConfig | null;
  entries: StoredEntry[];
  hands: HandSummary[];
}

function parseLine(line: string, i: number): Record<string, unknown> {
  try {
    return parseJson(line) as Record<string, unknown>;
  } catch (e) {
    throw new Error(`line ${i + 1}: ${(e as Error).message}`);
  }
}

/** A journal bundle starts with a `db8-journal` header; a table export with a `table` line. */
function isJournal(text: string): boolean {
  const first = text.split('\n').find((l) => l.trim() !== '');
  return first !== undefined && parseLine(first, 0).type === JOURNAL_TYPE;
}

/**
 * A journal bundle as replay input: its entries (an admin bundle's sealed payloads put back beside
 * their public form, so the refold can read them). The seed comes from the close entry and
 * there are no recorded hands to compare: the bundle's own checks stand in for them.
 */
function readJournal(text: string): ExportLines {
  const out: ExportLines = { tableId: null, seed: undefined, config: null, entries: [], hands: [] };
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    const rec = parseLine(line, i);
    if (rec.type === JOURNAL_TYPE) out.tableId = typeof rec.room === 'string' ? rec.room : null;
    else if (rec.type === 'entry' && rec.entry && typeof rec.entry === 'object') {
      const entry = rec.entry as ExportLines['entries'][number];
      const sealed = rec.sealed as StoredEntry['sealed'];
      out.entries.push(sealed ? { ...entry, sealed } : entry);
    }
  });
  return out;
}

/** Signatures, hashes and deck notes of a journal bundle, as problems (empty when all hold). */
function journalProblems(text: string): string[] {
  const v = verifyBundleText(text);
  const out = v.failures.map((f) => `journal: ${formatFailure(f)}`);
  const records = text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l, i) => parseLine(l, i));
  const deck = verifyDeckNotes(entriesOfJournal(records));
  out.push(...deck.problems.map((p) => `deck notes: ${p}`));
  return out;
}

function readExport(text: string): ExportLines {
  const out: ExportLines = { tableId: null, seed: undefined, config: null, entries: [], hands: [] };
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    const rec = parseLine(line, i);
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
 * Re-runs a table export (JSONL from /v1/admin/tables/:id/export or `db8 poker simulate --export`)
 * or a journal bundle (`db8 export`, `db8 poker simulate --journal`): refolds every entry through
 * the protocol (chips conserved after each, every deal verified against its commitment and the
 * seed), compares each hand with the recorded one (table export) or checks the bundle's hashes,
 * signatures and deck notes (journal), and re-plays each hand's actions through the engine alone.
 */
export function replayExport(text: string): ReplayReport {
  const journal = isJournal(text);
  const x = journal ? readJournal(text) : readExport(text);
  const report: ReplayReport = {
    ok: false,
    tableId: x.tableId,
    entries: x.entries.length,
    hands: 0,
    divergence: null,
    problems: [],
    format: journal ? 'journal' : 'table',
  };
  const r = replayTable(x.entries, x.seed);
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
  // A journal records no hands of its own: the replayed ones stand for both sides of the comparison.
  const recorded = journal ? r.hands : x.hands;
  for (let i = 0; i < Math.max(r.hands.length, recorded.length); i++) {
    const mine = r.hands[i];
    const theirs = recorded[i];
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
  if (journal) report.problems.push(...journalProblems(text));
  report.ok = report.problems.length === 0;
  if (!report.ok) report.divergence = { reason: report.problems[0]! };
  return report;
}
