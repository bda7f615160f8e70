import type { Rng } from '@db8/core';

/**
 * Bradley–Terry ratings: P(i beats j) = p_i / (p_i + p_j). Fitted by Hunter's MM algorithm (Hunter
 * 2004, "MM algorithms for generalized Bradley–Terry models", eq. 3):
 *
 *   p_i ← W_i / Σ_j n_ij / (p_i + p_j)
 *
 * where W_i counts i's wins (a tie is half a win for each side) and n_ij the games of i against j.
 * `prior` adds that many virtual drawn games of every entrant against a fixed reference of strength 1,
 * which keeps a rating finite when an entrant has won (or lost) everything and anchors the scale;
 * prior 0 is the plain maximum-likelihood fit (then normalised to geometric mean 1).
 */

/** One game between entrants a and b (indices); `scoreA` is 1 for a win of a, 0.5 a tie, 0 a loss. */
export interface PairGame {
  a: number;
  b: number;
  scoreA: number;
}

export interface BtOptions {
  prior?: number;
  maxIterations?: number;
  /** Stop once no log-strength moves more than this. */
  tolerance?: number;
}

/** Strengths p (geometric mean 1) of n entrants from their games. */
export function fitBradleyTerry(n: number, games: readonly PairGame[], opts: BtOptions = {}): number[] {
  const prior = opts.prior ?? 1;
  const maxIterations = opts.maxIterations ?? 10_000;
  const tolerance = opts.tolerance ?? 1e-12;
  // Aggregate once: wins and game counts per pair, so an iteration costs O(pairs), not O(games).
  const wins = new Array<number>(n).fill(prior / 2);
  const count = new Map<number, number>();
  for (const g of games) {
    if (g.a === g.b) continue;
    wins[g.a]! += g.scoreA;
    wins[g.b]! += 1 - g.scoreA;
    const key = g.a < g.b ? g.a * n + g.b : g.b * n + g.a;
    count.set(key, (count.get(key) ?? 0) + 1);
  }
  const pairs = [...count]
    .sort((x, y) => x[0] - y[0])
    .map(([k, c]) => ({ i: Math.floor(k / n), j: k % n, c }));
  let p = new Array<number>(n).fill(1);
  for (let it = 0; it < maxIterations; it++) {
    const denom = p.map((pi) => prior / (pi + 1));
    for (const { i, j, c } of pairs) {
      const d = c / (p[i]! + p[j]!);
      denom[i]! += d;
      denom[j]! += d;
    }
    let next = p.map((_, i) => (denom[i]! > 0 ? wins[i]! / denom[i]! : p[i]!));
    if (prior === 0) next = normalise(next);
    const moved = Math.max(...next.map((v, i) => Math.abs(Math.log(v) - Math.log(p[i]!))));
    p = next;
    if (!(moved > tolerance)) break;
  }
  return normalise(p);
}

function normalise(p: readonly number[]): number[] {
  const finite = p.filter((v) => v > 0);
  if (finite.length === 0) return [...p];
  const logMean = finite.reduce((s, v) => s + Math.log(v), 0) / finite.length;
  const g = Math.exp(logMean);
  return p.map((v) => v / g);
}

/** The Elo-like scale people read: 1000 at the geometric mean, +400 for ten-to-one odds. */
export function ratingOf(strength: number): number {
  return 1000 + 400 * Math.log10(strength);
}

/** Linear-interpolated quantile (type 7) of sorted values. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/**
 * Percentile bootstrap: resample the independent units (matches, or duplicate sets) with
 * replacement `samples` times, refit, and take each entrant's 2.5th and 97.5th percentile rating.
 * The generator comes from the tournament seed, so a replay draws the very same resamples.
 */
export function bootstrapIntervals(
  n: number,
  units: readonly (readonly PairGame[])[],
  samples: number,
  rng: Rng,
  opts: BtOptions = {},
): Array<[number, number]> {
  if (samples === 0 || units.length === 0) return Array.from({ length: n }, () => [Number.NaN, Number.NaN]);
  const draws: number[][] = Array.from({ length: n }, () => []);
  for (let s = 0; s < samples; s++) {
    const games: PairGame[] = [];
    for (let u = 0; u < units.length; u++) games.push(...units[rng.int(units.length)]!);
    const p = fitBradleyTerry(n, games, opts);
    for (let i = 0; i < n; i++) draws[i]!.push(ratingOf(p[i]!));
  }
  return draws.map((d) => {
    const sorted = d.sort((x, y) => x - y);
    return [quantile(sorted, 0.025), quantile(sorted, 0.975)];
  });
}
