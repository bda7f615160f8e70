// Random tables (2–10 seats, random stacks, blinds, straddles, antes) played by random agents that pick
// among the engine's own legal actions, with random illegal actions thrown at every step.
import { createRng } from '@db8/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyAction,
  canApply,
  checkConfig,
  chipTotal,
  dealDeck,
  fullDeck,
  type LegalActions,
  legalActions,
  type PokerAction,
  type PokerConfigInput,
  PokerConfigSchema,
  PokerRuleError,
  type PokerState,
  PokerStateSchema,
  parsePhh,
  replayPhh,
  setup,
  toPhh,
  verifyAction,
  verifyDeckCommitment,
} from '../../rules/index.ts';

const tableArb = fc
  .record({
    n: fc.integer({ min: 2, max: 10 }),
    bb: fc.integer({ min: 1, max: 40 }),
    sbPart: fc.integer({ min: 0, max: 100 }),
    straddle: fc.boolean(),
    anteKind: fc.constantFrom('none', 'uniform', 'bigBlind'),
    ante: fc.integer({ min: 1, max: 10 }),
    stacks: fc.array(fc.integer({ min: 1, max: 3000 }), { minLength: 10, maxLength: 10 }),
    seed: fc.string({ minLength: 1, maxLength: 12 }),
    explicitDeal: fc.boolean(),
  })
  .map((t) => {
    const blinds = new Array<number>(t.n).fill(0);
    blinds[0] = Math.floor((t.bb * t.sbPart) / 100);
    blinds[1] = t.bb;
    if (t.straddle && t.n > 3) blinds[2] = 2 * t.bb;
    const antes = new Array<number>(t.n).fill(0);
    if (t.anteKind === 'uniform') antes.fill(t.ante);
    if (t.anteKind === 'bigBlind') antes[1] = t.bb;
    const { deck } = dealDeck(t.seed, 1);
    const config: PokerConfigInput = {
      startingStacks: t.stacks.slice(0, t.n),
      antes,
      blindsOrStraddles: blinds,
      minBet: t.bb,
      ...(t.explicitDeal ? {} : { deck, autoShowdown: false }),
    };
    return { config, deck, explicitDeal: t.explicitDeal };
  });

/** Every action the engine lists as legal now (deals come from `deck` in explicit mode). */
function listed(s: PokerState, l: LegalActions, deck: string[]): PokerAction[] {
  const out: PokerAction[] = [];
  if (l.deal) {
    const used = new Set([...s.board, ...s.hole.flat()]);
    const fresh = deck.filter((c) => !used.has(c));
    if (l.deal.kind === 'hole')
      out.push({ type: 'dealHole', seat: l.deal.seat, cards: fresh.slice(0, l.deal.count) });
    else out.push({ type: 'dealBoard', cards: fresh.slice(0, l.deal.count) });
  }
  if (l.phase === 'betting' && l.actor !== null) {
    const seat = l.actor;
    out.push({ type: 'checkOrCall', seat });
    if (l.fold) out.push({ type: 'fold', seat });
    if (l.raise) {
      const { min, max } = l.raise;
      out.push({ type: 'completeBetOrRaiseTo', seat, amount: min });
      out.push({ type: 'completeBetOrRaiseTo', seat, amount: max });
      out.push({ type: 'completeBetOrRaiseTo', seat, amount: Math.floor((min + max) / 2) });
    }
  }
  if (l.phase !== 'complete' || out.length === 0)
    for (const seat of l.show) {
      out.push({ type: 'showOrMuck', seat });
      if (l.phase !== 'complete') out.push({ type: 'showOrMuck', seat, muck: true });
    }
  return out;
}

