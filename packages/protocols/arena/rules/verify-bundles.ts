import {
  type AnyProtocol,
  canonicalize,
  createProtocolRegistry,
  formatFailure,
  fromHex,
  JournalKeySchema,
  type JournalRecord,
  journalEntries,
  parseJournalText,
  refoldLog,
  sha256Hex,
  verifyBundleText,
} from '@db8/core';
import { type WinMatrix, winMatrixOf } from './charts.ts';
import type { ArenaState, Match, Placement } from './index.ts';
import { arena } from './protocol.ts';
import { type Standings, standingsOf } from './standings.ts';

/**
 * A tournament's bundles checked as `db8 verify` checks one (core's verifyBundleText: hashes, tree
 * heads, signatures; refoldLog: the fold with its recorded result), every match bundle signed by the
 * tournament's key, and each reported result held against its match's log: the room id, the
 * scheduled seed (the genesis commits to it), the signed tree head and, where the game's placements
 * function is given, the placements recomputed from the refolded result. Then the standings are
 * refolded. Bundles in, verdict out: no files, no network, so `db8 arena verify` (files) and the web's
 * tournament page (REST exports, in the browser) run this one copy. Each problem names the match.
 */

/** What verification needs of a game: its rules, and how a refolded result places the entrants. */
export interface GameCheck {
  protocol: AnyProtocol;
  placements?(result: unknown, match: Match): Placement[];
  hands?(result: unknown): number;
}

export interface ArenaProblem {
  /** The match the problem is in, or null for the tournament itself. */
  match: string | null;
  message: string;
}

export interface ArenaVerdict {
  ok: boolean;
  room: string | null;
  matches: number;
  /** Matches whose bundle was checked against its result. */
  checked: number;
  /** Matches whose room is not here to export (played on another server): not checked, not failed. */
  elsewhere: string[];
  problems: ArenaProblem[];
  standings: Standings | null;
  /** The pairwise matrix refolded from the log (what tables/matrix.* hold). */
  matrix: WinMatrix | null;
}

export interface ArenaBundles {
  /** The tournament room's bundle (JSONL). */
  tournament: string;
  /** Match bundles by match id; a match absent from both this and `elsewhere` is missing. */
  matches: ReadonlyMap<string, string>;
  /** Match ids whose room this source does not hold. */
  elsewhere?: ReadonlySet<string>;
  /** How the tournament bundle is named in problems (the CLI names its file). */
  tournamentName?: string;
  /** How a missing bundle is named in its problem (the CLI names the file). */
  nameOf?: (matchId: string) => string;
}

const records = (text: string) => parseJournalText(text).records.map((r) => r.value);

/** The last checkpoint of a bundle: the signed tree head a result reports. */
export function signedHead(
  recs: readonly unknown[],
): { size: number; rootHash: string; note: string } | null {
  const last = (recs as JournalRecord[]).filter((r) => r.type === 'checkpoint').at(-1);
  return last?.type === 'checkpoint' ? { size: last.size, rootHash: last.root_hash, note: last.note } : null;
}

/** The verdict, and the refolded tournament state for checks the caller adds (the CLI's table files). */
export function verifyArenaBundles(
  b: ArenaBundles,
  games: Readonly<Record<string, GameCheck>>,
): { verdict: ArenaVerdict; state: ArenaState | null } {
  const problems: ArenaProblem[] = [];
  const elsewhere: string[] = [];
  let checked = 0;
  const fail = (match: string | null, message: string) => problems.push({ match, message });
  const verdict = (room: string | null, state: ArenaState | null = null) => ({
    verdict: {
      ok: problems.length === 0,
      room,
      matches: state?.matches.length ?? 0,
      checked,
      elsewhere,
      problems,
      standings: state ? standingsOf(state) : null,
      matrix: state ? winMatrixOf(state) : null,
    },
    state,
  });
  const tname = b.tournamentName ?? 'tournament bundle';
  const tb = verifyBundleText(b.tournament);
  if (tb.firstFailure) {
    fail(null, `${tname}: ${formatFailure(tb.firstFailure)}`);
    return verdict(tb.room ?? null);
  }
  const tf = refoldLog(journalEntries(records(b.tournament)), createProtocolRegistry([arena]));
  for (const p of tf.problems) fail(null, `${tname}: ${p}`);
  const state = tf.state as ArenaState | undefined;
  if (!state || tf.protocol !== 'arena') {
    fail(null, `${tname}: not an arena room`);
    return verdict(tb.room ?? null);
  }
  const key = records(b.tournament)
    .map((r) => JournalKeySchema.safeParse(r))
    .find((r) => r.success)?.data?.note_vkey;
  const game = games[state.config.game];
  for (const m of state.matches) {
    const reported = state.results[m.id];
    if (!reported) {
      fail(m.id, 'scheduled but no result in the tournament log');
      continue;
    }
    const mt = b.matches.get(m.id);
    if (mt === undefined) {
      if (b.elsewhere?.has(m.id)) elsewhere.push(m.id);
      else fail(m.id, `bundle ${b.nameOf?.(m.id) ?? `of room ${reported.room}`} is missing`);
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
    checked++;
    const entries = journalEntries(records(mt));
    const mf = refoldLog(entries, createProtocolRegistry([game.protocol]));
    if (mf.problems.length > 0) fail(m.id, `refold: ${mf.problems[0]}`);
    if (mb.room !== reported.room)
      fail(m.id, `the bundle is room ${mb.room}, the result names ${reported.room}`);
    const commit = (entries[0]?.payload as { seedCommit?: string } | undefined)?.seedCommit;
    if (commit !== sha256Hex(fromHex(m.seed))) fail(m.id, 'the room was not played with the scheduled seed');
    if (canonicalize(signedHead(records(mt))) !== canonicalize(reported.head))
      fail(m.id, 'the reported tree head is not the bundle’s signed head');
    if (!mf.closed) fail(m.id, 'the match room is not closed');
    else if (
      game.placements &&
      canonicalize(game.placements(mf.result, m)) !== canonicalize(reported.placements)
    )
      fail(m.id, 'the reported placements are not the ones its log gives');
    else if (reported.hands !== undefined && game.hands && reported.hands !== game.hands(mf.result))
      fail(m.id, 'the reported hand count is not the one its log gives');
  }
  return verdict(tb.room ?? null, state);
}
