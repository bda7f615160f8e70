import type { EntrantSeries, WinMatrix } from './charts.ts';
import { type Cell, csvOf } from './csv.ts';
import type { PokerStats } from './poker-stats.ts';
import type { StandingRow, Standings } from './standings.ts';

/**
 * Every table the arena shows, as rows: one builder per table, read by the web page (its tables and
 * their CSV/JSON downloads) and by `db8 arena run`/`verify` (the files in tables/). Numbers are
 * rounded to the precision the page shows, so a download says what the table says.
 */

export interface Table {
  /** File stem: standings, ratings, poker, matrix, bankroll. */
  name: string;
  columns: string[];
  rows: Array<Record<string, Cell>>;
}

/** The decimals the page shows, as a number (toFixed's rounding, the same as the display). */
export const fixed = (v: number, digits: number) => Number(v.toFixed(digits));
const lo = (ci: readonly [number, number] | null | undefined, d: number) => (ci ? fixed(ci[0], d) : null);
const hi = (ci: readonly [number, number] | null | undefined, d: number) => (ci ? fixed(ci[1], d) : null);

export function standingsTable(s: Standings): Table {
  return {
    name: 'standings',
    columns: [
      'rank',
      'entrant',
      'rating',
      'ci_low',
      'ci_high',
      'wins',
      'draws',
      'losses',
      'points',
      'score',
      'sets',
      'byes',
    ],
    rows: s.rows.map((r, i) => ({
      rank: i + 1,
      entrant: r.entrant,
      rating: fixed(r.rating, 0),
      ci_low: lo(r.ci, 0),
      ci_high: hi(r.ci, 0),
      wins: r.wins,
      draws: r.draws,
      losses: r.losses,
      points: r.points,
      score: r.score,
      sets: r.played,
      byes: r.byes,
    })),
  };
}

export type RatingStatus = 'separated' | 'not enough games' | 'no games' | 'no interval';

/**
 * What a rating may claim: no games; no interval (bootstrap off); separated (its interval is clear
 * of a neighbour's, so its rank against that neighbour is not noise); else not enough games.
 */
export function ratingStatus(rows: readonly StandingRow[], i: number): RatingStatus {
  const r = rows[i]!;
  if (r.wins + r.draws + r.losses === 0) return 'no games';
  if (!r.ci) return 'no interval';
  return r.clearOfNext || rows[i - 1]?.clearOfNext ? 'separated' : 'not enough games';
}

export function ratingsTable(s: Standings): Table {
  return {
    name: 'ratings',
    columns: ['entrant', 'rating', 'ci_low', 'ci_high', 'games', 'status'],
    rows: s.rows.map((r, i) => ({
      entrant: r.entrant,
      rating: fixed(r.rating, 0),
      ci_low: lo(r.ci, 0),
      ci_high: hi(r.ci, 0),
      games: r.wins + r.draws + r.losses,
      status: ratingStatus(s.rows, i),
    })),
  };
}

export function pokerTable(p: PokerStats): Table {
  return {
    name: 'poker',
    columns: [
      'entrant',
      'sets',
      'hands',
      'bb100',
      'ci_low',
      'ci_high',
      'hands_for_clear_interval',
      'big_blind',
    ],
    rows: p.rows.map((r) => ({
      entrant: r.entrant,
      sets: r.sets,
      hands: r.hands,
      bb100: fixed(r.bb100, 1),
      ci_low: lo(r.ci, 1),
      ci_high: hi(r.ci, 1),
      hands_for_clear_interval: r.handsToExcludeZero,
      big_blind: p.bigBlind,
    })),
  };
}

export function matrixTable(m: WinMatrix): Table {
  return {
    name: 'matrix',
    columns: ['entrant', 'opponent', 'wins', 'draws', 'losses', 'games', 'win_rate'],
    rows: m.cells.map((c) => ({
      entrant: c.entrant,
      opponent: c.opponent,
      wins: c.wins,
      draws: c.draws,
      losses: c.losses,
      games: c.games,
      win_rate: c.winRate === null ? null : fixed(c.winRate, 3),
    })),
  };
}

export function bankrollTable(series: readonly EntrantSeries[]): Table {
  const poker = series.some((e) => e.points.some((p) => p.bb100 !== undefined));
  return {
    name: 'bankroll',
    columns: [
      'entrant',
      'k',
      'set',
      'score',
      'total',
      'band_low',
      'band_high',
      ...(poker ? ['bb100', 'bb100_low', 'bb100_high'] : []),
    ],
    rows: series.flatMap((e) =>
      e.points.map((p) => ({
        entrant: e.entrant,
        k: p.k,
        set: p.set,
        score: p.score,
        total: p.total,
        band_low: lo(p.band, 1),
        band_high: hi(p.band, 1),
        ...(poker
          ? {
              bb100: p.bb100 === undefined ? null : fixed(p.bb100, 1),
              bb100_low: lo(p.bb100Band, 1),
              bb100_high: hi(p.bb100Band, 1),
            }
          : {}),
      })),
    ),
  };
}

/** Every table of a tournament, in page order (poker only when there are poker stats). */
export function tablesOf(v: {
  standings: Standings;
  matrix: WinMatrix;
  series: readonly EntrantSeries[];
}): Table[] {
  return [
    standingsTable(v.standings),
    ratingsTable(v.standings),
    ...(v.standings.poker ? [pokerTable(v.standings.poker)] : []),
    matrixTable(v.matrix),
    bankrollTable(v.series),
  ];
}

export const tableCsv = (t: Table) => csvOf(t.columns, t.rows);
export const tableJson = (t: Table) => `${JSON.stringify(t.rows, null, 2)}\n`;
