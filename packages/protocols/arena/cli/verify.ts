import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  canonicalize,
  createProtocolRegistry,
  formatFailure,
  fromHex,
  JournalKeySchema,
  journalEntries,
  parseJournalText,
  refoldLog,
  sha256Hex,
  verifyBundleText,
} from '@db8/core';
import {
  type ArenaState,
  arena,
  type Standings,
  standingsOf,
  type WinMatrix,
  winMatrixOf,
} from '../rules/index.ts';
import type { Games } from './game.ts';
import { headOf, matchFile, STANDINGS_FILE, TOURNAMENT_FILE } from './run.ts';
import { tableMismatches } from './tables.ts';

/**
 * `db8 arena verify <dir>`: every bundle checked offline as `db8 verify` checks one (core's
 * verifyBundleText: hashes, tree heads, signatures; refoldLog: the fold with its recorded result),
 * every match bundle signed by the tournament's key, and each reported result held against its
 * match's log: the room id, the scheduled seed (the genesis commits to it), the signed tree head and
 * the placements recomputed from the refolded result. Then the standings are refolded and compared
 * with the close entry's and standings.json, and the tables/ files with the tables rebuilt. Each
 * problem names the match.
 */

export interface ArenaProblem {
  /** The match the problem is in, or null for the tournament itself. */
  match: string | null;
  message: string;
}

export interface ArenaVerdict {
  ok: boolean;
  room: string | null;
  matches: number;
  problems: ArenaProblem[];
  standings: Standings | null;
  /** The pairwise matrix refolded from the log (what tables/matrix.* hold). */
  matrix: WinMatrix | null;
}

async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return null;
  }
}

const records = (text: string) => parseJournalText(text).records.map((r) => r.value);

export async function verifyArena(dir: string, games: Games): Promise<ArenaVerdict> {
  const problems: ArenaProblem[] = [];
  const fail = (match: string | null, message: string) => problems.push({ match, message });
  const verdict = (
    room: string | null,
    matches: number,
    standings: Standings | null,
    matrix: WinMatrix | null = null,
  ): ArenaVerdict => ({ ok: problems.length === 0, room, matches, problems, standings, matrix });
  const text = await readText(join(dir, TOURNAMENT_FILE));
  if (text === null) {
    fail(null, `no ${TOURNAMENT_FILE} in ${dir}`);
    return verdict(null, 0, null);
  }
  const tb = verifyBundleText(text);
  if (tb.firstFailure) {
    fail(null, `${TOURNAMENT_FILE}: ${formatFailure(tb.firstFailure)}`);
    return verdict(tb.room ?? null, 0, null);
  }
  const tf = refoldLog(journalEntries(records(text)), createProtocolRegistry([arena]));
  for (const p of tf.problems) fail(null, `${TOURNAMENT_FILE}: ${p}`);
  const state = tf.state as ArenaState | undefined;
  if (!state || tf.protocol !== 'arena') {
    fail(null, `${TOURNAMENT_FILE}: not an arena room`);
    return verdict(tb.room ?? null, 0, null);
  }
  const key = records(text)
    .map((r) => JournalKeySchema.safeParse(r))
    .find((r) => r.success)?.data?.note_vkey;
  const game = games[state.config.game];
  for (const m of state.matches) {
    const reported = state.results[m.id];
    if (!reported) {
      fail(m.id, 'scheduled but no result in the tournament log');
      continue;
    }
    const mt = await readText(join(dir, matchFile(m.id)));
    if (mt === null) {
      fail(m.id, `bundle ${matchFile(m.id)} is missing`);
      continue;
    }
    const mb = verifyBundleText(mt, key ? { pinnedKey: key } : {});
    if (mb.firstFailure) {
      fail(m.id, formatFailure(mb.firstFailure));
      continue;
    }
    if (!game) {
      fail(m.id, `cannot refold ${state.config.game} matches here`);
      continue;
    }
    const entries = journalEntries(records(mt));
    const mf = refoldLog(entries, createProtocolRegistry([game.protocol]));
    if (mf.problems.length > 0) fail(m.id, `refold: ${mf.problems[0]}`);
    if (mb.room !== reported.room)
      fail(m.id, `the bundle is room ${mb.room}, the result names ${reported.room}`);
    const commit = (entries[0]?.payload as { seedCommit?: string } | undefined)?.seedCommit;
    if (commit !== sha256Hex(fromHex(m.seed))) fail(m.id, 'the room was not played with the scheduled seed');
    if (canonicalize(headOf(records(mt) as never)) !== canonicalize(reported.head))
      fail(m.id, 'the reported tree head is not the bundle’s signed head');
    if (!mf.closed) fail(m.id, 'the match room is not closed');
    else if (canonicalize(game.placements(mf.result, m)) !== canonicalize(reported.placements))
      fail(m.id, 'the reported placements are not the ones its log gives');
    else if (reported.hands !== undefined && reported.hands !== game.hands?.(mf.result))
      fail(m.id, 'the reported hand count is not the one its log gives');
  }
  const standings = standingsOf(state);
  const file = await readText(join(dir, STANDINGS_FILE));
  if (file !== null && canonicalize(JSON.parse(file)) !== canonicalize(JSON.parse(JSON.stringify(standings))))
    fail(null, `${STANDINGS_FILE} differs from the standings refolded from the log`);
  for (const path of await tableMismatches(dir, state))
    fail(null, `${path} differs from the table refolded from the log (or is missing)`);
  return verdict(tb.room ?? null, state.matches.length, standings, winMatrixOf(state));
}
