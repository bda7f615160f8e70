import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createRng, createRngFromKey, fromHex, type Rng, toHex } from '../src/index.ts';

// RFC 8439 Appendix A.1, test vectors #1 and #2: ChaCha20 block function, all-zero key and nonce,
// block counters 0 and 1. The generator's stream with a zero key must be exactly these bytes.
const RFC8439_A1 =
  '76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7' +
  'da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586' +
  '9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed' +
  '29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f';

function chiSquare(counts: number[]): number {
  const total = counts.reduce((a, b) => a + b, 0);
  const expected = total / counts.length;
  return counts.reduce((acc, c) => acc + (c - expected) ** 2 / expected, 0);
}

describe('db8/rng/v1 known answers', () => {
  it('is the RFC 8439 ChaCha20 keystream (zero key, zero nonce, counter 0..)', () => {
    expect(toHex(createRngFromKey(new Uint8Array(32)).bytes(128))).toBe(RFC8439_A1);
    // Same stream drawn as u32 words, little-endian, across the 1 KiB refill boundary too.
    const words = createRngFromKey(new Uint8Array(32));
    expect(words.nextU32()).toBe(0xade0b876);
    expect(words.nextU32()).toBe(0x903df1a0);
  });

  it('keys ChaCha20 with sha256("db8/rng/v1" || seed || 0x00 || label)', () => {
    const key = createHash('sha256').update('db8/rng/v1').update('room-seed').update('\0deck').digest();
    expect(toHex(createRng('room-seed', 'deck').bytes(200))).toBe(
      toHex(createRngFromKey(new Uint8Array(key)).bytes(200)),
    );
    const rawSeed = fromHex('00ff10');
    const key2 = createHash('sha256')
      .update('db8/rng/v1')
      .update(rawSeed)
      .update(Buffer.from([0]))
      .digest();
    expect(toHex(createRng(rawSeed).bytes(64))).toBe(toHex(createRngFromKey(new Uint8Array(key2)).bytes(64)));
  });

  it('pins a db8 vector (any change here breaks every recorded room)', () => {
    const r = createRng('db8 test seed', 'deck');
    expect(toHex(r.bytes(32))).toBe('1a46e8c16a30988329e49a95d17fa93209c29f85e47e70c0769a98557c8da6d9');
    expect(r.nextU32()).toBe(338992217);
    expect(r.int(52)).toBe(41);
    expect(r.shuffle([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])).toEqual([2, 4, 1, 6, 3, 9, 10, 8, 7, 5]);
    const f = createRng('db8 test seed').fork('hand/1');
    expect(toHex(f.bytes(16))).toBe('99a08d7313ba851bb2db812aa22b4278');
  });
});

describe('determinism and independence', () => {
  it('same seed and label give the same stream; different ones do not', () => {
    const a = createRng('s', 'x').bytes(64);
    expect(createRng('s', 'x').bytes(64)).toEqual(a);
    expect(createRng('s', 'y').bytes(64)).not.toEqual(a);
    expect(createRng('t', 'x').bytes(64)).not.toEqual(a);
    expect(createRng('s').bytes(64)).toEqual(createRng('s', '').bytes(64));
  });

  it('draws are the same whether taken as bytes or words, across buffer refills', () => {
    const bytes = createRng('s').bytes(4 * 700);
    const r = createRng('s');
    r.bytes(3); // misalign, so some words straddle the 1 KiB refill
    const words = Array.from({ length: 600 }, () => r.nextU32());
    const view = new DataView(bytes.buffer);
    expect(words).toEqual(words.map((_, i) => view.getUint32(3 + 4 * i, true)));
  });

  it('fork is independent of the parent, of position, and of sibling labels', () => {
    const parent = createRng('seed');
    const f1 = parent.fork('a').bytes(32);
    parent.bytes(5000);
    expect(parent.fork('a').bytes(32)).toEqual(f1); // does not depend on consumption
    expect(parent.fork('b').bytes(32)).not.toEqual(f1);
    expect(createRng('seed', 'a').bytes(32)).not.toEqual(f1); // fork('a') is not label 'a'
    const p2 = createRng('seed');
    const before = createRng('seed').bytes(64);
    p2.fork('a').bytes(1000);
    expect(p2.bytes(64)).toEqual(before); // forking consumes nothing from the parent
    expect(parent.fork('a').fork('b').bytes(32)).not.toEqual(parent.fork('b').bytes(32));
  });

  it('rejects bad seeds, labels and arguments', () => {
    expect(() => createRng('')).toThrow(RangeError);
    expect(() => createRng(new Uint8Array())).toThrow(RangeError);
    expect(() => createRng('s', 'a\0b')).toThrow(RangeError);
    expect(() => createRng('s').fork('\0')).toThrow(RangeError);
    expect(() => createRng('\ud800')).toThrow(TypeError);
    const r = createRng('s');
    for (const bad of [0, -1, 1.5, Number.NaN, 2 ** 53 + 2]) expect(() => r.int(bad)).toThrow(RangeError);
    expect(() => r.intRange(3, 2)).toThrow(RangeError);
    expect(() => r.intRange(-(2 ** 53 - 1), 2 ** 53 - 1)).toThrow(RangeError);
    expect(() => r.bytes(-1)).toThrow(RangeError);
  });
});

