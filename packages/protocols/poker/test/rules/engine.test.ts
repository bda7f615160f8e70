import { describe, expect, it } from 'vitest';
import {
  applyAction,
  chipTotal,
  completeBetOrRaiseTo,
  dealHole,
  fold,
  legalActions,
  type PokerConfigInput,
  PokerRuleError,
  type PokerState,
  phhAction,
  setup,
  showOrMuck,
  splitPot,
  verifyCompleteBetOrRaiseTo,
  verifyFold,
  viewFor,
} from '../../rules/index.ts';

/** Plays PHH-notation lines (amounts in chips) from a fresh table. */
function play(config: PokerConfigInput, lines: string[]): PokerState {
  let s = setup(config);
  for (const line of lines) {
    const a = phhAction(line, 1);
    if (a) s = applyAction(s, a);
    expect(chipTotal(s)).toBe(config.startingStacks.reduce((x, y) => x + y, 0));
  }
  return s;
}

const table = (stacks: number[], blinds: number[], antes = stacks.map(() => 0)): PokerConfigInput => ({
  startingStacks: stacks,
  blindsOrStraddles: blinds,
  antes,
  minBet: Math.max(...blinds),
});

const deal = (holes: string[]) => holes.map((h, i) => `d dh p${i + 1} ${h}`);

function errorCode(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof PokerRuleError) return e.code;
    throw e;
  }
  return 'no error';
}

describe('turn order', () => {
  it('heads-up: seat 1 is button and small blind, acts first pre-flop and last after', () => {
    let s = play(table([1000, 1000], [5, 10]), deal(['AsAd', 'KsKd']));
    expect(s.bets).toEqual([10, 5]);
    expect(legalActions(s).actor).toBe(1);
    s = play(table([1000, 1000], [5, 10]), [...deal(['AsAd', 'KsKd']), 'p2 cc']);
    expect(legalActions(s)).toMatchObject({ actor: 0, check: true, raise: { min: 20, max: 1000 } });
    s = play(table([1000, 1000], [5, 10]), [...deal(['AsAd', 'KsKd']), 'p2 cc', 'p1 cc', 'd db 2c7d9h']);
    expect(legalActions(s).actor).toBe(0);
  });

  it('three or more: the seat after the big blind opens; after the flop the first live seat left of the button', () => {
    let s = play(table([100, 100, 100, 100], [1, 2, 0, 0]), deal(['AsAd', 'KsKd', 'QsQd', 'JsJd']));
    expect(legalActions(s).actor).toBe(2);
    s = play(table([100, 100, 100, 100], [1, 2, 0, 0]), [
      ...deal(['AsAd', 'KsKd', 'QsQd', 'JsJd']),
      'p3 cc',
      'p4 cc',
      'p1 f',
      'p2 cc',
      'd db 2c7d9h',
    ]);
    expect(legalActions(s).actor).toBe(1);
  });

  it('a straddle moves the opener and sets the minimum raise to twice the straddle', () => {
    const s = play(table([1000, 1000, 1000, 1000], [5, 10, 20, 0]), deal(['AsAd', 'KsKd', 'QsQd', 'JsJd']));
    expect(legalActions(s)).toMatchObject({ actor: 3, call: 20, raise: { min: 40 } });
  });

  it('a negative blind is a live post that does not move the opener (HandHQ)', () => {
    const s = play(table([200, 200, 200, 200, 200], [5, 10, 0, -10, 0]), [
      ...deal(['AsAd', 'KsKd', 'QsQd', 'JsJd', 'TsTd']),
      'p3 f',
    ]);
    expect(s.bets).toEqual([5, 10, 0, 10, 0]);
    expect(legalActions(s)).toMatchObject({ actor: 3, check: true, call: 0 });
  });
});

