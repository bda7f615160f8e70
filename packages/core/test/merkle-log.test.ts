import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkConsistency,
  checkInclusion,
  leafHash,
  MerkleLog,
  MerkleProofError,
  nodeHash,
  rootFromConsistencyProof,
  rootFromInclusionProof,
  rootOf,
  verifyConsistency,
  verifyInclusion,
} from '../src/merkle/index.ts';

// RFC 6962 §2.1 written out literally (recursive, no storage) as the oracle for the fast code.
function largestPow2Below(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}
function mth(d: Uint8Array[]): Uint8Array {
  if (d.length === 1) return d[0]!;
  const k = largestPow2Below(d.length);
  return nodeHash(mth(d.slice(0, k)), mth(d.slice(k)));
}
function path(m: number, d: Uint8Array[]): Uint8Array[] {
  if (d.length === 1) return [];
  const k = largestPow2Below(d.length);
  return m < k
    ? [...path(m, d.slice(0, k)), mth(d.slice(k))]
    : [...path(m - k, d.slice(k)), mth(d.slice(0, k))];
}
function subproof(m: number, d: Uint8Array[], b: boolean): Uint8Array[] {
  if (m === d.length) return b ? [] : [mth(d)];
  const k = largestPow2Below(d.length);
  return m <= k
    ? [...subproof(m, d.slice(0, k), b), mth(d.slice(k))]
    : [...subproof(m - k, d.slice(k), false), mth(d.slice(0, k))];
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const hexes = (bs: Uint8Array[]) => bs.map(hex);
const leaves = (n: number, salt = 0) =>
  Array.from({ length: n }, (_, i) => leafHash(new TextEncoder().encode(`entry ${salt}/${i}`)));

describe('MerkleLog against the RFC 6962 definitions', () => {
  it('roots, audit paths and consistency proofs for every size/index/pair up to 33 leaves', () => {
    const d = leaves(33);
    const log = new MerkleLog();
    expect(hex(log.root())).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    for (const h of d) log.append(h);
    expect(log.size).toBe(33);
    for (let n = 1; n <= d.length; n++) {
      const prefix = d.slice(0, n);
      const root = log.root(n);
      expect(hex(root), `root ${n}`).toBe(hex(mth(prefix)));
      expect(hex(rootOf(d, n))).toBe(hex(root));
      for (let i = 0; i < n; i++) {
        const proof = log.inclusionProof(i, n);
        expect(hexes(proof), `path ${i}/${n}`).toEqual(hexes(path(i, prefix)));
        expect(verifyInclusion(d[i]!, i, n, proof, root)).toBe(true);
      }
      for (let m = 1; m <= n; m++) {
        const proof = log.consistencyProof(m, n);
        expect(hexes(proof), `consistency ${m}->${n}`).toEqual(hexes(subproof(m, prefix, true)));
        expect(verifyConsistency(m, n, proof, log.root(m), root)).toBe(true);
      }
    }
  });

  it('matches the Go reference proofs for the 8-leaf tree (proof/verify_test.go)', () => {
    const data = [
      '',
      '00',
      '10',
      '2021',
      '3031',
      '40414243',
      '5051525354555657',
      '606162636465666768696a6b6c6d6e6f',
    ];
    const log = MerkleLog.fromLeafHashes(data.map((h) => leafHash(Uint8Array.from(Buffer.from(h, 'hex')))));
    expect(hexes(log.inclusionProof(5, 8))).toEqual([
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ]);
    expect(hexes(log.consistencyProof(6, 7))).toEqual([
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ]);
    expect(hexes(log.consistencyProof(2, 5))).toEqual([
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ]);
    expect(hex(log.root())).toBe('5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328');
  });

  it('random sizes: proofs verify, and any single-bit change or wrong position is rejected', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.nat(), fc.nat(), fc.nat(), (n, a, b, bit) => {
        const d = leaves(n, n);
        const log = MerkleLog.fromLeafHashes(d);
        const size = 1 + (a % n);
        const index = b % size;
        const root = log.root(size);
        const proof = log.inclusionProof(index, size);
        expect(verifyInclusion(d[index]!, index, size, proof, root)).toBe(true);
        expect(verifyInclusion(d[index]!, index, size, proof, log.root())).toBe(size === n);
        if (size > 1) expect(verifyInclusion(d[index]!, (index + 1) % size, size, proof, root)).toBe(false);
        if (proof.length > 0) {
          const bad = proof.map((p) => p.slice());
          const j = bit % proof.length;
          bad[j]![(bit >> 3) % 32]! ^= 1 << (bit & 7);
          expect(verifyInclusion(d[index]!, index, size, bad, root)).toBe(false);
        }
        const size1 = 1 + (b % size);
        const cproof = log.consistencyProof(size1, size);
        expect(verifyConsistency(size1, size, cproof, log.root(size1), root)).toBe(true);
        expect(hex(rootFromConsistencyProof(size1, size, cproof, log.root(size1)))).toBe(hex(root));
        if (cproof.length > 0) {
          const bad = cproof.map((p) => p.slice());
          bad[bit % cproof.length]![0]! ^= 0x80;
          expect(verifyConsistency(size1, size, bad, log.root(size1), root)).toBe(false);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('appending one by one and loading from leaf hashes build the same tree', () => {
    const d = leaves(1000);
    const a = new MerkleLog();
    for (const [i, h] of d.entries()) expect(a.append(h)).toBe(i);
    const b = MerkleLog.fromLeafHashes(d);
    expect(hex(b.root())).toBe(hex(a.root()));
    expect(hex(b.root(777))).toBe(hex(a.root(777)));
    // Loading then appending keeps working (the loaded level buffers must grow).
    const extra = leaves(50, 1);
    for (const h of extra) {
      a.append(h);
      b.append(h);
    }
    expect(hex(b.root())).toBe(hex(a.root()));
    expect(hex(b.root())).toBe(hex(rootOf([...d, ...extra])));
    expect(hex(b.leaf(1020))).toBe(hex(extra[20]!));
  });

  it('snapshots round-trip through toBytes/fromBytes and reject damaged images', () => {
    for (const n of [0, 1, 2, 5, 64, 100]) {
      const log = MerkleLog.fromLeafHashes(leaves(n));
      const copy = MerkleLog.fromBytes(log.toBytes());
      expect(copy.size).toBe(n);
      expect(hex(copy.root())).toBe(hex(log.root()));
      const more = leaves(3, 9);
      for (const h of more) {
        copy.append(h);
        log.append(h);
      }
      expect(hex(copy.root())).toBe(hex(log.root()));
      if (n > 1) expect(hexes(copy.inclusionProof(0, n))).toEqual(hexes(log.inclusionProof(0, n)));
    }
    const image = MerkleLog.fromLeafHashes(leaves(5)).toBytes();
    expect(() => MerkleLog.fromBytes(image.subarray(0, image.length - 1))).toThrow(RangeError);
    const wrongMagic = image.slice();
    wrongMagic[0] = 0;
    expect(() => MerkleLog.fromBytes(wrongMagic)).toThrow(RangeError);
  });

  it('returns copies: callers cannot corrupt the stored tree', () => {
    const d = leaves(4);
    const log = MerkleLog.fromLeafHashes(d);
    const before = hex(log.root());
    log.leaf(0).fill(0);
    for (const p of log.inclusionProof(0)) p.fill(0);
    log.root().fill(0);
    d[1]!.fill(0); // the caller's own array was copied on load
    expect(hex(log.root())).toBe(before);
    const one = new MerkleLog();
    const h = leafHash(new Uint8Array([1]));
    one.append(h);
    one.root().fill(0);
    expect(hex(one.root())).toBe(hex(h));
  });

  it('rejects out-of-range sizes and indexes and non-32-byte leaves', () => {
    const log = MerkleLog.fromLeafHashes(leaves(10));
    expect(() => log.root(11)).toThrow(RangeError);
    expect(() => log.inclusionProof(10, 10)).toThrow(RangeError);
    expect(() => log.inclusionProof(0, 0)).toThrow(RangeError);
    expect(() => log.consistencyProof(0, 5)).toThrow(RangeError);
    expect(() => log.consistencyProof(6, 5)).toThrow(RangeError);
    expect(() => log.consistencyProof(1, 11)).toThrow(RangeError);
    expect(() => log.append(new Uint8Array(31))).toThrow(RangeError);
    expect(() => log.leaf(1.5)).toThrow(RangeError);
    expect(() => MerkleLog.fromLeafHashes([new Uint8Array(33)])).toThrow(RangeError);
    expect(() => rootOf(leaves(2), 3)).toThrow(RangeError);
  });
});

describe('typed proof errors', () => {
  const d = leaves(7);
  const log = MerkleLog.fromLeafHashes(d);
  const code = (f: () => unknown) => {
    try {
      f();
    } catch (err) {
      if (err instanceof MerkleProofError) return err.code;
      throw err;
    }
    return 'NO_ERROR';
  };

  it('names what is wrong with an inclusion proof', () => {
    const proof = log.inclusionProof(3);
    expect(hex(rootFromInclusionProof(d[3]!, 3, 7, proof))).toBe(hex(log.root()));
    expect(code(() => checkInclusion(d[3]!, 3, 7, proof, log.root()))).toBe('NO_ERROR');
    expect(code(() => rootFromInclusionProof(d[3]!, 7, 7, proof))).toBe('INDEX_OUT_OF_RANGE');
    expect(code(() => rootFromInclusionProof(d[3]!, -1, 7, proof))).toBe('BAD_SIZE');
    expect(code(() => rootFromInclusionProof(d[3]!, 3, 2 ** 64, proof))).toBe('BAD_SIZE');
    expect(code(() => rootFromInclusionProof(d[3]!.subarray(1), 3, 7, proof))).toBe('BAD_HASH_SIZE');
    expect(code(() => rootFromInclusionProof(d[3]!, 3, 7, [...proof, proof[0]!]))).toBe('PROOF_TOO_LONG');
    expect(code(() => rootFromInclusionProof(d[3]!, 3, 7, proof.slice(1)))).toBe('PROOF_TOO_SHORT');
    expect(code(() => rootFromInclusionProof(d[3]!, 3, 7, [new Uint8Array(0), ...proof]))).toBe(
      'BAD_HASH_SIZE',
    );
    expect(code(() => checkInclusion(d[2]!, 3, 7, proof, log.root()))).toBe('ROOT_MISMATCH');
  });

  it('names what is wrong with a consistency proof', () => {
    const proof = log.consistencyProof(3, 7);
    const [r3, r7] = [log.root(3), log.root(7)];
    expect(code(() => checkConsistency(3, 7, proof, r3, r7))).toBe('NO_ERROR');
    expect(code(() => checkConsistency(7, 3, proof, r3, r7))).toBe('SIZE_ORDER');
    expect(code(() => checkConsistency(0, 7, [], rootOf([]), r7))).toBe('EMPTY_TREE');
    expect(code(() => checkConsistency(7, 7, proof, r7, r7))).toBe('PROOF_TOO_LONG');
    expect(code(() => checkConsistency(7, 7, [], r7, r7))).toBe('NO_ERROR');
    expect(code(() => checkConsistency(3, 7, [], r3, r7))).toBe('PROOF_TOO_SHORT');
    expect(code(() => checkConsistency(3, 7, proof.slice(1), r3, r7))).toBe('PROOF_TOO_SHORT');
    expect(code(() => checkConsistency(3, 7, [...proof, r3], r3, r7))).toBe('PROOF_TOO_LONG');
    expect(code(() => checkConsistency(3, 7, proof, r7, r7))).toBe('ROOT_MISMATCH');
    expect(code(() => checkConsistency(3, 7, proof, r3, r3))).toBe('ROOT_MISMATCH');
  });

  it('handles sizes beyond 2^32 without 32-bit truncation', () => {
    // A tree of 2^33 + 1 leaves: leaf 2^33's audit path is the one root of the first 2^33 leaves.
    const left = leafHash(new Uint8Array([7]));
    const leaf = leafHash(new Uint8Array([8]));
    const size = 2 ** 33 + 1;
    expect(verifyInclusion(leaf, 2 ** 33, size, [left], nodeHash(left, leaf))).toBe(true);
    expect(verifyInclusion(leaf, 2 ** 33, size - 1, [left], nodeHash(left, leaf))).toBe(false);
  });
});