describe('distribution (fixed seed, so deterministic)', () => {
  it('int(6) is uniform: chi-square below the p=0.001 critical value (5 dof: 20.52)', () => {
    const r = createRng('chi-square', 'dice');
    const counts = [0, 0, 0, 0, 0, 0];
    for (let i = 0; i < 60_000; i++) counts[r.int(6)]!++;
    expect(chiSquare(counts)).toBeLessThan(20.52);
  });

  it('int has no modulo bias for a range that does not divide 2^32', () => {
    // m = 3·2^30: a plain `u32 % m` would put half of all draws in the first third.
    const r = createRng('bias');
    const m = 3 * 2 ** 30;
    const thirds = [0, 0, 0];
    for (let i = 0; i < 30_000; i++) thirds[Math.floor(r.int(m) / 2 ** 30)]!++;
    expect(chiSquare(thirds)).toBeLessThan(13.82); // 2 dof, p=0.001
  });

  it('int above 2^32 covers the range without bias', () => {
    const r = createRng('wide');
    const m = 3 * 2 ** 40;
    const thirds = [0, 0, 0];
    for (let i = 0; i < 30_000; i++) {
      const x = r.int(m);
      expect(Number.isInteger(x) && x >= 0 && x < m).toBe(true);
      thirds[Math.floor(x / 2 ** 40)]!++;
    }
    expect(chiSquare(thirds)).toBeLessThan(13.82);
  });

  it('intRange stays in bounds and hits both ends', () => {
    const r = createRng('range');
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const x = r.intRange(-3, 3);
      expect(x >= -3 && x <= 3).toBe(true);
      seen.add(x);
    }
    expect([...seen].sort((a, b) => a - b)).toEqual([-3, -2, -1, 0, 1, 2, 3]);
    expect(r.intRange(7, 7)).toBe(7);
  });

  it('shuffle is a uniform permutation and leaves its input alone', () => {
    const r: Rng = createRng('shuffle');
    const input = Object.freeze(['a', 'b', 'c', 'd']);
    const counts = new Map<string, number>();
    for (let i = 0; i < 48_000; i++) {
      const p = r.shuffle(input).join('');
      counts.set(p, (counts.get(p) ?? 0) + 1);
    }
    expect(counts.size).toBe(24);
    expect(chiSquare([...counts.values()])).toBeLessThan(49.73); // 23 dof, p=0.001
    expect(input).toEqual(['a', 'b', 'c', 'd']);
    expect(r.shuffle([])).toEqual([]);
    expect(r.shuffle([1])).toEqual([1]);
  });

  it('a 52-card deck shuffle is a permutation', () => {
    const deck = Array.from({ length: 52 }, (_, i) => i);
    const s = createRng('deck').shuffle(deck);
    expect([...s].sort((a, b) => a - b)).toEqual(deck);
    expect(s).not.toEqual(deck);
  });
});
