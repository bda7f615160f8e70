import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type ArenaState,
  seriesOf,
  standingsOf,
  tableCsv,
  tableJson,
  tablesOf,
  winMatrixOf,
} from '../rules/index.ts';

/**
 * The tournament's tables as files, beside standings.json: tables/<name>.csv and tables/<name>.json
 * for standings, ratings, poker (poker tournaments), matrix and bankroll — the rows the web page's
 * downloads give (rules/tables.ts), so a file and a download of the same tournament are equal.
 * `db8 arena verify` rebuilds them from the refolded log and names any file that differs.
 */

export const TABLES_DIR = 'tables';

/** Path (relative to the output directory) → text, for every table of the tournament. */
export function tableFiles(state: ArenaState): Map<string, string> {
  const tables = tablesOf({
    standings: standingsOf(state),
    matrix: winMatrixOf(state),
    series: seriesOf(state),
  });
  const files = new Map<string, string>();
  for (const t of tables) {
    files.set(join(TABLES_DIR, `${t.name}.csv`), tableCsv(t));
    files.set(join(TABLES_DIR, `${t.name}.json`), tableJson(t));
  }
  return files;
}

export async function writeTables(out: string, state: ArenaState): Promise<string[]> {
  await mkdir(join(out, TABLES_DIR), { recursive: true });
  const files = tableFiles(state);
  for (const [path, text] of files) await writeFile(join(out, path), text);
  return [...files.keys()];
}

/**
 * The table files that differ from the refolded ones (a missing file counts when the directory has a
 * tables/ folder at all: runs from before the tables existed have none, and are not faulted for it).
 */
export async function tableMismatches(dir: string, state: ArenaState): Promise<string[]> {
  const read = (p: string) => readFile(join(dir, p), 'utf8').catch(() => null);
  const files = tableFiles(state);
  const texts = await Promise.all([...files.keys()].map(read));
  if (texts.every((t) => t === null)) return [];
  return [...files.entries()].filter(([, text], i) => texts[i] !== text).map(([path]) => path);
}
