import { describe, expect, it } from 'vitest';
import {
  type DebateResult,
  eloExpected,
  expDet,
  foldRatings,
  matchFromResult,
  pow10Det,
  type RatingTable,
  rateMatch,
  standings,
} from '../../rules/index.ts';

/** Elo worked examples, computed by hand in the comments (K = 24, cap ±40, start 1500). */

const m = (id: string, places: Record<string, number>, tags: string[] = []) => ({
  id,
  tags,
  entrants: Object.entries(places).map(([identity, place]) => ({ identity, place })),
});

describe('ratings: Elo worked examples', () => {
  it('three newcomers, 1st/2nd/3rd: +24, 0, −24', () => {
    // All at 1500, so every pair expects E = 1/(1 + 10^0) = 0.5.
    // A beats B and C: 24·(1 − 0.5) + 24·(1 − 0.5) = 12 + 12 = +24.
    // B loses to A, beats C: 24·(0 − 0.5) + 24·(1 − 0.5) = −12 + 12 = 0.
    // C loses to both: −12 − 12 = −24.
    const r = foldRatings([m('room_1', { A: 1, B: 2, C: 3 })]);
    expect(r.global.A?.rating).toBe(1524);
    expect(r.global.B?.rating).toBe(1500);
    expect(r.global.C?.rating).toBe(1476);
    expect(r.global.A).toMatchObject({ matches: 1, wins: 2, losses: 0, draws: 0 });
    expect(r.global.B).toMatchObject({ wins: 1, losses: 1 });
  });

  it('the five-debater debate of the full test: the ±40 cap binds the first and the last', () => {
    // Places bob 1, alice 2, dave 3, erin 4, carol 5; all at 1500 (E = 0.5, each pair ±12):
    //   bob   4 wins           → raw +48 → capped +40
    //   alice 3 wins, 1 loss   → 36 − 12 = +24
    //   dave  2 wins, 2 losses → 0
    //   erin  1 win, 3 losses  → 12 − 36 = −24
    //   carol 4 losses         → raw −48 → capped −40
    const r = foldRatings([m('room_x', { bob: 1, alice: 2, dave: 3, erin: 4, carol: 5 }, ['urbanism'])]);
    expect(Object.fromEntries(Object.values(r.global).map((x) => [x.identity, x.rating]))).toEqual({
      bob: 1540,
      alice: 1524,
      dave: 1500,
      erin: 1476,
      carol: 1460,
    });
    const bob = r.history.find((h) => h.identity === 'bob' && h.scope === 'global');
    expect(bob).toMatchObject({ before: 1500, raw: 48, delta: 40, after: 1540, place: 1 });
    expect(r.topics.urbanism?.bob?.rating).toBe(1540);
    expect(standings(r.global).map((x) => x.identity)).toEqual(['bob', 'alice', 'dave', 'erin', 'carol']);
  });

  it('an upset between unequal ratings', () => {
    // A 1600, B 1500, B wins. E_A = 1/(1 + 10^((1500−1600)/400)) = 1/(1 + 10^−0.25)
    //   = 1/(1 + 0.562341) = 0.640065. ΔA = 24·(0 − 0.640065) = −15.3616 → −15.36.
    //   E_B = 1 − E_A = 0.359935; ΔB = 24·(1 − 0.359935) = +15.3616 → +15.36.
    const table: RatingTable = {
      A: { identity: 'A', rating: 1600, matches: 3, wins: 3, losses: 0, draws: 0 },
      B: { identity: 'B', rating: 1500, matches: 3, wins: 0, losses: 3, draws: 0 },
    };
    const { table: next, rows } = rateMatch(table, m('upset', { A: 2, B: 1 }), 'global');
    expect(next.A?.rating).toBe(1584.64);
    expect(next.B?.rating).toBe(1515.36);
    expect(next.A).toMatchObject({ matches: 4, wins: 3, losses: 1 });
    expect(rows[0]?.raw).toBeCloseTo(-15.361559995, 8);
    expect(eloExpected(1600, 1500)).toBeCloseTo(0.6400649998, 9);
  });

  it('a shared place is a draw: ½ each', () => {
    // Equal ratings and equal places: 24·(0.5 − 0.5) = 0 for both.
    const r = foldRatings([m('tie', { A: 1, B: 1 })]);
    expect(r.global.A).toMatchObject({ rating: 1500, draws: 1 });
  });

  it('keeps a global table and one per topic tag', () => {
    // m1 (urbanism): A beats B → A 1512, B 1488 in global and in urbanism.
    // m2 (policy): B beats A. Global uses 1512 vs 1488: E_B = 1/(1 + 10^(24/400)) = 1/(1 + 10^0.06)
    //   = 1/(1 + 1.148154) = 0.465516; ΔB = 24·(1 − 0.465516) = +12.8276 → +12.83, ΔA = −12.83:
    //   A 1499.17, B 1500.83. The policy table starts fresh: B 1512, A 1488.
    const r = foldRatings([m('m1', { A: 1, B: 2 }, ['urbanism']), m('m2', { A: 2, B: 1 }, ['policy'])]);
    expect(r.global.A?.rating).toBe(1499.17);
    expect(r.global.B?.rating).toBe(1500.83);
    expect(r.topics.urbanism?.A?.rating).toBe(1512);
    expect(r.topics.policy?.B?.rating).toBe(1512);
    expect(r.topics.policy?.A?.rating).toBe(1488);
    expect(r.history.map((h) => `${h.match}/${h.scope}/${h.identity}`)).toEqual([
      'm1/global/A',
      'm1/global/B',
      'm1/tag:urbanism/A',
      'm1/tag:urbanism/B',
      'm2/global/A',
      'm2/global/B',
      'm2/tag:policy/A',
      'm2/tag:policy/B',
    ]);
  });

  it('options: K and cap', () => {
    // K = 32, cap 10: A's raw +16 (one win at E = 0.5) is capped to +10.
    const r = foldRatings([m('k', { A: 1, B: 2 })], { k: 32, cap: 10 });
    expect(r.global.A?.rating).toBe(1510);
  });

  it('refuses malformed matches', () => {
    expect(() => foldRatings([m('solo', { A: 1 })])).toThrow();
    expect(() =>
      foldRatings([
        {
          id: 'dup',
          entrants: [
            { identity: 'A', place: 1 },
            { identity: 'A', place: 2 },
          ],
        },
      ]),
    ).toThrow();
  });
});

