import { bytesEqual } from '../crypto/bytes.ts';
import { HASH_SIZE, isPowerOfTwo, nodeHash } from './hash.ts';

// Proof verification per RFC 9162 §2.1.3.2 (inclusion) and §2.1.4.2 (consistency), which restate
// RFC 6962's proofs as iterative algorithms. Sizes are plain numbers up to 2^53: halving uses
// arithmetic, not `>>`, which would truncate to 32 bits.

export type MerkleProofErrorCode =
  | 'BAD_SIZE' // a size or index is not a non-negative safe integer
  | 'INDEX_OUT_OF_RANGE' // index >= size
  | 'SIZE_ORDER' // size1 > size2
  | 'EMPTY_TREE' // consistency from size 0: every tree extends the empty one, so a proof means nothing
  | 'BAD_HASH_SIZE' // a leaf hash or proof element is not 32 bytes
  | 'PROOF_TOO_LONG'
  | 'PROOF_TOO_SHORT'
  | 'ROOT_MISMATCH';

export class MerkleProofError extends Error {
  readonly code: MerkleProofErrorCode;
  constructor(code: MerkleProofErrorCode, message: string) {
    super(message);
    this.name = 'MerkleProofError';
    this.code = code;
  }
}

function checkSize(what: string, n: number): void {
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new MerkleProofError('BAD_SIZE', `${what} must be a non-negative safe integer, got ${n}`);
  }
}

function checkHashes(proof: readonly Uint8Array[]): void {
  proof.forEach((p, i) => {
    if (p.length !== HASH_SIZE) {
      throw new MerkleProofError('BAD_HASH_SIZE', `proof[${i}] is ${p.length} bytes, want ${HASH_SIZE}`);
    }
  });
}

const odd = (x: number): boolean => x % 2 === 1;
const half = (x: number): number => Math.floor(x / 2);

/**
 * The root of a tree of `size` leaves implied by `proof` for the leaf `leafHash` at `index`.
 * Throws MerkleProofError when the proof cannot be one (wrong length, wrong element size, index out
 * of range); says nothing about whether that root is the one you trust — compare it yourself or use
 * verifyInclusion.
 */
export function rootFromInclusionProof(
  leafHash: Uint8Array,
  index: number,
  size: number,
  proof: readonly Uint8Array[],
): Uint8Array {
  checkSize('index', index);
  checkSize('size', size);
  if (index >= size) throw new MerkleProofError('INDEX_OUT_OF_RANGE', `index ${index} >= size ${size}`);
  if (leafHash.length !== HASH_SIZE) {
    throw new MerkleProofError('BAD_HASH_SIZE', `leaf hash is ${leafHash.length} bytes, want ${HASH_SIZE}`);
  }
  checkHashes(proof);
  let fn = index;
  let sn = size - 1;
  let r = leafHash;
  for (const p of proof) {
    if (sn === 0) throw new MerkleProofError('PROOF_TOO_LONG', 'inclusion proof has too many elements');
    if (odd(fn) || fn === sn) {
      r = nodeHash(p, r);
      // Climb past the levels where this node is a lone right-border node with no sibling.
      while (!odd(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  if (sn !== 0) throw new MerkleProofError('PROOF_TOO_SHORT', 'inclusion proof is missing elements');
  return r === leafHash ? r.slice() : r;
}

/** Throws MerkleProofError unless `proof` shows `leafHash` at `index` in the tree (`size`, `root`). */
export function checkInclusion(
  leafHash: Uint8Array,
  index: number,
  size: number,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): void {
  const got = rootFromInclusionProof(leafHash, index, size, proof);
  if (!bytesEqual(got, root))
    throw new MerkleProofError('ROOT_MISMATCH', 'inclusion proof leads to another root');
}

/** True iff `proof` shows `leafHash` at `index` in the tree of `size` leaves with root `root`. */
export function verifyInclusion(
  leafHash: Uint8Array,
  index: number,
  size: number,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): boolean {
  return attempt(() => checkInclusion(leafHash, index, size, proof, root));
}

/**
 * The root of the size2 tree implied by a consistency proof from (size1, root1); throws
 * MerkleProofError if the proof is malformed or does not lead back to root1. Requires
 * 0 < size1 <= size2 (a proof from the empty tree is rejected as meaningless: any tree extends it).
 */
export function rootFromConsistencyProof(
  size1: number,
  size2: number,
  proof: readonly Uint8Array[],
  root1: Uint8Array,
): Uint8Array {
  checkSize('size1', size1);
  checkSize('size2', size2);
  if (size1 > size2) throw new MerkleProofError('SIZE_ORDER', `size1 ${size1} > size2 ${size2}`);
  if (size1 === 0) {
    throw new MerkleProofError('EMPTY_TREE', 'consistency with the empty tree is trivial and has no proof');
  }
  if (size1 === size2) {
    if (proof.length !== 0)
      throw new MerkleProofError('PROOF_TOO_LONG', 'size1 = size2 needs an empty proof');
    return root1.slice();
  }
  if (proof.length === 0) throw new MerkleProofError('PROOF_TOO_SHORT', 'empty consistency proof');
  checkHashes(proof);
  // When size1 is a perfect subtree its root is the proof's implicit first element.
  const path = isPowerOfTwo(size1) ? [root1, ...proof] : proof;
  let fn = size1 - 1;
  let sn = size2 - 1;
  while (odd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr = path[0]!;
  let sr = fr;
  for (let i = 1; i < path.length; i++) {
    const c = path[i]!;
    if (sn === 0) throw new MerkleProofError('PROOF_TOO_LONG', 'consistency proof has too many elements');
    if (odd(fn) || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      while (!odd(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  if (sn !== 0) throw new MerkleProofError('PROOF_TOO_SHORT', 'consistency proof is missing elements');
  if (!bytesEqual(fr, root1)) {
    throw new MerkleProofError('ROOT_MISMATCH', 'consistency proof does not lead to root1');
  }
  return sr === path[0] ? sr.slice() : sr;
}

/** Throws MerkleProofError unless `proof` shows the tree (size2, root2) extends (size1, root1). */
export function checkConsistency(
  size1: number,
  size2: number,
  proof: readonly Uint8Array[],
  root1: Uint8Array,
  root2: Uint8Array,
): void {
  const got = rootFromConsistencyProof(size1, size2, proof, root1);
  if (!bytesEqual(got, root2)) {
    throw new MerkleProofError('ROOT_MISMATCH', 'consistency proof does not lead to root2');
  }
}

/** True iff `proof` shows the tree (size2, root2) is an append-only extension of (size1, root1). */
export function verifyConsistency(
  size1: number,
  size2: number,
  proof: readonly Uint8Array[],
  root1: Uint8Array,
  root2: Uint8Array,
): boolean {
  return attempt(() => checkConsistency(size1, size2, proof, root1, root2));
}

function attempt(check: () => void): boolean {
  try {
    check();
    return true;
  } catch (err) {
    if (err instanceof MerkleProofError) return false;
    throw err;
  }
}