/** Actions that are illegal whatever the state's details (each must be refused). */
function garbage(s: PokerState, l: LegalActions, pick: (k: number) => number): PokerAction[] {
  const n = s.stacks.length;
  const out: PokerAction[] = [
    { type: 'fold', seat: n },
    { type: 'checkOrCall', seat: -1 },
    { type: 'completeBetOrRaiseTo', seat: 1.5, amount: 10 },
    { type: 'bogus' } as unknown as PokerAction,
  ];
  if (l.actor !== null && l.phase === 'betting') {
    const other = (l.actor + 1 + pick(n - 1)) % n;
    out.push({ type: 'checkOrCall', seat: other }, { type: 'fold', seat: other });
    const bet = s.bets[l.actor]!;
    if (l.raise) {
      out.push({ type: 'completeBetOrRaiseTo', seat: l.actor, amount: l.raise.min - 1 - pick(bet + 5) });
      out.push({ type: 'completeBetOrRaiseTo', seat: l.actor, amount: l.raise.max + 1 + pick(1000) });
      out.push({ type: 'completeBetOrRaiseTo', seat: l.actor, amount: l.raise.min + 0.5 });
    } else out.push({ type: 'completeBetOrRaiseTo', seat: l.actor, amount: bet + 1 + pick(5000) });
    out.push({ type: 'showOrMuck', seat: l.actor });
  }
  if (!l.deal) out.push({ type: 'dealBoard', cards: ['2c'] }, { type: 'dealHole', seat: 0, cards: ['2c'] });
  if (l.deal) {
    const known = [...s.board, ...s.hole.flat()].find((c) => c !== '??');
    if (known) out.push({ type: 'dealBoard', cards: [known] });
  }
  s.folded.forEach((f, seat) => {
    if (f) out.push({ type: 'showOrMuck', seat });
  });
  if (l.phase === 'complete') out.push({ type: 'finish' }, { type: 'checkOrCall', seat: 0 });
  return out;
}

type Played = { config: PokerConfigInput; actions: PokerAction[]; final: PokerState };

function playHand(
  config: PokerConfigInput,
  deck: string[],
  tape: number[],
  check: (s: PokerState) => void,
): Played {
  let k = 0;
  const pick = (m: number) => (m <= 0 ? 0 : tape[k++ % tape.length]! % m);
  let s = setup(config);
  const total = config.startingStacks.reduce((a, b) => a + b, 0);
  const actions: PokerAction[] = [];
  for (let step = 0; step < 400; step++) {
    expect(chipTotal(s)).toBe(total);
    expect(s.stacks.every((x) => x >= 0)).toBe(true);
    check(s);
    const l = legalActions(s);
    for (const bad of garbage(s, l, pick)) {
      const before = JSON.stringify(s);
      const why = verifyAction(s, bad);
      expect(why, JSON.stringify(bad)).toBeDefined();
      expect(() => applyAction(s, bad)).toThrow(PokerRuleError);
      expect(JSON.stringify(s)).toBe(before);
    }
    const options = listed(s, l, deck);
    for (const o of options) expect(canApply(s, o), JSON.stringify(o)).toBe(true);
    if (s.phase === 'complete') break;
    expect(options.length).toBeGreaterThan(0);
    const chosen = options[pick(options.length)]!;
    s = applyAction(s, chosen);
    actions.push(chosen);
  }
  expect(s.phase).toBe('complete');
  return { config, actions, final: s };
}

describe('engine properties', () => {
  it('conserves chips, refuses illegal actions unchanged, accepts every listed action, and replays exactly', () => {
    fc.assert(
      fc.property(
        tableArb,
        fc.array(fc.nat(), { minLength: 64, maxLength: 64 }),
        ({ config, deck }, tape) => {
          const played = playHand(config, deck, tape, () => {});
          const { final } = played;
          const total = config.startingStacks.reduce((a, b) => a + b, 0);
          expect(final.stacks.reduce((a, b) => a + b, 0)).toBe(total);
          const paid = final.winnings!.reduce((a, b) => a + b, 0);
          expect(paid).toBe(
            final.committed.reduce((a, b) => a + b, 0) + final.antes.reduce((a, b) => a + b, 0),
          );
          final.folded.forEach((f, i) => {
            if (f) expect(final.winnings![i]).toBe(0);
          });
          // plain JSON data that the state schema accepts as is
          expect(PokerStateSchema.parse(JSON.parse(JSON.stringify(final)))).toEqual(final);
          // PHH export replays (with explicit deals) to the same log and stacks
          const back = replayPhh(parsePhh(toPhh(final)));
          expect(back.state.log).toEqual(final.log);
          expect(back.state.stacks).toEqual(final.stacks);
          // replay: the same config and actions give the identical state
          const again = played.actions.reduce(applyAction, setup(config));
          expect(again).toEqual(final);
        },
      ),
      { numRuns: 150, seed: 20_240_611 },
    );
  });

  it('no seat is ever owed chips it could not have won: a seat wins at most its layer share', () => {
    fc.assert(
      fc.property(
        tableArb,
        fc.array(fc.nat(), { minLength: 64, maxLength: 64 }),
        ({ config, deck }, tape) => {
          const { final } = playHand(config, deck, tape, () => {});
          const n = final.stacks.length;
          const dead = final.antes.reduce((a, b) => a + b, 0);
          for (let i = 0; i < n; i++) {
            // the most seat i can win: from each other seat, at most what i itself put in (plus all antes)
            const mine = final.committed[i]!;
            let cap = dead;
            for (let j = 0; j < n; j++) cap += Math.min(final.committed[j]!, mine);
            expect(final.winnings![i]!).toBeLessThanOrEqual(cap);
          }
        },
      ),
      { numRuns: 100, seed: 7 },
    );
  });
});

