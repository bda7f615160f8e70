import { createRng } from '@db8/core';
import { bootstrapIntervals, fitBradleyTerry, type PairGame, ratingOf } from './bradley-terry.ts';
import type { ArenaConfig } from './config.ts';
import { type PokerStats, pokerStatsOf } from './poker-stats.ts';
import { duplicateSets, pairKey, roundCount, roundRobin, swissRound } from './schedule.ts';
import type { ArenaState, Match } from './state.ts';

/**
 * Standings are the fold of the results: per entrant points and pairwise wins, draws and losses, its
 * score summed, and its Bradley–Terry rating with a bootstrap 95% interval. The unit is the set (a
 * duplicate set's rotations together, else one match); a set counts once all its matches are in.
 */

export interface StandingRow {
  entrant: string;
  /** Sets (matches, or duplicate sets) counted. */
  played: number;
  wins: number;
  draws: number;
  losses: number;
  /** Pairwise wins + half the draws (+ seatsPerMatch − 1 per bye). */
  points: number;
  /** Score summed over the counted sets (chips for poker). */
  score: number;
  byes: number;
  rating: number;
  /** Bootstrap 95% interval of the rating, or null when there were no resamples. */
  ci: [number, number] | null;
  /** The interval lies wholly above the next row's: the rank is not noise. */
  clearOfNext: boolean;
}

export interface Standings {
  rows: StandingRow[];
  /** Complete sets counted. */
  sets: number;
  /** Pairwise games behind the ratings. */
  games: number;
  /** Poker tournaments whose results carry hand counts: bb/100 with intervals (poker-stats.ts). */
  poker?: PokerStats;
}

/** A complete set's outcome: summed score and place per entrant. */
export interface SetOutcome {
  set: string;
  entrants: string[];
  score: Record<string, number>;
  place: Record<string, number>;
}

/** Sets whose every match has a result, in schedule order. */
export function completeSets(state: ArenaState): SetOutcome[] {
  const bySet = new Map<string, Match[]>();
  for (const m of state.matches) bySet.set(m.set, [...(bySet.get(m.set) ?? []), m]);
  const out: SetOutcome[] = [];
  for (const [set, matches] of bySet) {
    if (!matches.every((m) => state.results[m.id])) continue;
    const entrants = matches[0]!.entrants.slice().sort();
    const score: Record<string, number> = Object.fromEntries(entrants.map((e) => [e, 0]));
    let place: Record<string, number> = {};
    for (const m of matches) for (const p of state.results[m.id]!.placements) score[p.entrant]! += p.score;
    if (matches.length === 1) {
      for (const p of state.results[matches[0]!.id]!.placements) place[p.entrant] = p.place;
    } else {
      // Duplicate: the set's places are by summed chips (competition ranking: 1, 1, 3).
      place = Object.fromEntries(
        entrants.map((e) => [e, 1 + entrants.filter((o) => score[o]! > score[e]!).length]),
      );
    }
    out.push({ set, entrants, score, place });
  }
  return out;
}

/** The pairwise games of one set: every pair of its entrants, the better place winning. */
export function pairGames(set: SetOutcome, index: ReadonlyMap<string, number>): PairGame[] {
  const games: PairGame[] = [];
  for (let x = 0; x < set.entrants.length; x++)
    for (let y = x + 1; y < set.entrants.length; y++) {
      const a = set.entrants[x]!;
      const b = set.entrants[y]!;
      const pa = set.place[a]!;
      const pb = set.place[b]!;
      games.push({ a: index.get(a)!, b: index.get(b)!, scoreA: pa < pb ? 1 : pa > pb ? 0 : 0.5 });
    }
  return games;
}

/** Entrants who sat out a published round (Swiss byes). */
export function byesOf(state: ArenaState): string[] {
  const out: string[] = [];
  for (let r = 1; r <= state.rounds; r++) {
    const playing = new Set(state.matches.filter((m) => m.round === r).flatMap((m) => m.entrants));
    for (const e of state.config.entrants) if (!playing.has(e.name)) out.push(e.name);
  }
  return out;
}

