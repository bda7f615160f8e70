import { bb100Of, bigBlindOf, handsBySet, meanInterval } from './poker-stats.ts';
import { completeSets, pairGames, type SetOutcome } from './standings.ts';
import type { ArenaState } from './state.ts';

/**
 * What the arena's plots draw, folded from the same complete sets the standings count (so the
 * matrix's row sums are the standings' W-D-L, and a bankroll's last point is the standings' score):
 *
 * - the pairwise win-rate matrix: for every ordered pair (entrant, opponent), the pairwise games of
 *   their common sets (the better place wins, equal places draw) and the win rate
 *   (wins + draws/2) / games;
 * - per entrant, its bankroll over its sets in schedule order: after its k-th set the total score
 *   S_k and a 95% band S_k ± t(0.975, k−1) · s_k · √k (s_k the sample sd of its per-set scores so
 *   far): k times the interval of its mean per set, so the band excludes 0 exactly when its edge
 *   per set is clear of zero; none before two sets;
 * - for poker with hand counts, the running bb/100 after each set with the Student-t interval the
 *   poker stats give (poker-stats.ts: the last point is the table's row).
 *
 * The unit is the set, not the match: a duplicate set's rotations share their deals, so only sets
 * are independent, and a set counts only once all its rotations are in.
 */

export interface PairCell {
  entrant: string;
  opponent: string;
  wins: number;
  draws: number;
  losses: number;
  games: number;
  /** (wins + draws/2) / games, null with no games. */
  winRate: number | null;
}

export interface WinMatrix {
  /** Row and column order: the config's entrants. */
  entrants: string[];
  /** Every ordered pair of distinct entrants, row-major. */
  cells: PairCell[];
}

export interface SeriesPoint {
  /** The entrant's k-th counted set (1-based). */
  k: number;
  set: string;
  /** This set's score (chips, surplus…). */
  score: number;
  /** Score summed over sets 1..k. */
  total: number;
  /** 95% band of the total, null before two sets. */
  band: [number, number] | null;
  /** Poker with hand counts: bb/100 over sets 1..k and its 95% interval (null before two sets). */
  bb100?: number;
  bb100Band?: [number, number] | null;
}

export interface EntrantSeries {
  entrant: string;
  points: SeriesPoint[];
}

export function winMatrixOf(state: ArenaState, sets: readonly SetOutcome[] = completeSets(state)): WinMatrix {
  const entrants = state.config.entrants.map((e) => e.name);
  const index = new Map(entrants.map((n, i) => [n, i]));
  const count = entrants.map(() => entrants.map(() => ({ wins: 0, draws: 0, losses: 0 })));
  for (const g of sets.flatMap((s) => pairGames(s, index))) {
    const ab = count[g.a]![g.b]!;
    const ba = count[g.b]![g.a]!;
    const [x, y] =
      g.scoreA === 1
        ? (['wins', 'losses'] as const)
        : g.scoreA === 0
          ? (['losses', 'wins'] as const)
          : (['draws', 'draws'] as const);
    ab[x]++;
    ba[y]++;
  }
  const cells: PairCell[] = [];
  entrants.forEach((entrant, i) => {
    entrants.forEach((opponent, j) => {
      if (i === j) return;
      const c = count[i]![j]!;
      const games = c.wins + c.draws + c.losses;
      cells.push({
        entrant,
        opponent,
        ...c,
        games,
        winRate: games > 0 ? (c.wins + c.draws / 2) / games : null,
      });
    });
  });
  return { entrants, cells };
}

const band = (centre: number, half: number | null): [number, number] | null =>
  half === null ? null : [centre - half, centre + half];

export function seriesOf(
  state: ArenaState,
  sets: readonly SetOutcome[] = completeSets(state),
): EntrantSeries[] {
  const poker = state.config.game === 'poker';
  const hands = poker ? handsBySet(state) : new Map<string, number>();
  const bigBlind = bigBlindOf(state);
  return state.config.entrants.map(({ name }) => {
    const scores: number[] = [];
    const rates: number[] = [];
    const points = sets
      .filter((s) => s.entrants.includes(name))
      .map((s, i): SeriesPoint => {
        scores.push(s.score[name]!);
        const k = i + 1;
        const { half } = meanInterval(scores);
        const total = scores.reduce((a, b) => a + b, 0);
        const point: SeriesPoint = {
          k,
          set: s.set,
          score: s.score[name]!,
          total,
          band: band(total, half === null ? null : half * k),
        };
        const h = hands.get(s.set) ?? 0;
        // Sets without hand counts have no bb/100 (as in the poker stats): their points carry none.
        if (h > 0) {
          rates.push(bb100Of(s.score[name]!, bigBlind, h));
          const r = meanInterval(rates);
          point.bb100 = r.mean;
          point.bb100Band = band(r.mean, r.half);
        }
        return point;
      });
    return { entrant: name, points };
  });
}
