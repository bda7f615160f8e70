import { describe, expect, it } from 'vitest';
import { agreementOf, consensusOf, jaccard, tokenSet } from '../../rules/index.ts';

describe('consensus', () => {
  it('normalises tokens: NFKC, lower case, split on non-letters/digits, as a set', () => {
    expect([...tokenSet('Use a TOKEN-bucket, per key; per key!')]).toEqual([
      'use',
      'a',
      'token',
      'bucket',
      'per',
      'key',
    ]);
    expect([...tokenSet('Ｆｕｌｌ width Ⅸ')]).toEqual(['full', 'width', 'ix']);
    expect(tokenSet('  ,; ').size).toBe(0);
  });

  it('jaccard and agreement edge cases', () => {
    expect(jaccard(new Set(), new Set())).toBe(1);
    expect(jaccard(new Set(['a']), new Set())).toBe(0);
    expect(agreementOf(['only one'])).toBe(1);
    expect(agreementOf([])).toBe(1);
    expect(consensusOf([]).score).toBe(0);
  });

  it('the worked example of docs/deliberation.md: 0.628095…', () => {
    const c = consensusOf([
      { confidence: 0.9, support: 'ana', text: 'Use a token bucket per key' },
      { confidence: 0.8, support: 'ana', text: 'Token bucket per API key' },
      { confidence: 0.6, support: 'ben', text: 'Use a sliding window' },
    ]);
    // J(1,2) = 4/7, J(1,3) = 2/8, J(2,3) = 0 → agreement = 23/84.
    expect(c.agreement).toBeCloseTo(23 / 84, 12);
    expect(c.meanConfidence).toBeCloseTo(2.3 / 3, 12);
    expect(c.topShare).toBeCloseTo(2 / 3, 12);
    expect(c.topChoice).toBe('ana');
    expect(c.score).toBeCloseTo(0.4 * (2.3 / 3) + 0.4 * (2 / 3) + 0.2 * (23 / 84), 12);
    expect(c.score.toFixed(6)).toBe('0.628095');
  });

  it('a response backing nobody still counts in the top-share denominator', () => {
    const c = consensusOf([
      { confidence: 1, support: null, text: 'x' },
      { confidence: 1, support: 'a', text: 'x' },
    ]);
    expect(c.topShare).toBe(0.5);
    expect(c.score).toBeCloseTo(0.4 + 0.2 + 0.2, 12);
  });
});