describe('betting rules', () => {
  const three = table([1000, 140, 1000], [5, 10, 0]);
  const holes = deal(['AsAd', 'KsKd', 'QsQd']);

  it('a short all-in raise does not reopen betting to seats that already acted', () => {
    const s = play(three, [...holes, 'p3 cbr 100', 'p1 cc', 'p2 cbr 140']);
    expect(legalActions(s)).toMatchObject({ actor: 2, call: 40, raise: null });
    expect(verifyCompleteBetOrRaiseTo(s, 2, 300)?.code).toBe('CANNOT_RAISE');
    const t = play(three, [...holes, 'p3 cbr 100', 'p1 cc', 'p2 cbr 140', 'p3 cc']);
    expect(legalActions(t)).toMatchObject({ actor: 0, call: 40, raise: null });
  });

  it('a full all-in raise reopens betting', () => {
    const full = play(table([1000, 200, 1000], [5, 10, 0]), [...holes, 'p3 cbr 100', 'p1 cc', 'p2 cbr 200']);
    expect(legalActions(full)).toMatchObject({ actor: 2, raise: { min: 300, max: 1000 } });
  });

  it('short all-ins that add up to a full raise reopen betting; one alone does not', () => {
    const five = table([1000, 1000, 1000, 150, 220], [5, 10, 0, 0, 0]);
    const holes5 = deal(['AsAd', 'KsKd', 'QsQd', 'JsJd', 'TsTd']);
    const both = play(five, [...holes5, 'p3 cbr 100', 'p4 cbr 150', 'p5 cbr 220', 'p1 f', 'p2 cc']);
    expect(legalActions(both)).toMatchObject({ actor: 2, call: 120, raise: { min: 310, max: 1000 } });
    const one = play(five, [...holes5, 'p3 cbr 100', 'p4 cbr 150', 'p5 cc', 'p1 f', 'p2 cc']);
    expect(legalActions(one)).toMatchObject({ actor: 2, call: 50, raise: null });
    // with only all-in opponents left there is nobody to raise against
    const alone = play(five, [...holes5, 'p3 cbr 100', 'p4 cbr 150', 'p5 cbr 220', 'p1 f', 'p2 f']);
    expect(legalActions(alone)).toMatchObject({ actor: 2, call: 120, raise: null });
  });

  it('a seat that has not acted may raise over a short all-in; the min raise keeps the last full increment', () => {
    const s = play(table([1000, 1000, 15, 1000], [5, 10, 0, 0]), [
      ...deal(['AsAd', 'KsKd', 'QsQd', 'JsJd']),
      'p3 cbr 15',
    ]);
    expect(legalActions(s)).toMatchObject({ actor: 3, call: 15, raise: { min: 25 } });
  });

  it('min bet, min raise and raise bounds', () => {
    const s = play(table([1000, 1000], [5, 10]), [...deal(['AsAd', 'KsKd']), 'p2 cbr 30']);
    expect(legalActions(s)).toMatchObject({ actor: 0, call: 20, raise: { min: 50, max: 1000 } });
    expect(verifyCompleteBetOrRaiseTo(s, 0, 49)?.code).toBe('RAISE_TOO_SMALL');
    expect(verifyCompleteBetOrRaiseTo(s, 0, 1001)?.code).toBe('RAISE_TOO_LARGE');
    expect(verifyCompleteBetOrRaiseTo(s, 0, 50.5)?.code).toBe('BAD_AMOUNT');
    expect(verifyCompleteBetOrRaiseTo(s, 0, Number.NaN)?.code).toBe('BAD_AMOUNT');
    expect(verifyCompleteBetOrRaiseTo(s, 0, 50)).toBeUndefined();
  });

  it('an all-in for less than a minimum raise is allowed; nobody can raise into an all-in table', () => {
    const s = play(table([1000, 45], [5, 10]), [...deal(['AsAd', 'KsKd']), 'p2 cbr 30']);
    expect(legalActions(s)).toMatchObject({ actor: 0, raise: { min: 45, max: 1000 } });
    const t = play(table([1000, 45], [5, 10]), [...deal(['AsAd', 'KsKd']), 'p2 cbr 45']);
    expect(legalActions(t)).toMatchObject({ actor: 0, call: 35, raise: null });
  });

  it('folding when checking is free is allowed (PokerKit cash-game mode): the seat folds', () => {
    const s = play(table([1000, 1000], [5, 10]), [...deal(['AsAd', 'KsKd']), 'p2 cc']);
    expect(verifyFold(s, 0)).toBeUndefined();
    expect(legalActions(s)).toMatchObject({ actor: 0, check: true, fold: true });
    const t = fold(s, 0);
    expect(t).toMatchObject({ phase: 'complete', folded: [true, false], stacks: [990, 1010] });
    expect(t.log.at(-1)).toBe('p1 f');
  });
});