describe('seeded deal and commitment', () => {
  it('the deck is the seeded shuffle, differs by hand, and the commitment verifies', () => {
    const a = dealDeck('room-seed', 1);
    expect(dealDeck('room-seed', 1)).toEqual(a);
    expect(dealDeck('room-seed', 2).deck).not.toEqual(a.deck);
    expect(a.deck).toEqual(createRng('room-seed', 'poker/deck/1').shuffle(fullDeck()));
    expect([...a.deck].sort()).toEqual(fullDeck().sort());
    expect(verifyDeckCommitment(a.commitment, a.deck, a.salt)).toBe(true);
    const swapped = [a.deck[1]!, a.deck[0]!, ...a.deck.slice(2)];
    expect(verifyDeckCommitment(a.commitment, swapped, a.salt)).toBe(false);
    expect(verifyDeckCommitment(a.commitment, a.deck, `${a.salt}0`)).toBe(false);
    expect(verifyDeckCommitment(a.commitment, a.deck.slice(1), a.salt)).toBe(false);
  });

  it('an engine-dealt hand deals hole cards round by round from seat 0, then the board', () => {
    const { deck } = dealDeck('room-seed', 3);
    let s = setup({
      startingStacks: [100, 100, 100],
      antes: [0, 0, 0],
      blindsOrStraddles: [1, 2, 0],
      minBet: 2,
      deck,
    });
    expect(s.hole).toEqual([
      [deck[0], deck[3]],
      [deck[1], deck[4]],
      [deck[2], deck[5]],
    ]);
    for (const seat of [2, 0, 1]) s = applyAction(s, { type: 'checkOrCall', seat });
    expect(s.board).toEqual(deck.slice(6, 9));
    expect(applyAction.bind(null, s, { type: 'dealBoard', cards: ['2c'] })).toThrow(/AUTO_DEAL/);
  });
});

describe('config validation', () => {
  it("setup's hand-written check agrees with PokerConfigSchema on valid and broken configs", () => {
    const deck = fullDeck();
    const num = fc.oneof(fc.integer({ min: -5, max: 3000 }), fc.constantFrom(0.5, Number.NaN, 2 ** 60));
    const arr = fc.array(num, { minLength: 0, maxLength: 11 });
    const config = fc.record(
      {
        startingStacks: fc.oneof(
          arr,
          fc.array(fc.integer({ min: 1, max: 500 }), { minLength: 2, maxLength: 10 }),
        ),
        antes: fc.oneof(arr, fc.array(fc.nat(5), { minLength: 2, maxLength: 10 })),
        blindsOrStraddles: fc.oneof(
          arr,
          fc.array(fc.integer({ min: -10, max: 10 }), { minLength: 2, maxLength: 10 }),
        ),
        minBet: num,
        splitUnit: fc.oneof(num, fc.constant(undefined)),
        deck: fc.constantFrom(
          undefined,
          null,
          deck,
          deck.slice(1),
          [...deck.slice(1), deck[0]!],
          [...deck.slice(1), deck[1]!],
          [...deck.slice(1), '??'],
        ),
        autoShowdown: fc.constantFrom(undefined, true, false, 'yes'),
      },
      { requiredKeys: ['startingStacks', 'antes', 'blindsOrStraddles', 'minBet'] },
    );
    fc.assert(
      fc.property(config, (c) => {
        const zod = PokerConfigSchema.safeParse(c);
        const ours = checkConfig(c);
        expect('code' in ours).toBe(!zod.success);
        if (zod.success) expect(ours).toEqual(zod.data);
      }),
      { numRuns: 2000, seed: 11 },
    );
  });
});
