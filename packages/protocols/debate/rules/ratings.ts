import { z } from 'zod';
import { pow10Det } from './elo-math.ts';
import { round2 } from './scoring.ts';
import type { DebateResult } from './state.ts';

/**
 * Elo per identity (never per anonymous seat) across rooms (seed: "pairwise from placements;
 * K=24; cap ±40 per match; topic-specific variants"). A match of n entrants is scored as the
 * n(n−1)/2 pairs it contains: for each opponent j, i scores S = 1 (placed better), ½ (same place)
 * or 0, expects E = 1 / (1 + 10^((R_j − R_i)/400)), and gains K·(S − E). The pair terms use the
 * ratings from before the match, are summed, clamped to ±cap, and rounded to 0.01. One global
 * table, plus one table per topic tag of the match. Pure: the same matches give the same tables.
 */

export const RatingOptionsSchema = z
  .object({
    k: z.number().positive().max(400).default(24),
    cap: z.number().positive().max(1000).default(40),
    initial: z.number().min(0).max(10_000).default(1500),
  })
  .strict();
export type RatingOptions = z.input<typeof RatingOptionsSchema>;

export const RatingMatchSchema = z
  .object({
    /** The room (or any unique match id). */
    id: z.string().min(1),
    at: z.number().int().optional(),
    tags: z.array(z.string().min(1)).default([]),
    entrants: z
      .array(z.object({ identity: z.string().min(1), place: z.number().int().positive() }).strict())
      .min(2)
      .refine((e) => new Set(e.map((x) => x.identity)).size === e.length, 'an identity appears twice'),
  })
  .strict();
export type RatingMatch = z.input<typeof RatingMatchSchema>;

export interface Rating {
  identity: string;
  rating: number;
  matches: number;
  /** Pairwise outcomes across all matches. */
  wins: number;
  losses: number;
  draws: number;
}

export interface RatingHistoryRow {
  match: string;
  at: number | null;
  /** `global` or `tag:<tag>`. */
  scope: string;
  identity: string;
  place: number;
  before: number;
  /** Sum of the pair terms before the cap. */
  raw: number;
  delta: number;
  after: number;
}

export type RatingTable = Record<string, Rating>;

export interface Ratings {
  global: RatingTable;
  topics: Record<string, RatingTable>;
  history: RatingHistoryRow[];
}

/** Expected score of a player rated `ra` against one rated `rb`. */
export function eloExpected(ra: number, rb: number): number {
  return 1 / (1 + pow10Det((rb - ra) / 400));
}

const fresh = (identity: string, initial: number): Rating => ({
  identity,
  rating: initial,
  matches: 0,
  wins: 0,
  losses: 0,
  draws: 0,
});

/** Apply one match to one table; returns the new table and its history rows. */
export function rateMatch(
  table: RatingTable,
  match: RatingMatch,
  scope: string,
  options: RatingOptions = {},
): { table: RatingTable; rows: RatingHistoryRow[] } {
  return rateParsed(table, RatingMatchSchema.parse(match), scope, RatingOptionsSchema.parse(options));
}

type ParsedMatch = z.output<typeof RatingMatchSchema>;
type ParsedOptions = z.output<typeof RatingOptionsSchema>;

/**
 * Rate one parsed match into `table`, which this function owns and updates in place (callers
 * hand it a fresh copy or their private accumulator), appending the history rows to `rows`.
 */
function rateInto(
  table: RatingTable,
  m: ParsedMatch,
  scope: string,
  o: ParsedOptions,
  rows: RatingHistoryRow[],
): void {
  const before = m.entrants.map((e) => table[e.identity] ?? fresh(e.identity, o.initial));
  m.entrants.forEach((me, i) => {
    const mine = before[i]!;
    let raw = 0;
    let wins = 0;
    let losses = 0;
    let draws = 0;
    m.entrants.forEach((other, j) => {
      if (j === i) return;
      const s = me.place < other.place ? 1 : me.place === other.place ? 0.5 : 0;
      if (s === 1) wins += 1;
      else if (s === 0) losses += 1;
      else draws += 1;
      raw += o.k * (s - eloExpected(mine.rating, before[j]!.rating));
    });
    const delta = round2(Math.max(-o.cap, Math.min(o.cap, raw)));
    const after = round2(mine.rating + delta);
    table[me.identity] = {
      identity: me.identity,
      rating: after,
      matches: mine.matches + 1,
      wins: mine.wins + wins,
      losses: mine.losses + losses,
      draws: mine.draws + draws,
    };
    rows.push({
      match: m.id,
      at: m.at ?? null,
      scope,
      identity: me.identity,
      place: me.place,
      before: mine.rating,
      raw,
      delta,
      after,
    });
  });
}

function rateParsed(
  table: RatingTable,
  m: ParsedMatch,
  scope: string,
  o: ParsedOptions,
): { table: RatingTable; rows: RatingHistoryRow[] } {
  const next: RatingTable = { ...table };
  const rows: RatingHistoryRow[] = [];
  rateInto(next, m, scope, o, rows);
  return { table: next, rows };
}

/** Fold matches, in the order given, into a global table, per-tag tables and the history. */
export function foldRatings(matches: readonly RatingMatch[], options: RatingOptions = {}): Ratings {
  // The tables are private accumulators until returned, so they are updated in place (copying a
  // large table per match would make the fold quadratic).
  const global: RatingTable = {};
  const topics: Record<string, RatingTable> = {};
  const history: RatingHistoryRow[] = [];
  const o = RatingOptionsSchema.parse(options);
  for (const input of matches) {
    const match = RatingMatchSchema.parse(input);
    rateInto(global, match, 'global', o, history);
    for (const tag of [...new Set(match.tags)].sort()) {
      topics[tag] ??= {};
      rateInto(topics[tag], match, `tag:${tag}`, o, history);
    }
  }
  return { global, topics, history };
}

/**
 * A rating match from a closed debate's result: its placements, by identity. Seats with no bound
 * identity are left out; null when fewer than two identified entrants remain (nothing to rate).
 */
export function matchFromResult(result: DebateResult, meta: { id: string; at?: number }): RatingMatch | null {
  const ids = result.identities;
  if (!ids) return null;
  const entrants = result.placements.flatMap((p) => {
    const identity = ids[p.seat];
    return identity ? [{ identity, place: p.place }] : [];
  });
  if (entrants.length < 2) return null;
  return { id: meta.id, ...(meta.at !== undefined ? { at: meta.at } : {}), tags: result.tags, entrants };
}

/** Standings of a table, best first (rating desc, then identity). */
export function standings(table: RatingTable): Rating[] {
  return Object.values(table).sort((a, b) => b.rating - a.rating || (a.identity < b.identity ? -1 : 1));
}