describe('pots and payouts', () => {
  it('returns the uncalled part of a bet', () => {
    const s = play(table([1000, 1000], [5, 10]), [...deal(['AsAd', 'KsKd']), 'p2 cbr 300', 'p1 f']);
    expect(s.phase).toBe('complete');
    expect(s.stacks).toEqual([990, 1010]);
  });

  it('builds side pots by contribution layers and returns the excess', () => {
    const s = play(table([100, 300, 500], [5, 10, 0]), [
      ...deal(['AsAd', 'KsKd', 'QsQd']),
      'p3 cbr 500',
      'p1 cc',
      'p2 cc',
      'd db 2c7d9h',
      'd db Jc',
      'd db 3s',
    ]);
    expect(legalActions(s)).toMatchObject({ phase: 'showdown', actor: 2 }); // the last aggressor shows first
    const done = ['p3 sm', 'p1 sm AsAd', 'p2 sm KsKd'].reduce((t, l) => applyAction(t, phhAction(l, 1)!), s);
    expect(done.phase).toBe('complete');
    expect(done.pots).toEqual([
      { amount: 300, eligible: [0, 1, 2], winners: [0], shares: [300] },
      { amount: 400, eligible: [1, 2], winners: [1], shares: [400] },
    ]);
    expect(done.stacks).toEqual([300, 400, 200]);
  });

  it('keeps folded chips in the pot as dead money', () => {
    const s = play(table([1000, 1000, 1000, 1000], [5, 10, 0, 0]), [
      ...deal(['AsAd', 'KsKd', 'QsQd', 'JsJd']),
      'p3 cbr 100',
      'p4 cc',
      'p1 f',
      'p2 f',
      'd db 2c7d9h',
      'p3 cbr 200',
      'p4 f',
    ]);
    expect(s.stacks).toEqual([995, 990, 1115, 900]);
  });

  it('gives the odd chip to the first winner left of the button', () => {
    // antes 1 each + 10 + 10: a 23-chip pot, board royal flush: p1 and p2 split, p1 gets 12
    const s = play(table([1000, 1000, 1000], [5, 10, 0], [1, 1, 1]), [
      ...deal(['2c3d', '2d3c', '4h5h']),
      'p3 f',
      'p1 cc',
      'p2 cc',
      'd db AsKsQs',
      'p1 cc',
      'p2 cc',
      'd db Js',
      'p1 cc',
      'p2 cc',
      'd db Ts',
      'p1 cc',
      'p2 cc',
      'p1 sm 2c3d',
      'p2 sm 2d3c',
    ]);
    expect(s.pots).toEqual([{ amount: 23, eligible: [0, 1], winners: [0, 1], shares: [12, 11] }]);
    expect(s.stacks).toEqual([1001, 1000, 999]);
  });

  it('splits by the split unit, odd units one each from the left of the button', () => {
    expect(splitPot(23, [0, 1, 2], 1)).toEqual([8, 8, 7]);
    expect(splitPot(45500, [0, 2], 100)).toEqual([22800, 22700]);
    expect(splitPot(45525, [0, 2], 100)).toEqual([22825, 22700]);
    expect(splitPot(10, [4], 1)).toEqual([10]);
  });

  it('all-in blinds: heads-up short blind, no betting, excess returned, board runs out', () => {
    let s = play(table([1000, 3], [5, 10]), deal(['AsAd', 'KsKd']));
    expect(s).toMatchObject({
      phase: 'deal',
      street: 1,
      bettingClosed: true,
      bets: [0, 0],
      committed: [3, 3],
    });
    expect(s.stacks).toEqual([997, 0]);
    s = ['d db 2c7d9h', 'd db Jc', 'd db 3s'].reduce((t, l) => applyAction(t, phhAction(l, 1)!), s);
    expect(legalActions(s)).toMatchObject({ phase: 'showdown', actor: 1 });
    s = showOrMuck(showOrMuck(s, 1), 0);
    expect(s.stacks).toEqual([1003, 0]);
  });

  it('a big-blind ante is dead money that the winner collects', () => {
    const s = play(table([1000, 1000, 1000], [40, 80, 0], [0, 120, 0]), [
      ...deal(['AsAd', 'KsKd', 'QsQd']),
      'p3 f',
      'p1 f',
    ]);
    expect(s.stacks).toEqual([960, 1040, 1000]);
  });
});

