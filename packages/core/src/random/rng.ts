/**
 * db8/rng/v1 — the seeded CSPRNG every protocol uses (deck shuffles, seat orders, tie-breaks), so a
 * room replays bit-for-bit from its seed and anyone can recompute a shuffle offline.
 *
 *   key      = SHA-256( UTF-8("db8/rng/v1") || seed || 0x00 || UTF-8(label) )
 *              seed: a string's UTF-8 bytes (a hex string is NOT decoded) or raw bytes; non-empty.
 *              label: default "", may not contain U+0000 (so the 0x00 separator is unambiguous).
 *   stream   = ChaCha20 keystream (RFC 8439 block function), that key, 96-bit nonce of zeros,
 *              block counter starting at 0; bytes are consumed strictly in order.
 *   bytes(n) = the next n stream bytes.
 *   nextU32  = the next 4 stream bytes read little-endian.
 *   int(m)   = unbiased uniform integer in [0, m), 1 ≤ m ≤ 2^53, by rejection sampling:
 *              m ≤ 2^32: draw x = nextU32 until x < 2^32 − (2^32 mod m); return x mod m.
 *              m > 2^32: draw x = (nextU32 & 0x1fffff)·2^32 + nextU32 (high word first) until
 *              x < 2^53 − (2^53 mod m); return x mod m.
 *   intRange(lo, hi) = lo + int(hi − lo + 1).
 *   shuffle  = Fisher–Yates (Durstenfeld) on a copy: for i from n−1 down to 1, j = int(i + 1),
 *              swap items i and j.
 *   fork(l)  = an independent generator with
 *              key' = SHA-256( UTF-8("db8/rng/v1/fork") || key || 0x00 || UTF-8(l) ),
 *              which does not depend on how much of the parent stream was consumed, nor consume it.
 *
 * ChaCha20 is a stream cipher: without the key its output is indistinguishable from random, and the
 * key is a hash of the seed, so a room's draws are unpredictable until its seed is revealed.
 */
import { chacha20 } from '@noble/ciphers/chacha.js';
import { concatBytes, utf8Encode } from '../crypto/bytes.ts';
import { sha256 } from '../crypto/hash.ts';

export interface Rng {
  /** Next 32-bit unsigned integer (4 stream bytes, little-endian). */
  nextU32(): number;
  /** Next `n` stream bytes. */
  bytes(n: number): Uint8Array<ArrayBuffer>;
  /** Uniform integer in [0, maxExclusive), 1 ≤ maxExclusive ≤ 2^53, without modulo bias. */
  int(maxExclusive: number): number;
  /** Uniform integer in [lo, hiInclusive]; both safe integers. */
  intRange(lo: number, hiInclusive: number): number;
  /** A new array: `items` in a uniformly random order (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[];
  /** An independent generator derived from this one's key and `label`. */
  fork(label: string): Rng;
}

const DOMAIN = utf8Encode('db8/rng/v1');
const FORK_DOMAIN = utf8Encode('db8/rng/v1/fork');
const SEP = new Uint8Array([0]);
const NONCE = new Uint8Array(12);
const BLOCKS = 16; // keystream generated 16 blocks (1 KiB) at a time
const BUF_LEN = 64 * BLOCKS;
const ZEROS = new Uint8Array(BUF_LEN);
const TWO_32 = 2 ** 32;
const TWO_53 = 2 ** 53;

function labelBytes(label: string): Uint8Array {
  if (typeof label !== 'string') throw new TypeError('rng: label must be a string');
  if (label.includes('\0')) throw new RangeError('rng: label may not contain U+0000');
  return utf8Encode(label);
}

class ChaChaRng implements Rng {
  readonly #key: Uint8Array;
  #counter = 0;
  readonly #buf = new Uint8Array(BUF_LEN);
  #pos = BUF_LEN;

  constructor(key: Uint8Array) {
    if (key.length !== 32) throw new RangeError('rng: key must be 32 bytes');
    this.#key = key.slice();
  }

  #refill(): void {
    chacha20(this.#key, NONCE, ZEROS, this.#buf, this.#counter);
    this.#counter += BLOCKS;
    this.#pos = 0;
  }

  nextU32(): number {
    if (this.#pos + 4 > BUF_LEN) {
      const b = this.bytes(4);
      return (b[0]! | (b[1]! << 8) | (b[2]! << 16) | (b[3]! << 24)) >>> 0;
    }
    const buf = this.#buf;
    const p = this.#pos;
    this.#pos = p + 4;
    return (buf[p]! | (buf[p + 1]! << 8) | (buf[p + 2]! << 16) | (buf[p + 3]! << 24)) >>> 0;
  }

  bytes(n: number): Uint8Array<ArrayBuffer> {
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`rng.bytes: bad length ${n}`);
    const out = new Uint8Array(n);
    let o = 0;
    while (o < n) {
      if (this.#pos === BUF_LEN) this.#refill();
      const take = Math.min(n - o, BUF_LEN - this.#pos);
      out.set(this.#buf.subarray(this.#pos, this.#pos + take), o);
      this.#pos += take;
      o += take;
    }
    return out;
  }

  int(maxExclusive: number): number {
    const m = maxExclusive;
    if (!Number.isInteger(m) || m < 1 || m > TWO_53) {
      throw new RangeError(`rng.int: maxExclusive must be an integer in [1, 2^53], got ${m}`);
    }
    if (m <= TWO_32) {
      const limit = TWO_32 - (TWO_32 % m);
      for (;;) {
        const x = this.nextU32();
        if (x < limit) return x % m;
      }
    }
    const limit = TWO_53 - (TWO_53 % m);
    for (;;) {
      const x = (this.nextU32() & 0x1fffff) * TWO_32 + this.nextU32();
      if (x < limit) return x % m;
    }
  }

  intRange(lo: number, hiInclusive: number): number {
    if (!Number.isSafeInteger(lo) || !Number.isSafeInteger(hiInclusive) || lo > hiInclusive) {
      throw new RangeError(`rng.intRange: need safe integers lo <= hi, got ${lo}, ${hiInclusive}`);
    }
    return lo + this.int(hiInclusive - lo + 1);
  }

  shuffle<T>(items: readonly T[]): T[] {
    const a = items.slice();
    for (let i = a.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const t = a[i]!;
      a[i] = a[j]!;
      a[j] = t;
    }
    return a;
  }

  fork(label: string): Rng {
    return new ChaChaRng(sha256(concatBytes(FORK_DOMAIN, this.#key, SEP, labelBytes(label))));
  }
}

/** The db8/rng/v1 generator for `seed` and `label` (see the top of this file for the exact algorithm). */
export function createRng(seed: string | Uint8Array, label = ''): Rng {
  const seedBytes = typeof seed === 'string' ? utf8Encode(seed) : seed;
  if (!(seedBytes instanceof Uint8Array)) throw new TypeError('rng: seed must be a string or a Uint8Array');
  if (seedBytes.length === 0) throw new RangeError('rng: seed must not be empty');
  return new ChaChaRng(sha256(concatBytes(DOMAIN, seedBytes, SEP, labelBytes(label))));
}

/** The generator for a raw 32-byte ChaCha20 key (for test vectors and verifiers that hold the key). */
export function createRngFromKey(key: Uint8Array): Rng {
  return new ChaChaRng(key);
}
