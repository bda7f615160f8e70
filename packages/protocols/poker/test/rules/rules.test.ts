// The rule decisions docs/poker.md records under "Rule decisions", one test each: where PokerKit (the
// reference engine) and the card-room rules (TDA) could be read two ways, these pin the reading we chose.
import { describe, expect, it } from 'vitest';
import {
  applyAction,
  chipTotal,
  legalActions,
  type PokerConfigInput,
  type PokerState,
  parsePhh,
  phhAction,
  replayPhh,
  setup,
  verifyCompleteBetOrRaiseTo,
} from '../../rules/index.ts';

function play(config: PokerConfigInput, lines: string[]): PokerState {
  let s = setup(config);
  const total = config.startingStacks.reduce((a, b) => a + b, 0);
  for (const line of lines) {
    const a = phhAction(line, 1);
    if (a) s = applyAction(s, a);
    expect(chipTotal(s)).toBe(total);
  }
  return s;
}

const table = (stacks: number[], blinds: number[], minBet = Math.max(...blinds)): PokerConfigInput => ({
  startingStacks: stacks,
  blindsOrStraddles: blinds,
  antes: stacks.map(() => 0),
  minBet,
});

const deal = (holes: string[]) => holes.map((h, i) => `d dh p${i + 1} ${h}`);

describe('a fold when checking is free', () => {
  it('is accepted, so a hand history containing one replays to its finishing stacks', () => {
    // p3 (the big blind) folds with the option to check; p1 and p2 play on and p2 wins.
    const hand = parsePhh(
      [
        "variant = 'NT'",
        'antes = [0, 0, 0]',
        'blinds_or_straddles = [5, 10, 0]',
        'min_bet = 10',
        'starting_stacks = [1000, 1000, 1000]',
        "actions = ['d dh p1 7c2d', 'd dh p2 AsAd', 'd dh p3 KsKd', 'p3 cc', 'p1 cc', 'p2 f',",
        "  'd db 2c7d9h', 'p1 cc', 'p3 cbr 20', 'p1 f']",
        'finishing_stacks = [990, 990, 1020]',
      ].join('\n'),
    );
    const r = replayPhh(hand);
    expect(r.state.stacks).toEqual(hand.finishingStacks);
    expect(r.state.folded).toEqual([true, true, false]);
  });

  it('chips that only folded seats matched go back to them, as an uncalled bet does', () => {
    // p3 is all in for 20; p1 and p2 put in 100 each, then both fold on the flop with nothing to call.
    const s = play(table([1000, 1000, 20], [5, 10, 0]), [
      ...deal(['AsAd', 'KsKd', '7c2d']),
      'p3 cbr 20',
      'p1 cbr 100',
      'p2 cc',
      'd db 2c7d9h',
      'p1 f',
      'p2 f',
    ]);
    expect(s.phase).toBe('complete');
    expect(s.pots).toEqual([{ amount: 60, eligible: [2], winners: [2], shares: [60] }]);
    expect(s.stacks).toEqual([980, 980, 60]);
  });
});

describe('re-opening the betting (TDA 2024 rule 47-A)', () => {
  // 6 seats: p3 opens to 100 (a 90 raise); p4 (150) and p6 (220) go all in short; p5 calls 150 between.
  const six = table([1000, 1000, 1000, 150, 1000, 220], [5, 10, 0, 0, 0, 0]);
  const lines = [
    ...deal(['2c3c', '2d3d', 'AsAd', 'KsKd', 'QsQd', 'JsJd']),
    'p3 cbr 100',
    'p4 cbr 150',
    'p5 cc',
    'p6 cbr 220',
    'p1 f',
    'p2 f',
  ];

  it('short all-ins that add up to a full raise over the bet a player last faced reopen it for that player', () => {
    // p3 last faced 100 and now faces 220: 120 ≥ the 90 full raise, so p3 may re-raise, by 90 at least.
    const s = play(six, lines);
    expect(legalActions(s)).toMatchObject({ actor: 2, call: 120, raise: { min: 310, max: 1000 } });
  });

  it('counted from the bet that player last faced: a player who called the first short all-in may not', () => {
    // p5 last faced 150 and now faces 220: 70 < 90, so p5 may only call or fold.
    const s = play(six, [...lines, 'p3 cc']);
    expect(legalActions(s)).toMatchObject({ actor: 4, call: 70, raise: null, fold: true });
    expect(verifyCompleteBetOrRaiseTo(s, 4, 1000)?.code).toBe('CANNOT_RAISE');
  });
});

describe('an all-in opening bet smaller than the minimum bet', () => {
  // Flop, min bet 10: p1 and p2 check, p3 bets its last 6 chips.
  const four = table([1000, 1000, 16, 1000], [5, 10, 0, 0]);
  const flop = [
    ...deal(['2c3c', '2d3d', 'AsAd', 'KsKd']),
    'p3 cc',
    'p4 cc',
    'p1 cc',
    'p2 cc',
    'd db 7h8h9c',
    'p1 cc',
    'p2 cc',
    'p3 cbr 6',
  ];

  it('does not reopen the betting for a player who checked: call or fold only', () => {
    let s = play(four, flop);
    // p4 has not acted yet: it may raise, to the all-in plus a full bet.
    expect(legalActions(s)).toMatchObject({ actor: 3, call: 6, raise: { min: 16, max: 990 } });
    s = play(four, [...flop, 'p4 cc']);
    expect(legalActions(s)).toMatchObject({ actor: 0, call: 6, raise: null });
    expect(verifyCompleteBetOrRaiseTo(s, 0, 16)?.code).toBe('CANNOT_RAISE');
  });

  it('a full raise behind it reopens the betting for the checker', () => {
    const s = play(four, [...flop, 'p4 cbr 16']);
    expect(legalActions(s)).toMatchObject({ actor: 0, call: 16, raise: { min: 26, max: 990 } });
  });
});

describe('odd chips when several pots have the same winners', () => {
  it('each pot is split on its own, its odd chip to the winner nearest the button: not pooled', () => {
    // p4 is all in for 8; p1 folds its small blind; p5 calls 21 and folds the flop. p2 and p3 tie
    // (A-K-Q-J-9) and p4 loses, so a 33-chip main pot and a 59-chip side pot both split p2/p3.
    const s = play(table([100, 100, 100, 8, 100], [1, 2, 0, 0, 0]), [
      ...deal(['5d5h', 'AhQh', 'AsQs', '3c4c', '6s6h']),
      'p3 cbr 21',
      'p4 cc',
      'p5 cc',
      'p1 f',
      'p2 cc',
      'd db 2c7d9h',
      'p2 cbr 10',
      'p3 cc',
      'p5 f',
      'd db Jc',
      'p2 cc',
      'p3 cc',
      'd db Kd',
      'p2 cc',
      'p3 cc',
      'p2 sm AhQh',
      'p3 sm AsQs',
      'p4 sm 3c4c',
    ]);
    expect(s.phase).toBe('complete');
    expect(s.pots).toEqual([
      { amount: 33, eligible: [1, 2, 3], winners: [1, 2], shares: [17, 16] },
      { amount: 59, eligible: [1, 2], winners: [1, 2], shares: [30, 29] },
    ]);
    // p2 gets both odd chips (47 to 45); pooling the 92 would have split it 46/46.
    expect(s.winnings).toEqual([0, 47, 45, 0, 0]);
    expect(s.stacks).toEqual([99, 116, 114, 0, 79]);
  });
});
