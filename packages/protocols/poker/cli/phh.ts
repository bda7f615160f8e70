// `db8 poker phh <dir>`: replay every hand of a folder of PHH files (.phh, .phhs) through the engine
// and compare the stacks it ends with against each file's `finishing_stacks`, so anyone can check the
// engine against another engine's hands (docs/poker.md#phh).
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { utf8Decode } from '@db8/core';
import { type PhhHand, parseToml, phhConfig, phhHandOf, phhScale, replayPhh } from '../rules/index.ts';

/** One hand that did not check out: which, and why. */
export type PhhProblem = {
  /** The file relative to the folder, with `[n]` for a hand of a `.phhs` file. */
  hand: string;
  kind: 'mismatch' | 'illegal' | 'unreadable';
  reason: string;
};

export type PhhReport = {
  files: number;
  /** Hands read (every hand of every file that parsed). */
  hands: number;
  /** Replayed and ended with the file's finishing_stacks. */
  matched: number;
  /** Replayed but ended with other stacks. */
  mismatched: number;
  /** The engine refused an action (or the hand's amounts), so the hand did not replay. */
  illegal: number;
  /** Replayed legally; the file records no finishing_stacks to compare. */
  unchecked: number;
  /** Not no-limit hold'em, or with infinite stacks: outside what the engine plays. */
  skipped: number;
  /** Files that are not TOML or not UTF-8, and hands with missing or mistyped fields. */
  unreadable: number;
  problems: PhhProblem[];
};

const PHH_FILE = /\.phhs?$/;

/** Every .phh/.phhs file under `root` (or `root` itself if it is a file), in name order. */
async function phhFiles(root: string): Promise<string[]> {
  if (!(await stat(root)).isDirectory()) return [root];
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.isDirectory()) await walk(path);
      else if (e.isFile() && PHH_FILE.test(e.name)) out.push(path);
    }
  };
  await walk(root);
  return out;
}

type Table = ReturnType<typeof parseToml>;
const isTable = (v: unknown): v is Table => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A `.phh` file is one hand at the top level; a `.phhs` file holds tables [1], [2], …. */
function tablesOf(path: string, text: string): { name: string; table: Table }[] {
  const root = parseToml(text);
  if (!path.endsWith('.phhs')) return [{ name: '', table: root }];
  return Object.entries(root).flatMap(([k, v]) => (isTable(v) ? [{ name: `[${k}]`, table: v }] : []));
}

const list = (xs: readonly number[]) => `[${xs.join(', ')}]`;

type Outcome = { kind: 'matched' } | { kind: 'unchecked' } | { kind: 'skipped' } | PhhProblem;

function checkHand(name: string, table: Table): Outcome {
  // Other variants carry other fields (fixed-limit bets, …): recognise them before reading the hand.
  if (table.variant !== 'NT') return { kind: 'skipped' };
  let hand: PhhHand;
  let scale: number;
  try {
    hand = phhHandOf(table);
  } catch (e) {
    return { hand: name, kind: 'unreadable', reason: (e as Error).message };
  }
  try {
    scale = phhScale(hand);
    phhConfig(hand, scale);
  } catch {
    return { kind: 'skipped' }; // `inf` stacks (iPoker files): not a game with a finish
  }
  let stacks: number[];
  try {
    stacks = replayPhh(hand).state.stacks;
  } catch (e) {
    return { hand: name, kind: 'illegal', reason: (e as Error).message };
  }
  const want = hand.finishingStacks;
  if (!want) return { kind: 'unchecked' };
  const got = stacks.map((x) => x / scale);
  const same = want.length === got.length && want.every((w, i) => Math.abs(w - got[i]!) < 1e-9);
  if (same) return { kind: 'matched' };
  return { hand: name, kind: 'mismatch', reason: `ends with ${list(got)}, the file says ${list(want)}` };
}

/** Replays every hand under `root`. Throws only when `root` itself cannot be read. */
export async function checkPhhDir(root: string): Promise<PhhReport> {
  const files = await phhFiles(root);
  const r: PhhReport = {
    files: files.length,
    hands: 0,
    matched: 0,
    mismatched: 0,
    illegal: 0,
    unchecked: 0,
    skipped: 0,
    unreadable: 0,
    problems: [],
  };
  for (const path of files) {
    const name = relative(root, path) || path;
    let tables: { name: string; table: Table }[];
    try {
      tables = tablesOf(path, utf8Decode(new Uint8Array(await readFile(path))));
    } catch (e) {
      r.unreadable++;
      r.problems.push({ hand: name, kind: 'unreadable', reason: (e as Error).message });
      continue;
    }
    for (const t of tables) {
      r.hands++;
      const o = checkHand(name + t.name, t.table);
      if ('hand' in o) {
        r[o.kind === 'mismatch' ? 'mismatched' : o.kind]++;
        r.problems.push(o);
      } else r[o.kind]++;
    }
  }
  return r;
}

export function formatPhhReport(r: PhhReport): string {
  const lines = r.problems.map((p) => `${p.hand}: ${p.kind === 'mismatch' ? '' : `${p.kind}: `}${p.reason}`);
  const extra = [
    r.illegal ? `${r.illegal} did not replay` : '',
    r.unchecked ? `${r.unchecked} replayed with no finishing_stacks to compare` : '',
    r.skipped ? `${r.skipped} skipped (not no-limit hold'em, or infinite stacks)` : '',
    r.unreadable ? `${r.unreadable} not readable as PHH` : '',
  ].filter(Boolean);
  lines.push(
    // Every hand read counts in the denominator: one that did not replay, or could not be compared, is
    // not a match (the reasons follow in brackets).
    `${r.matched}/${r.hands} hands match their finishing stacks (${r.files} files${extra.length ? `; ${extra.join('; ')}` : ''})`,
  );
  return `${lines.join('\n')}\n`;
}