describe('ratings: from a debate result', () => {
  const result = {
    tags: ['urbanism'],
    placements: [
      { seat: 'anon_2', place: 1 },
      { seat: 'anon_1', place: 2 },
      { seat: 'anon_3', place: 3 },
    ],
    identities: { anon_1: 'alice', anon_2: 'bob', anon_3: null },
  } as unknown as DebateResult;

  it('rates identities, not anonymous seats; unbound seats are left out', () => {
    expect(matchFromResult(result, { id: 'room_1', at: 5 })).toEqual({
      id: 'room_1',
      at: 5,
      tags: ['urbanism'],
      entrants: [
        { identity: 'bob', place: 1 },
        { identity: 'alice', place: 2 },
      ],
    });
    expect(matchFromResult({ ...result, identities: null }, { id: 'r' })).toBeNull();
    expect(matchFromResult({ ...result, identities: { anon_1: 'alice' } }, { id: 'r' })).toBeNull();
  });
});

describe('ratings: deterministic 10^x', () => {
  it('agrees with Math.pow to ~1e-15 relative and is exact at 0', () => {
    expect(expDet(0)).toBe(1);
    for (const x of [-3, -1.5, -0.25, 0.06, 0.5, 1, 2, 2.5, 4.75]) {
      const rel = Math.abs(pow10Det(x) - 10 ** x) / 10 ** x;
      expect(rel).toBeLessThan(1e-14);
    }
    expect(() => expDet(Number.NaN)).toThrow();
  });
});
