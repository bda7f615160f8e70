import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { canonicalize } from '@db8/core';
import { type ArenaVerdict, verifyArenaBundles } from '../rules/verify-bundles.ts';
import type { Games } from './game.ts';
import { matchFile, STANDINGS_FILE, TOURNAMENT_FILE } from './run.ts';
import { tableMismatches } from './tables.ts';

/**
 * `db8 arena verify <dir>`: the files read, then the bundles checked by rules/verify-bundles.ts (the
 * copy the web's tournament page runs too), then what only a directory has: standings.json and the
 * tables/ files compared with the ones rebuilt from the refolded log.
 */

export type { ArenaProblem, ArenaVerdict } from '../rules/verify-bundles.ts';

async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return null;
  }
}

export async function verifyArena(dir: string, games: Games): Promise<ArenaVerdict> {
  const text = await readText(join(dir, TOURNAMENT_FILE));
  if (text === null) {
    const problems = [{ match: null, message: `no ${TOURNAMENT_FILE} in ${dir}` }];
    return {
      ok: false,
      room: null,
      matches: 0,
      checked: 0,
      elsewhere: [],
      problems,
      standings: null,
      matrix: null,
    };
  }
  // Every match bundle in the directory, by match id (matches/<id>.jsonl).
  const matches = new Map<string, string>();
  const names = await readdir(join(dir, dirname(matchFile('x')))).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.endsWith('.jsonl'))) {
    const id = name.slice(0, -'.jsonl'.length);
    const mt = await readText(join(dir, matchFile(id)));
    if (mt !== null) matches.set(id, mt);
  }
  const { verdict: v, state } = verifyArenaBundles(
    { tournament: text, matches, tournamentName: TOURNAMENT_FILE, nameOf: matchFile },
    games,
  );
  if (!state) return v;
  const file = await readText(join(dir, STANDINGS_FILE));
  if (
    file !== null &&
    canonicalize(JSON.parse(file)) !== canonicalize(JSON.parse(JSON.stringify(v.standings)))
  )
    v.problems.push({
      match: null,
      message: `${STANDINGS_FILE} differs from the standings refolded from the log`,
    });
  for (const path of await tableMismatches(dir, state))
    v.problems.push({
      match: null,
      message: `${path} differs from the table refolded from the log (or is missing)`,
    });
  return { ...v, ok: v.problems.length === 0 };
}