describe('showdown', () => {
  const lines = [
    ...deal(['AsAd', 'KsKd', 'QsQd']),
    'p3 cc',
    'p1 cc',
    'p2 cc',
    'd db 2c7d9h',
    'p1 cc',
    'p2 cbr 20',
    'p3 cc',
    'p1 f',
    'd db Jc',
    'p2 cc',
    'p3 cc',
    'd db 3s',
    'p2 cc',
    'p3 cc',
  ];
  it('with no bet on the last round the first to act shows first; others wait; mucking gives up the pot', () => {
    const s = play(table([1000, 1000, 1000], [5, 10, 0]), lines);
    expect(legalActions(s)).toMatchObject({ phase: 'showdown', actor: 1 });
    expect(errorCode(() => showOrMuck(s, 2))).toBe('NOT_YOUR_TURN');
    expect(errorCode(() => showOrMuck(s, 1, { cards: ['As', 'Ad'] }))).toBe('CARDS_MISMATCH');
    expect(errorCode(() => showOrMuck(s, 0))).toBe('NOT_IN_HAND');
    const t = showOrMuck(s, 1);
    const mucked = showOrMuck(t, 2, { muck: true });
    expect(mucked.stacks).toEqual([990, 1040, 970]);
    const shown = showOrMuck(t, 2);
    expect(shown.stacks).toEqual([990, 1040, 970]);
    expect(shown.log.slice(-2)).toEqual(['p2 sm KsKd', 'p3 sm QsQd']);
  });
});

describe('errors leave the state untouched', () => {
  it('every rejected operation throws a typed error and changes nothing', () => {
    const s = play(table([1000, 1000, 1000], [5, 10, 0]), deal(['AsAd', 'KsKd', 'QsQd']));
    const before = JSON.stringify(s);
    expect(errorCode(() => fold(s, 0))).toBe('NOT_YOUR_TURN');
    expect(errorCode(() => fold(s, 7))).toBe('NO_SUCH_SEAT');
    expect(errorCode(() => completeBetOrRaiseTo(s, 2, 15))).toBe('RAISE_TOO_SMALL');
    expect(errorCode(() => dealHole(s, 0, ['2c']))).toBe('WRONG_PHASE');
    expect(errorCode(() => applyAction(s, { type: 'dealBoard', cards: ['2c'] }))).toBe('WRONG_PHASE');
    expect(errorCode(() => applyAction(s, { type: 'nonsense' } as never))).toBe('INVALID_ACTION');
    expect(JSON.stringify(s)).toBe(before);
    const fresh = setup(table([1000, 1000], [5, 10]));
    expect(errorCode(() => dealHole(fresh, 1, ['As', 'Kd']))).toBe('NOT_YOUR_TURN');
    expect(errorCode(() => dealHole(fresh, 0, ['As', 'As']))).toBe('DUPLICATE_CARD');
    expect(errorCode(() => dealHole(fresh, 0, ['As', 'Kd', 'Qd']))).toBe('WRONG_CARD_COUNT');
    expect(errorCode(() => dealHole(fresh, 0, ['Zz']))).toBe('BAD_CARDS');
    expect(errorCode(() => setup({ ...table([1000, 1000], [5, 10]), antes: [0] }))).toBe('INVALID_CONFIG');
    expect(errorCode(() => setup({ ...table([1000], [5]) }))).toBe('INVALID_CONFIG');
    const done = play(table([1000, 1000], [5, 10]), [...deal(['AsAd', 'KsKd']), 'p2 f']);
    expect(errorCode(() => fold(done, 0))).toBe('HAND_COMPLETE');
  });
});

describe('views', () => {
  it('hides other hole cards, the deck and dealt lines until shown', () => {
    const s = play(table([1000, 1000], [5, 10]), deal(['AsAd', 'KsKd']));
    const v = viewFor(s, 0);
    expect(v.hole).toEqual([
      ['As', 'Ad'],
      ['??', '??'],
    ]);
    expect(v.log).toEqual(['d dh p1 AsAd', 'd dh p2 ????']);
    const observer = viewFor(s, null);
    expect(JSON.stringify([observer.hole, observer.log, observer.config])).not.toMatch(/As|Ad|Ks|Kd/);
  });
});
