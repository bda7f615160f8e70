// Fast high-hand evaluator for 5, 6 or 7 cards, built on 13-bit rank masks.
//
// Why this design: each suit's ranks fit in a 13-bit mask, so a flush is a popcount and a straight is a
// table lookup; rank multiplicities (pairs, trips, quads) come from a bit-sliced add of the four suit
// masks. Tables are 8,192 entries each (built in well under a millisecond), there is no big perfect-hash
// table to load, and the hot path is branch-light integer code that V8 compiles well.
//
// A hand value is a positive integer; larger is better, equal means a tie:
//   category << 26 | payload, where category 0..8 = high card .. straight flush and the payload
//   orders hands within the category (rank indexes and 13-bit kicker masks, which compare correctly as
//   integers because a higher rank set always has the higher mask).
// With at most 7 cards a flush and a full house (or quads) cannot coexist, so flush is tested first.

import { cardCode } from './cards.ts';

export const HAND_CATEGORIES = [
  'High Card',
  'Pair',
  'Two Pair',
  'Three of a Kind',
  'Straight',
  'Flush',
  'Full House',
  'Four of a Kind',
  'Straight Flush',
] as const;
export type HandCategory = (typeof HAND_CATEGORIES)[number];

const MASKS = 1 << 13;
const POP = new Uint8Array(MASKS);
const HIGH = new Int8Array(MASKS); // index of the highest set bit, -1 for 0
const TOP1 = new Uint16Array(MASKS);
const TOP2 = new Uint16Array(MASKS);
const TOP3 = new Uint16Array(MASKS);
const TOP5 = new Uint16Array(MASKS);
const STRAIGHT = new Uint8Array(MASKS); // 0 = none, else rank index of the top card + 1 (wheel = 4)
// Per card code: its bit in a 32-bit word holding two suits (clubs/diamonds low word, hearts/spades high).
const LO = new Int32Array(52);
const HI = new Int32Array(52);

function keepTop(mask: number, k: number): number {
  let m = mask;
  let n = POP[m]!;
  while (n > k) {
    m &= m - 1; // clears the lowest set bit
    n--;
  }
  return m;
}

function buildTables(): void {
  for (let m = 1; m < MASKS; m++) {
    POP[m] = POP[m >> 1]! + (m & 1);
    HIGH[m] = 31 - Math.clz32(m);
  }
  HIGH[0] = -1;
  for (let m = 0; m < MASKS; m++) {
    TOP1[m] = m === 0 ? 0 : 1 << HIGH[m]!;
    TOP2[m] = keepTop(m, 2);
    TOP3[m] = keepTop(m, 3);
    TOP5[m] = keepTop(m, 5);
    let best = 0;
    for (let hi = 12; hi >= 4 && best === 0; hi--) {
      const run = 0x1f << (hi - 4);
      if ((m & run) === run) best = hi + 1;
    }
    if (best === 0 && (m & 0x100f) === 0x100f) best = 4; // A-2-3-4-5: top card is the 5 (index 3)
    STRAIGHT[m] = best;
  }
  for (let c = 0; c < 52; c++) {
    const rankBit = 1 << (c >> 2);
    const suit = c & 3;
    LO[c] = suit === 0 ? rankBit : suit === 1 ? rankBit << 16 : 0;
    HI[c] = suit === 2 ? rankBit : suit === 3 ? rankBit << 16 : 0;
  }
}
buildTables();

function fromMasks(lo: number, hi: number): number {
  const a = lo & 0x1fff;
  const b = lo >>> 16;
  const c = hi & 0x1fff;
  const d = hi >>> 16;
  let flush = 0;
  if (POP[a]! >= 5) flush = a;
  else if (POP[b]! >= 5) flush = b;
  else if (POP[c]! >= 5) flush = c;
  else if (POP[d]! >= 5) flush = d;
  if (flush !== 0) {
    const sf = STRAIGHT[flush]!;
    return sf !== 0 ? (8 << 26) | sf : (5 << 26) | TOP5[flush]!;
  }
  // Bit-sliced sum of the four suit masks: per rank, count = bit0 + 2*bit1 + 4*bit2.
  const x1 = a ^ b;
  const y1 = a & b;
  const x2 = c ^ d;
  const y2 = c & d;
  const bit0 = x1 ^ x2;
  const carry = x1 & x2;
  const bit1 = y1 ^ y2 ^ carry;
  const quads = (y1 & y2) | (carry & (y1 ^ y2));
  const all = a | b | c | d;
  if (quads !== 0) {
    const q = TOP1[quads]!;
    return (7 << 26) | (HIGH[q]! << 13) | TOP1[all & ~q]!;
  }
  const trips = bit1 & bit0;
  const pairs = bit1 & ~bit0;
  if (trips !== 0) {
    const t = TOP1[trips]!;
    const rest = (trips & ~t) | pairs;
    if (rest !== 0) return (6 << 26) | (HIGH[t]! << 4) | HIGH[rest]!;
  }
  const straight = STRAIGHT[all]!;
  if (straight !== 0) return (4 << 26) | straight;
  if (trips !== 0) {
    const t = TOP1[trips]!;
    return (3 << 26) | (HIGH[t]! << 13) | TOP2[all & ~t]!;
  }
  if (pairs !== 0) {
    if (POP[pairs]! >= 2) {
      const two = TOP2[pairs]!;
      return (2 << 26) | (two << 13) | TOP1[all & ~two]!;
    }
    return (1 << 26) | (HIGH[pairs]! << 13) | TOP3[all & ~pairs]!;
  }
  return TOP5[all]!;
}

/** Hot path: seven card codes (0..51, distinct) to a hand value. No allocation. */
export function evaluate7(
  c0: number,
  c1: number,
  c2: number,
  c3: number,
  c4: number,
  c5: number,
  c6: number,
): number {
  const lo = LO[c0]! | LO[c1]! | LO[c2]! | LO[c3]! | LO[c4]! | LO[c5]! | LO[c6]!;
  const hi = HI[c0]! | HI[c1]! | HI[c2]! | HI[c3]! | HI[c4]! | HI[c5]! | HI[c6]!;
  return fromMasks(lo, hi);
}

/** Any number of distinct card codes (5 to 7 for a real hand; fewer ranks simply give fewer kickers). */
export function evaluateCodes(codes: readonly number[]): number {
  let lo = 0;
  let hi = 0;
  for (const c of codes) {
    lo |= LO[c]!;
    hi |= HI[c]!;
  }
  return fromMasks(lo, hi);
}

/** Card strings to a hand value; throws on an unknown or repeated card. */
export function evaluateCards(cards: readonly string[]): number {
  const codes = cards.map(cardCode);
  if (codes.some((c) => c < 0)) throw new RangeError(`unknown card in ${cards.join(' ')}`);
  if (new Set(codes).size !== codes.length) throw new RangeError(`repeated card in ${cards.join(' ')}`);
  return evaluateCodes(codes);
}

export function handCategory(value: number): HandCategory {
  return HAND_CATEGORIES[value >>> 26]!;
}
