import { describe, expect, it } from 'vitest';
import { type Ballot, tally } from '../../rules/index.ts';

const b = (voter: string, ranking: string[], weight = 1): Ballot => ({ voter, ranking, weight });

// Five ballots over A, B, C (candidates listed in tie-break order: A before B before C).
const FIVE = [
  b('v1', ['A', 'B', 'C']),
  b('v2', ['A', 'C', 'B']),
  b('v3', ['B', 'C', 'A'], 3),
  b('v4', ['C', 'B', 'A']),
  b('v5', ['B', 'A', 'C']),
];
const ABC = ['A', 'B', 'C'];

describe('voting methods on a hand-checked profile', () => {
  it('plurality: A 2, B 2, C 1 — A wins the tie by tie-break order', () => {
    expect(tally('plurality', FIVE, ABC)).toEqual({
      winner: 'A',
      breakdown: { A: 2, B: 2, C: 1 },
      tieBroken: true,
      via: null,
    });
    // The same profile with B listed first: the tie goes to B.
    expect(tally('plurality', FIVE, ['B', 'A', 'C']).winner).toBe('B');
  });

  it('weighted: first-preference weight A 2, B 4, C 1 — B', () => {
    expect(tally('weighted', FIVE, ABC)).toEqual({
      winner: 'B',
      breakdown: { A: 2, B: 4, C: 1 },
      tieBroken: false,
      via: null,
    });
  });

  it('majority: nobody has 3 of 5, so A and B run off on full rankings; B wins 3–2', () => {
    expect(tally('majority', FIVE, ABC)).toEqual({
      winner: 'B',
      breakdown: { A: 2, B: 2, C: 1 },
      tieBroken: false,
      via: 'runoff',
    });
    expect(tally('majority', [b('x', ['C']), b('y', ['C']), b('z', ['A'])], ABC).winner).toBe('C');
  });

  it('majority: a level runoff goes to the earlier candidate', () => {
    const r = tally('majority', [b('x', ['A', 'B']), b('y', ['B', 'A'])], ABC);
    expect(r).toMatchObject({ winner: 'A', tieBroken: true, via: 'runoff' });
  });

  it('borda: points 2/1/0 give A 5, B 6, C 4 — B', () => {
    expect(tally('borda', FIVE, ABC)).toEqual({
      winner: 'B',
      breakdown: { A: 5, B: 6, C: 4 },
      tieBroken: false,
      via: null,
    });
  });

  it('borda: a tie goes to the earlier candidate', () => {
    const r = tally('borda', [b('x', ['A', 'B']), b('y', ['B', 'A'])], ['B', 'A']);
    expect(r).toEqual({ winner: 'B', breakdown: { B: 1, A: 1 }, tieBroken: true, via: null });
  });

  it('condorcet: B beats A 3–2 and C 3–2; Copeland scores B 2, A 0, C −2', () => {
    expect(tally('condorcet', FIVE, ABC)).toEqual({
      winner: 'B',
      breakdown: { A: 0, B: 2, C: -2 },
      tieBroken: false,
      via: null,
    });
  });

  it('condorcet: a cycle has no winner head to head; Copeland ties at 0 and A wins by order', () => {
    const cycle = [b('x', ['A', 'B', 'C']), b('y', ['B', 'C', 'A']), b('z', ['C', 'A', 'B'])];
    expect(tally('condorcet', cycle, ABC)).toEqual({
      winner: 'A',
      breakdown: { A: 0, B: 0, C: 0 },
      tieBroken: true,
      via: 'copeland',
    });
    expect(tally('condorcet', cycle, ['C', 'B', 'A']).winner).toBe('C');
  });

  it('condorcet: a ranked candidate beats an unranked one', () => {
    expect(tally('condorcet', [b('x', ['C']), b('y', ['C']), b('z', ['A', 'B'])], ABC).winner).toBe('C');
  });

  it('unanimous: only a common first choice wins', () => {
    expect(tally('unanimous', FIVE, ABC).winner).toBeNull();
    expect(tally('unanimous', [b('x', ['B', 'A']), b('y', ['B']), b('z', [])], ABC)).toEqual({
      winner: 'B',
      breakdown: { A: 0, B: 2, C: 0 },
      tieBroken: false,
      via: null,
    });
  });

  it('abstentions and empty candidate lists give no winner', () => {
    for (const m of ['weighted', 'majority', 'plurality', 'borda', 'condorcet', 'unanimous'] as const) {
      expect(tally(m, [b('x', [])], ABC).winner).toBeNull();
      expect(tally(m, FIVE, []).winner).toBeNull();
    }
  });
});
