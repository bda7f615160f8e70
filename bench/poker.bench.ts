// Poker engine and evaluator throughput, each beside a peer on the same workload.
//   engine: 6-max hands (blinds 50/100, 10,000 chips, new table state each hand) played to the end by
//           in-process random agents (20% fold when facing a bet, 30% raise to a random legal size,
//           otherwise check/call), vs poker-ts's Table on the same policy.
//   evaluator: 7-card hand values over the same random hands, vs phe (its 7-card path) and pokersolver.

import phe from 'phe';
import evaluate7Phe from 'phe/lib/evaluator7.js';
import { Table } from 'poker-ts';
import pokersolver from 'pokersolver';
import {
  applyAction,
  cardCode,
  dealDeck,
  evaluate7,
  fullDeck,
  legalActions,
  type PokerState,
  setup,
} from '../packages/protocols/poker/rules/index.ts';
import type { BenchRow } from './types.ts';

/** mulberry32: a tiny seeded PRNG so both engines get the same kind of random agents. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(items: readonly T[], rand: () => number): T[] {
  const a = items.slice();
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

const SEATS = 6;
const STACKS = new Array<number>(SEATS).fill(10_000);
const ZEROS = new Array<number>(SEATS).fill(0);
const BLINDS = [50, 100, 0, 0, 0, 0];

function playOurs(deck: string[], rand: () => number): PokerState {
  let s = setup({
    startingStacks: STACKS,
    antes: ZEROS,
    blindsOrStraddles: BLINDS,
    minBet: 100,
    deck,
    autoShowdown: true,
  });
  while (s.phase !== 'complete') {
    const l = legalActions(s);
    const seat = l.actor!;
    const r = rand();
    if (l.raise && r < 0.3) {
      const amount = l.raise.min + Math.floor(rand() * (l.raise.max - l.raise.min + 1));
      s = applyAction(s, { type: 'completeBetOrRaiseTo', seat, amount });
    } else if (l.fold && r < 0.5) s = applyAction(s, { type: 'fold', seat });
    else s = applyAction(s, { type: 'checkOrCall', seat });
  }
  return s;
}

function playPokerTs(rand: () => number): void {
  const t = new Table({ smallBlind: 50, bigBlind: 100 }, SEATS);
  for (let i = 0; i < SEATS; i++) t.sitDown(i, 10_000);
  t.startHand();
  while (t.isHandInProgress()) {
    while (t.isBettingRoundInProgress()) {
      const { actions, chipRange } = t.legalActions();
      const r = rand();
      const raise = actions.includes('raise') ? 'raise' : actions.includes('bet') ? 'bet' : null;
      if (raise && chipRange && r < 0.3) {
        t.actionTaken(raise, chipRange.min + Math.floor(rand() * (chipRange.max - chipRange.min + 1)));
      } else if (actions.includes('call') && r < 0.5) t.actionTaken('fold');
      else t.actionTaken(actions.includes('check') ? 'check' : 'call');
    }
    t.endBettingRound();
    if (t.areBettingRoundsCompleted()) t.showdown();
  }
}

/** Runs `fn` repeatedly for about `ms` milliseconds; returns calls per second. */
function rate(fn: () => void, ms: number): number {
  for (let i = 0; i < 200; i++) fn(); // warm-up
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 100; i++) fn();
    n += 100;
    now = performance.now();
  }
  return (n * 1000) / (now - start);
}

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const cards = fullDeck();

  // engine
  const deckRand = prng(1);
  const decks = Array.from({ length: 512 }, () => shuffled(cards, deckRand));
  let h = 0;
  const agent = prng(2);
  const ours = rate(() => {
    playOurs(decks[h++ & 511]!, agent);
  }, 1500);
  const peerAgent = prng(2);
  const peer = rate(() => playPokerTs(peerAgent), 1500);
  rows.push({
    area: 'poker',
    name: 'engine: 6-max hands/s, random agents',
    value: ours,
    unit: 'hands/s',
    peer: 'poker-ts',
    peerValue: peer,
    goal: '≥ 20,000',
  });
  let k = 0;
  const fair = rate(() => {
    const { deck } = dealDeck('bench-room-seed', k++);
    playOurs(deck, agent);
  }, 1500);
  rows.push({ area: 'poker', name: 'engine + seeded deck and commitment', value: fair, unit: 'hands/s' });

  // evaluator
  const rand = prng(3);
  const count = 100_000;
  const hands = new Int32Array(count * 7);
  const pheHands = new Int32Array(count * 7);
  const strings: string[][] = [];
  for (let i = 0; i < count; i++) {
    const seven = shuffled(cards, rand).slice(0, 7);
    if (i < 2000) strings.push(seven);
    const codes = phe.cardCodes(seven);
    for (let j = 0; j < 7; j++) {
      hands[i * 7 + j] = cardCode(seven[j]!);
      pheHands[i * 7 + j] = codes[j]!;
    }
  }
  let sink = 0;
  const evalRate = (f: (a: Int32Array, o: number) => number, data: Int32Array) =>
    rate(() => {
      for (let o = 0; o < 7000; o += 7) sink += f(data, o);
    }, 1000) * 1000;
  const ourEval = evalRate(
    (d, o) => evaluate7(d[o]!, d[o + 1]!, d[o + 2]!, d[o + 3]!, d[o + 4]!, d[o + 5]!, d[o + 6]!),
    hands,
  );
  const pheEval = evalRate(
    (d, o) => evaluate7Phe(d[o]!, d[o + 1]!, d[o + 2]!, d[o + 3]!, d[o + 4]!, d[o + 5]!, d[o + 6]!),
    pheHands,
  );
  let p = 0;
  const solverEval = rate(() => {
    pokersolver.Hand.solve(strings[p++ % strings.length]!);
  }, 1000);
  if (sink === 0) throw new Error('evaluator produced no values');
  rows.push({
    area: 'poker',
    name: 'evaluator: 7-card evals/s',
    value: ourEval,
    unit: 'evals/s',
    peer: 'phe',
    peerValue: pheEval,
    goal: '≥ 10,000,000',
  });
  rows.push({
    area: 'poker',
    name: 'evaluator: 7-card evals/s',
    value: ourEval,
    unit: 'evals/s',
    peer: 'pokersolver',
    peerValue: solverEval,
  });
  return rows;
}
