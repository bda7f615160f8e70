import { describe, expect, it } from 'vitest';
import {
  bordaPoints,
  brierScore,
  calibrationBonus,
  concessionScore,
  movementBonus,
  placements,
  round2,
  trimmedMean,
  weightedRubric,
} from '../../rules/index.ts';

/** The scoring rules one by one, each with its arithmetic done by hand in the comments. */

const W = { e: 35, r: 30, c: 20, v: 5, y: 10 };
const rules = { reward: 2, penalty: 2, cap: 6 };

describe('scoring: rubric', () => {
  it('weights E/R/C/V/Y 35/30/20/5/10', () => {
    // (35·80 + 30·70 + 20·90 + 5·100 + 10·60)/100 = (2800 + 2100 + 1800 + 500 + 600)/100 = 78
    expect(weightedRubric({ e: 80, r: 70, c: 90, v: 100, y: 60 }, W)).toBe(78);
    // Evidence alone: 35·100/100 = 35; civility alone: 5·100/100 = 5.
    expect(weightedRubric({ e: 100, r: 0, c: 0, v: 0, y: 0 }, W)).toBe(35);
    expect(weightedRubric({ e: 0, r: 0, c: 0, v: 100, y: 0 }, W)).toBe(5);
  });

  it('trimmed mean across judges: drop the highest and lowest from 3 judges up', () => {
    // [60, 78, 90] → drop 60 and 90 → 78.
    expect(trimmedMean([90, 60, 78])).toBe(78);
    // [10, 50, 60, 100] → drop 10 and 100 → (50 + 60)/2 = 55. An outlier judge cannot swing it.
    expect(trimmedMean([100, 10, 60, 50])).toBe(55);
    // Fewer than 3: a plain mean. (40 + 50)/2 = 45.
    expect(trimmedMean([40, 50])).toBe(45);
    expect(trimmedMean([])).toBeNull();
  });
});

describe('scoring: movement, concessions, calibration', () => {
  it('movement = α × mean stance shift / 100', () => {
    // Shifts +30 and +20 → mean 25 → 10·25/100 = 2.5.
    expect(
      movementBonus(
        [
          { before: 40, after: 70 },
          { before: 60, after: 80 },
        ],
        10,
      ),
    ).toBe(2.5);
    // One viewer from 0 to 100: 10·100/100 = 10, the most there is (±α).
    expect(movementBonus([{ before: 0, after: 100 }], 10)).toBe(10);
    expect(movementBonus([{ before: 50, after: 40 }], 10)).toBe(-1);
    expect(movementBonus([], 10)).toBe(0);
  });

  it('concessions: honest toward the fact-check (+2), away from it (−2), clamped to ±6', () => {
    // Conceding another's true claim: +2. Withdrawing one's own false / needs_work claim: +2 each.
    expect(concessionScore([{ own: false, verdict: 'true' }], rules)).toBe(2);
    expect(
      concessionScore(
        [
          { own: true, verdict: 'false' },
          { own: true, verdict: 'needs_work' },
        ],
        rules,
      ),
    ).toBe(4);
    // Conceding another's false claim (unsupported): −2. Withdrawing one's own true claim: −2.
    expect(
      concessionScore(
        [
          { own: false, verdict: 'false' },
          { own: true, verdict: 'true' },
        ],
        rules,
      ),
    ).toBe(-4);
    // Unclear or unchecked: 0.
    expect(
      concessionScore(
        [
          { own: false, verdict: 'unclear' },
          { own: true, verdict: null },
        ],
        rules,
      ),
    ).toBe(0);
    // Four honest concessions: 4·2 = 8 → clamped to 6.
    expect(concessionScore(Array(4).fill({ own: false, verdict: 'true' }), rules)).toBe(6);
  });

  it('calibration: Brier over confidences vs verdicts, bonus 5·(1 − B/0.25) floored at 0', () => {
    // 90 % true → (0.9 − 1)² = 0.01; 80 % true → 0.04; 70 % true → 0.09. B = 0.14/3 = 0.046667.
    const b = brierScore([
      { confidence: 90, outcome: 1 },
      { confidence: 80, outcome: 1 },
      { confidence: 70, outcome: 1 },
    ]);
    expect(b).toBeCloseTo(0.0466667, 6);
    // 5·(1 − 0.046667/0.25) = 5·(1 − 0.186667) = 5·0.813333 = 4.066667 → 4.07.
    expect(round2(calibrationBonus(b, 5))).toBe(4.07);
    // Saying 50 % on everything: B = 0.25 → bonus 0. Perfect: B = 0 → 5.
    expect(calibrationBonus(brierScore([{ confidence: 50, outcome: 0 }]), 5)).toBe(0);
    expect(
      calibrationBonus(
        brierScore([
          { confidence: 100, outcome: 1 },
          { confidence: 0, outcome: 0 },
        ]),
        5,
      ),
    ).toBe(5);
    // Confidently wrong: 70 % on a false claim → 0.49 > 0.25 → 0, never negative.
    expect(calibrationBonus(brierScore([{ confidence: 70, outcome: 0 }]), 5)).toBe(0);
    expect(calibrationBonus(null, 5)).toBe(0);
  });
});

describe('scoring: final vote', () => {
  const seats = ['anon_1', 'anon_2', 'anon_3', 'anon_4', 'anon_5'];

  it('Borda over rankings: with 5 debaters, 1st = 4, 2nd = 3, 3rd = 2 points', () => {
    // [2,1] → anon_2 +4, anon_1 +3; [1,2,4] → anon_1 +4, anon_2 +3, anon_4 +2; [2,1] again.
    // anon_1 = 3 + 4 + 3 = 10; anon_2 = 4 + 3 + 4 = 11; anon_4 = 2.
    const points = bordaPoints(
      [['anon_2', 'anon_1'], ['anon_1', 'anon_2', 'anon_4'], ['anon_2', 'anon_1'], []],
      seats,
    );
    expect(points).toEqual({ anon_1: 10, anon_2: 11, anon_3: 0, anon_4: 2, anon_5: 0 });
  });

  it('placements: approvals, then Borda, then total; equal on all → shared place', () => {
    const placed = placements(
      [
        { seat: 'anon_1', approvals: 3, borda: 10, total: 86.57 },
        { seat: 'anon_2', approvals: 3, borda: 11, total: 67.5 },
        { seat: 'anon_3', approvals: 0, borda: 0, total: 0 },
        { seat: 'anon_4', approvals: 1, borda: 0, total: 47 },
        { seat: 'anon_5', approvals: 1, borda: 0, total: 47 },
      ],
      'approval',
    );
    // anon_1/anon_2 tie on 3 approvals; Borda 11 > 10 puts anon_2 first. anon_4 and anon_5 are
    // equal on approvals, Borda and total: they share 3rd, and the next place is 5th.
    expect(placed.map((p) => `${p.seat}:${p.place}`)).toEqual([
      'anon_2:1',
      'anon_1:2',
      'anon_4:3',
      'anon_5:3',
      'anon_3:5',
    ]);
    const byScore = placements(
      [
        { seat: 'anon_1', approvals: 0, borda: 0, total: 50 },
        { seat: 'anon_2', approvals: 5, borda: 9, total: 40 },
      ],
      'score',
    );
    expect(byScore.map((p) => p.seat)).toEqual(['anon_1', 'anon_2']);
  });
});