function tally(config: ArenaConfig, sets: readonly SetOutcome[], byes: readonly string[]) {
  const names = config.entrants.map((e) => e.name);
  const index = new Map(names.map((n, i) => [n, i]));
  const rows = names.map((entrant) => ({
    entrant,
    played: 0,
    wins: 0,
    draws: 0,
    losses: 0,
    points: 0,
    score: 0,
    byes: 0,
  }));
  const units = sets.map((s) => pairGames(s, index));
  for (const s of sets)
    for (const e of s.entrants) {
      rows[index.get(e)!]!.played++;
      rows[index.get(e)!]!.score += s.score[e]!;
    }
  for (const g of units.flat()) {
    const a = rows[g.a]!;
    const b = rows[g.b]!;
    a.wins += g.scoreA === 1 ? 1 : 0;
    a.losses += g.scoreA === 0 ? 1 : 0;
    a.draws += g.scoreA === 0.5 ? 1 : 0;
    b.wins += g.scoreA === 0 ? 1 : 0;
    b.losses += g.scoreA === 1 ? 1 : 0;
    b.draws += g.scoreA === 0.5 ? 1 : 0;
  }
  for (const b of byes) rows[index.get(b)!]!.byes++;
  for (const r of rows) r.points = r.wins + r.draws / 2 + r.byes * (config.seatsPerMatch - 1);
  return { rows, units };
}

const memo = new WeakMap<ArenaState, Standings>();

export function standingsOf(state: ArenaState): Standings {
  const hit = memo.get(state);
  if (hit) return hit;
  const { config } = state;
  const sets = completeSets(state);
  const { rows, units } = tally(config, sets, byesOf(state));
  const strengths = fitBradleyTerry(rows.length, units.flat());
  const cis = bootstrapIntervals(
    rows.length,
    units,
    config.bootstrap,
    createRng(config.seed, 'arena/bootstrap'),
  );
  const order = config.entrants.map((e) => e.name);
  const full: StandingRow[] = rows.map((r, i) => ({
    ...r,
    rating: ratingOf(strengths[i]!),
    ci: config.bootstrap > 0 && units.length > 0 ? cis[i]! : null,
    clearOfNext: false,
  }));
  full.sort(
    (a, b) =>
      b.rating - a.rating || b.points - a.points || order.indexOf(a.entrant) - order.indexOf(b.entrant),
  );
  for (let i = 0; i + 1 < full.length; i++) {
    const lo = full[i]!.ci?.[0];
    const hi = full[i + 1]!.ci?.[1];
    full[i]!.clearOfNext = lo !== undefined && hi !== undefined && lo > hi;
  }
  const poker = pokerStatsOf(state, sets);
  const out: Standings = {
    rows: full,
    sets: sets.length,
    games: units.reduce((s, u) => s + u.length, 0),
    ...(poker ? { poker } : {}),
  };
  memo.set(state, out);
  return out;
}

/** The next round the organizer must publish, or null (none left, or the last one still playing). */
export function dueRound(state: ArenaState): { round: number; matches: Match[] } | null {
  const { config } = state;
  if (state.phase === 'closed' || state.rounds >= roundCount(config)) return null;
  if (!state.matches.every((m) => state.results[m.id])) return null;
  const round = state.rounds + 1;
  const f = config.format;
  if (f.kind === 'round-robin') return { round, matches: roundRobin(config, f.games) };
  if (f.kind === 'duplicate-poker') return { round, matches: duplicateSets(config, f.deals) };
  const { rows } = tally(config, completeSets(state), byesOf(state));
  const met = new Set<string>();
  for (const m of state.matches)
    for (let x = 0; x < m.entrants.length; x++)
      for (let y = x + 1; y < m.entrants.length; y++) met.add(pairKey(m.entrants[x]!, m.entrants[y]!));
  const { matches } = swissRound(
    config,
    round,
    rows.map((r) => ({ name: r.entrant, points: r.points, score: r.score })),
    met,
    new Set(byesOf(state)),
  );
  return { round, matches };
}
