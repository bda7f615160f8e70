import { createRng } from '@db8/core';
import { describe, expect, it } from 'vitest';
import { bootstrapIntervals, fitBradleyTerry, type PairGame, quantile, ratingOf } from '../../rules/index.ts';

const games = (a: number, b: number, winsA: number, winsB: number): PairGame[] => [
  ...Array.from({ length: winsA }, () => ({ a, b, scoreA: 1 })),
  ...Array.from({ length: winsB }, () => ({ a, b, scoreA: 0 })),
];

/** A second, independent fit: Newton–Raphson on the log-likelihood in θ = log p, θ_0 pinned at 0. */
function newtonFit(n: number, gs: readonly PairGame[]): number[] {
  const theta = new Array<number>(n).fill(0);
  for (let it = 0; it < 100; it++) {
    const grad = new Array<number>(n).fill(0);
    const hess = Array.from({ length: n }, () => new Array<number>(n).fill(0));
    for (const g of gs) {
      const pa = 1 / (1 + Math.exp(theta[g.b]! - theta[g.a]!));
      grad[g.a]! += g.scoreA - pa;
      grad[g.b]! -= g.scoreA - pa;
      const w = pa * (1 - pa);
      hess[g.a]![g.a]! -= w;
      hess[g.b]![g.b]! -= w;
      hess[g.a]![g.b]! += w;
      hess[g.b]![g.a]! += w;
    }
    // Solve H' δ = -g' on indices 1..n-1 (Gaussian elimination).
    const m = n - 1;
    const A = Array.from({ length: m }, (_, i) => [...hess[i + 1]!.slice(1), -grad[i + 1]!]);
    for (let c = 0; c < m; c++) {
      for (let r = c + 1; r < m; r++) {
        const f = A[r]![c]! / A[c]![c]!;
        for (let k = c; k <= m; k++) A[r]![k]! -= f * A[c]![k]!;
      }
    }
    const d = new Array<number>(m).fill(0);
    for (let r = m - 1; r >= 0; r--) {
      let s = A[r]![m]!;
      for (let k = r + 1; k < m; k++) s -= A[r]![k]! * d[k]!;
      d[r] = s / A[r]![r]!;
    }
    for (let i = 0; i < m; i++) theta[i + 1]! += d[i]!;
  }
  const mean = theta.reduce((s, t) => s + t, 0) / n;
  return theta.map((t) => Math.exp(t - mean));
}

describe('Bradley–Terry (MM)', () => {
  it('two players: the strength ratio is the win ratio (3 wins of 4 → 3:1, 190.8 rating points)', () => {
    const p = fitBradleyTerry(2, games(0, 1, 3, 1), { prior: 0 });
    expect(p[0]! / p[1]!).toBeCloseTo(3, 9);
    expect(ratingOf(p[0]!) - ratingOf(p[1]!)).toBeCloseTo(400 * Math.log10(3), 6);
  });

  it('a balanced cycle (each beats the next 2–1) rates everyone equal', () => {
    const p = fitBradleyTerry(3, [...games(0, 1, 2, 1), ...games(1, 2, 2, 1), ...games(2, 0, 2, 1)], {
      prior: 0,
    });
    for (const v of p) expect(v).toBeCloseTo(1, 9);
  });

  it('three players, hand-checked: A 2–1 B, B 2–1 C, A 2–1 C; matches Newton and the likelihood equations', () => {
    const gs = [...games(0, 1, 2, 1), ...games(1, 2, 2, 1), ...games(0, 2, 2, 1)];
    const p = fitBradleyTerry(3, gs, { prior: 0 });
    const q = newtonFit(3, gs);
    for (let i = 0; i < 3; i++) expect(p[i]!).toBeCloseTo(q[i]!, 8);
    // At the MLE every player's expected wins equal its actual wins (A 4, B 3, C 2).
    const wins = [4, 3, 2];
    for (let i = 0; i < 3; i++) {
      let expected = 0;
      for (let j = 0; j < 3; j++) if (j !== i) expected += (3 * p[i]!) / (p[i]! + p[j]!);
      expect(expected).toBeCloseTo(wins[i]!, 8);
    }
    // By symmetry (A vs C mirrors C vs A) B sits at the geometric mean: p_B = 1, p_A = 1 / p_C.
    expect(p[1]!).toBeCloseTo(1, 8);
    expect(p[0]! * p[2]!).toBeCloseTo(1, 8);
    expect(p[0]!).toBeGreaterThan(p[1]!);
  });

  it('a random 5-player dataset agrees with the Newton fit', () => {
    const rng = createRng('bt-check');
    const gs: PairGame[] = [];
    for (let k = 0; k < 300; k++) {
      const a = rng.int(5);
      const b = (a + 1 + rng.int(4)) % 5;
      gs.push({ a, b, scoreA: rng.int(10) < 3 + a ? 1 : 0 });
    }
    const p = fitBradleyTerry(5, gs, { prior: 0 });
    const q = newtonFit(5, gs);
    for (let i = 0; i < 5; i++) expect(p[i]!).toBeCloseTo(q[i]!, 7);
  });

  it('the prior keeps an unbeaten player finite; without it the fit runs off', () => {
    const gs = games(0, 1, 5, 0);
    const withPrior = fitBradleyTerry(2, gs);
    expect(Number.isFinite(ratingOf(withPrior[0]!))).toBe(true);
    expect(withPrior[0]!).toBeGreaterThan(withPrior[1]!);
    const plain = fitBradleyTerry(2, gs, { prior: 0, maxIterations: 2000 });
    expect(plain[0]! / plain[1]!).toBeGreaterThan(1e6);
  });

  it('bootstrap intervals contain the fit, shrink with more games, and repeat from the seed', () => {
    const strengths = [2, 1, 0.5];
    const sample = (count: number) => {
      const rng = createRng('sample', String(count));
      return Array.from({ length: count }, (_, k) => {
        const a = k % 3;
        const b = (k + 1) % 3;
        const pa = strengths[a]! / (strengths[a]! + strengths[b]!);
        return [{ a, b, scoreA: rng.nextU32() / 2 ** 32 < pa ? 1 : 0 }];
      });
    };
    const width = (units: PairGame[][]) => {
      const ci = bootstrapIntervals(3, units, 200, createRng('boot'));
      return ci.map(([lo, hi]) => hi - lo);
    };
    const small = width(sample(60));
    const big = width(sample(1200));
    for (let i = 0; i < 3; i++) expect(big[i]!).toBeLessThan(small[i]! / 2);
    const units = sample(60);
    const again = bootstrapIntervals(3, units, 200, createRng('boot'));
    expect(again).toEqual(bootstrapIntervals(3, units, 200, createRng('boot')));
    const fit = fitBradleyTerry(3, units.flat()).map(ratingOf);
    again.forEach(([lo, hi], i) => {
      expect(lo).toBeLessThanOrEqual(fit[i]!);
      expect(hi).toBeGreaterThanOrEqual(fit[i]!);
    });
  });

  it('quantile interpolates (type 7)', () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([1, 2, 3, 4], 0)).toBe(1);
    expect(quantile([1, 2, 3, 4], 1)).toBe(4);
  });
});
