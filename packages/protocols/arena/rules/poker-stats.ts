import type { ArenaState } from './state.ts';

/**
 * Poker win rates people can trust: each entrant's big blinds won per 100 hands (bb/100) with a 95%
 * interval over sets, and how many hands its observed edge would need before the interval excludes
 * zero. The unit is the set (a duplicate set's seat rotations together), because within a set the
 * cards cancel: the sets are independent, the hands inside one are not.
 *
 * For entrant e and set i: x_i = 100 · net_i / (bigBlind · hands_i). The estimate is the mean of x_i,
 * the interval mean ± t(0.975, n−1) · s/√n (s the sample standard deviation, n ≥ 2 sets), and the
 * hands needed (1.96 · s / |mean|)² sets × the mean hands per set — the sample size at which an edge
 * of that size, with that spread, would give an interval clear of zero.
 */

/** The big blind the poker adapter plays with when the spec names none (app/src/arena-games.ts). */
export const POKER_DEFAULT_BIG_BLIND = 10;

export interface PokerRow {
  entrant: string;
  /** Complete sets with a hand count. */
  sets: number;
  hands: number;
  /** Mean bb/100 over the sets. */
  bb100: number;
  /** 95% interval of bb/100 (Student t over sets), null with fewer than two sets. */
  ci: [number, number] | null;
  /** Hands at which this edge and spread give an interval excluding zero; null with no spread or no edge. */
  handsToExcludeZero: number | null;
}

/** What the stats read of a complete set (standings.ts's SetOutcome). */
interface CountedSet {
  set: string;
  entrants: readonly string[];
  score: Readonly<Record<string, number>>;
}

export interface PokerStats {
  bigBlind: number;
  rows: PokerRow[];
}

// Student t quantiles t(0.975, df) for df 1..30 (standard tables); past 30, 1.96 + 2.4/df is within
// 0.002 of the exact value (df 40: 2.021 vs 2.020; df 120: 1.980 vs 1.980).
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131,
  2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

export function tQuantile975(df: number): number {
  if (df < 1) throw new RangeError('df must be at least 1');
  return df <= 30 ? T975[df - 1]! : 1.96 + 2.4 / df;
}

/** The big blind of a poker tournament's matches. */
export function bigBlindOf(state: ArenaState): number {
  const bb = state.config.gameConfig.bigBlind;
  return typeof bb === 'number' && Number.isSafeInteger(bb) && bb > 0 ? bb : POKER_DEFAULT_BIG_BLIND;
}

/** The mean of xs with its 95% Student-t half-width (null below two values) and sample sd. */
export function meanInterval(xs: readonly number[]): { mean: number; sd: number; half: number | null } {
  const n = xs.length;
  const mean = n > 0 ? xs.reduce((a, b) => a + b, 0) / n : 0;
  const sd = n > 1 ? Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1)) : 0;
  return { mean, sd, half: n > 1 ? (tQuantile975(n - 1) * sd) / Math.sqrt(n) : null };
}

/**
 * Hands per set, for the sets whose every match reported its hand count (NaN where one did not:
 * results recorded before hand counts existed give none).
 */
export function handsBySet(state: ArenaState): Map<string, number> {
  const handsOfSet = new Map<string, number>();
  for (const m of state.matches) {
    const hands = state.results[m.id]?.hands;
    handsOfSet.set(m.set, hands === undefined ? Number.NaN : (handsOfSet.get(m.set) ?? 0) + hands);
  }
  return handsOfSet;
}

/** A set's bb/100 for one entrant: x = 100 · net / (big blind · hands). */
export const bb100Of = (net: number, bigBlind: number, hands: number) => (100 * net) / (bigBlind * hands);

/**
 * bb/100 per entrant over the complete sets whose every match reported its hand count (results
 * recorded before hand counts existed give none: then there are no poker stats, as before).
 */
export function pokerStatsOf(state: ArenaState, sets: readonly CountedSet[]): PokerStats | null {
  if (state.config.game !== 'poker') return null;
  const handsOfSet = handsBySet(state);
  const counted = sets.filter((s) => (handsOfSet.get(s.set) ?? 0) > 0);
  if (counted.length === 0) return null;
  const bigBlind = bigBlindOf(state);
  const rows = state.config.entrants.map(({ name }) => {
    const mine = counted.filter((s) => s.entrants.includes(name));
    const xs = mine.map((s) => bb100Of(s.score[name]!, bigBlind, handsOfSet.get(s.set)!));
    const hands = mine.reduce((n, s) => n + handsOfSet.get(s.set)!, 0);
    const n = xs.length;
    const { mean, sd, half } = meanInterval(xs);
    const perSet = n > 0 ? hands / n : 0;
    const needed =
      n > 1 && sd > 0 && mean !== 0 ? Math.ceil(((1.96 * sd) / Math.abs(mean)) ** 2 * perSet) : null;
    return {
      entrant: name,
      sets: n,
      hands,
      bb100: mean,
      ci: half === null ? null : ([mean - half, mean + half] as [number, number]),
      handsToExcludeZero: needed,
    };
  });
  rows.sort((a, b) => b.bb100 - a.bb100);
  return { bigBlind, rows };
}
