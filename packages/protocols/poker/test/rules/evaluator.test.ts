import { createRng } from '@db8/core';
import pokersolver from 'pokersolver';
import { describe, expect, it } from 'vitest';
import { cardCode, evaluate7, evaluateCards, fullDeck, handCategory, parseCards } from '../../rules/index.ts';

const v = (cards: string) => evaluateCards(parseCards(cards)!);

describe('evaluator: categories', () => {
  const cases: [string, string][] = [
    ['AsKsQsJsTs2c3d', 'Straight Flush'],
    ['As2s3s4s5s9dKc', 'Straight Flush'],
    ['9c9d9h9sKd2c3c', 'Four of a Kind'],
    ['9c9d9hKsKd2c3c', 'Full House'],
    ['9c9d9hKsKdKc3c', 'Full House'],
    ['2h7h9hJhKh2c2d', 'Flush'],
    ['As2d3c4h5s9dKc', 'Straight'],
    ['Ts9d8c7h6sAsAd', 'Straight'],
    ['7c7d7hAsKd2c4d', 'Three of a Kind'],
    ['7c7dAhAsKd2c2d', 'Two Pair'],
    ['7c7dAhKsQd2c4d', 'Pair'],
    ['7c9dAhKsQd2c4d', 'High Card'],
  ];
  for (const [cards, name] of cases) {
    it(`${cards} is ${name}`, () => expect(handCategory(v(cards))).toBe(name));
  }
});

describe('evaluator: order, kickers and ties', () => {
  it('ranks the categories in order', () => {
    const ladder = [
      '7c9dAhKsQd2c4d',
      '7c7dAhKsQd2c4d',
      '7c7dAhAsKd2c3d',
      '7c7d7hAsKd2c4d',
      'As2d3c4h5s9dKc',
      '2h7h9hJhKh2c3d',
      '9c9d9hKsKd2c3c',
      '9c9d9h9sKd2c3c',
      'As2s3s4s5s9dKc',
    ];
    const values = ladder.map(v);
    for (let i = 1; i < values.length; i++) expect(values[i]!).toBeGreaterThan(values[i - 1]!);
  });
  it('the wheel is the lowest straight and the lowest straight flush', () => {
    expect(v('As2d3c4h5s9dJc')).toBeLessThan(v('6s2d3c4h5s9dJc'));
    expect(v('As2s3s4s5s9dJc')).toBeLessThan(v('6s2s3s4s5s9dJc'));
  });
  it('compares kickers: pair, two pair (third pair only as kicker), trips, quads', () => {
    expect(v('AcAdKs9h7c3d2s')).toBeGreaterThan(v('AcAdQs9h7c3d2s'));
    expect(v('KcKd9h9s4c4dAs')).toBeGreaterThan(v('KcKd9h9s4c4dQs'));
    expect(v('KcKd9h9s4c4dQs')).toBe(v('KcKd9h9s5c5dQs'));
    expect(v('7c7d7hAsKd2c4d')).toBeGreaterThan(v('7c7d7hAsQd2c4d'));
    expect(v('9c9d9h9sAd2c3c')).toBeGreaterThan(v('9c9d9h9sKdQcJc'));
  });
  it('full house: higher trips first, then the best pair (from a second set of trips too)', () => {
    expect(v('9c9d9hKsKdKc3c')).toBe(v('KsKdKc9c9d2h3c'));
    expect(v('2c2d2hAsAd5c6c')).toBeLessThan(v('3c3d3h4s4d5c6c'));
  });
  it('only the best five cards count (board plays = tie)', () => {
    expect(v('AhKhQdJsTc2c3d')).toBe(v('AhKhQdJsTc4c5d'));
    expect(v('2c3dAhAsKdKcQh')).toBe(v('4c5dAhAsKdKcQh'));
  });
  it('flush compares all five cards', () => {
    expect(v('Ah9h7h5h3h2cKd')).toBeGreaterThan(v('Ah9h7h5h2hQcKd'));
  });
  it('evaluate7 and evaluateCards agree', () => {
    const cards = parseCards('AsKd7h7c2s9d9h')!;
    const c = cards.map(cardCode) as [number, number, number, number, number, number, number];
    expect(evaluate7(...c)).toBe(evaluateCards(cards));
  });
  it('rejects unknown and repeated cards', () => {
    expect(() => evaluateCards(['As', 'As', 'Kd', 'Qd', 'Jd'])).toThrow(RangeError);
    expect(() => evaluateCards(['As', '??', 'Kd', 'Qd', 'Jd'])).toThrow(RangeError);
  });
});

describe('evaluator: agrees with pokersolver', () => {
  it('on 50,000 random 7-card hands (category, and who wins each pair)', () => {
    const rng = createRng('poker-evaluator-vs-pokersolver');
    const deck = fullDeck();
    const { Hand } = pokersolver;
    let categoryMismatches = 0;
    let orderMismatches = 0;
    const pairs = 25_000;
    for (let t = 0; t < pairs; t++) {
      const cards = rng.shuffle(deck).slice(0, 9);
      // Two hands sharing a 5-card board, as at a showdown: many ties and close kickers.
      const a = cards.slice(0, 7);
      const b = [...cards.slice(2, 7), cards[7]!, cards[8]!];
      const va = evaluateCards(a);
      const vb = evaluateCards(b);
      const sa = Hand.solve(a);
      const sb = Hand.solve(b);
      if (sa.rank !== (va >>> 26) + 1 || sb.rank !== (vb >>> 26) + 1) categoryMismatches++;
      const w = Hand.winners([sa, sb]);
      const theirs = w.length === 2 ? 0 : w[0] === sa ? 1 : -1;
      if (theirs !== Math.sign(va - vb)) orderMismatches++;
    }
    expect({ categoryMismatches, orderMismatches }).toEqual({ categoryMismatches: 0, orderMismatches: 0 });
  });
});
