import { concatBytes } from '../crypto/bytes.ts';
import { sha256 } from '../crypto/hash.ts';

/** RFC 6962 uses SHA-256 throughout: every leaf, node and root hash is this many bytes. */
export const HASH_SIZE = 32;

const LEAF_PREFIX = new Uint8Array([0x00]);

/** MTH({d}) = SHA-256(0x00 || d): the hash of one log entry (RFC 6962 §2.1). */
export function leafHash(data: Uint8Array): Uint8Array {
  return sha256(concatBytes(LEAF_PREFIX, data));
}

// One reusable buffer for 0x01 || l || r: node hashing is the hot loop of every root and proof,
// and allocating a fresh 65-byte array per node costs more than the copy.
const scratch = new Uint8Array(1 + 2 * HASH_SIZE);
scratch[0] = 0x01;

/** SHA-256(0x01 || left || right): an interior node (RFC 6962 §2.1). */
export function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  if (left.length === HASH_SIZE && right.length === HASH_SIZE) {
    scratch.set(left, 1);
    scratch.set(right, 1 + HASH_SIZE);
    return sha256(scratch);
  }
  return sha256(concatBytes(new Uint8Array([0x01]), left, right));
}

/** MTH({}) = SHA-256(""): the root of the empty tree. */
export function emptyRoot(): Uint8Array {
  return sha256(new Uint8Array(0));
}

/** The largest power of two strictly below n (n > 1): RFC 6962's split point k. */
export function splitPoint(n: number): number {
  // Plain arithmetic, not bit operators: tree sizes may exceed 2^31.
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

export function isPowerOfTwo(n: number): boolean {
  return n > 0 && splitPoint(n + 1) === n;
}
