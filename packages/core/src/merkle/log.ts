import { emptyRoot, HASH_SIZE, isPowerOfTwo, nodeHash, splitPoint } from './hash.ts';

/**
 * An append-only RFC 6962 Merkle tree held in memory as full levels: level k stores the hash of
 * every complete, aligned subtree of 2^k leaves, packed 32 bytes apiece in one growable buffer.
 * Appends cost one leaf copy plus (amortised) one node hash; the root, inclusion and consistency
 * proofs at ANY size up to the current one need only O(log n) hashes (O(log² n) worst case for a
 * proof), since every perfect subtree they touch is already stored. Memory: about 64 bytes/leaf.
 */
export class MerkleLog {
  // levels[k].buf holds levels[k].count node hashes; capacity grows by doubling.
  private levels: Level[] = [];
  private n = 0;

  /** Loads a room: builds all levels from its leaf hashes in one pass per level. */
  static fromLeafHashes(leafHashes: readonly Uint8Array[]): MerkleLog {
    const log = new MerkleLog();
    const count = leafHashes.length;
    const leaves = new Uint8Array(count * HASH_SIZE);
    leafHashes.forEach((h, i) => {
      checkLeaf(h, i);
      leaves.set(h, i * HASH_SIZE);
    });
    log.levels = buildLevels(leaves, count);
    log.n = count;
    return log;
  }

  /** Restores a log written by toBytes(). Throws RangeError on anything but an exact, intact image. */
  static fromBytes(bytes: Uint8Array): MerkleLog {
    if (bytes.length < HEADER_SIZE || !MAGIC.every((b, i) => bytes[i] === b)) {
      throw new RangeError('MerkleLog.fromBytes: not a db8 Merkle log image');
    }
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (view.getUint8(4) !== FORMAT_VERSION) throw new RangeError('MerkleLog.fromBytes: unknown version');
    const size = view.getUint32(5) * 2 ** 32 + view.getUint32(9);
    const counts = levelCounts(size);
    const total = counts.reduce((a, c) => a + c, 0);
    if (bytes.length !== HEADER_SIZE + total * HASH_SIZE) {
      throw new RangeError('MerkleLog.fromBytes: length does not match the recorded size');
    }
    const log = new MerkleLog();
    let off = HEADER_SIZE;
    log.levels = counts.map((count) => {
      const buf = bytes.slice(off, off + count * HASH_SIZE);
      off += count * HASH_SIZE;
      return { buf, count };
    });
    log.n = size;
    return log;
  }

  /** Number of leaves. */
  get size(): number {
    return this.n;
  }

  /** Appends one leaf hash (see leafHash) and returns its index. */
  append(leafHash: Uint8Array): number {
    checkLeaf(leafHash, this.n);
    const index = this.n;
    push(this.level(0), leafHash);
    // Each time a level's count turns even, its last two nodes complete a parent one level up.
    for (let k = 0; this.levels[k]!.count % 2 === 0; k++) {
      const lvl = this.levels[k]!;
      const off = (lvl.count - 2) * HASH_SIZE;
      const parent = nodeHash(
        lvl.buf.subarray(off, off + HASH_SIZE),
        lvl.buf.subarray(off + HASH_SIZE, off + 2 * HASH_SIZE),
      );
      push(this.level(k + 1), parent);
    }
    this.n = index + 1;
    return index;
  }

  /** The leaf hash at `index` (a copy). */
  leaf(index: number): Uint8Array {
    checkRange('index', index, 0, this.n - 1);
    return this.node(0, index).slice();
  }

  /** MTH of the first `size` leaves (default: all). The empty tree's root is SHA-256(""). */
  root(size: number = this.n): Uint8Array {
    checkRange('size', size, 0, this.n);
    if (size === 0) return emptyRoot();
    return this.subtree(0, size).slice();
  }

  /** RFC 6962 §2.1.1 audit path for leaf `index` in the tree of `size` leaves (default: all). */
  inclusionProof(index: number, size: number = this.n): Uint8Array[] {
    checkRange('size', size, 1, this.n);
    checkRange('index', index, 0, size - 1);
    // Walk down from the root; the RFC lists siblings bottom-up, so reverse at the end.
    const path: Uint8Array[] = [];
    let lo = 0;
    let hi = size;
    while (hi - lo > 1) {
      const k = splitPoint(hi - lo);
      if (index < lo + k) {
        path.push(this.subtree(lo + k, hi));
        hi = lo + k;
      } else {
        path.push(this.subtree(lo, lo + k));
        lo += k;
      }
    }
    return path.reverse().map((h) => h.slice());
  }

  /**
   * RFC 6962 §2.1.2 proof that the tree at `size2` (default: all) extends the tree at `size1`.
   * Requires 0 < size1 <= size2: every tree extends the empty one, and verifiers (like the reference
   * one) reject a proof from size 0, so callers treat size1 = 0 as trivially consistent.
   */
  consistencyProof(size1: number, size2: number = this.n): Uint8Array[] {
    checkRange('size2', size2, 1, this.n);
    checkRange('size1', size1, 1, size2);
    const proof: Uint8Array[] = [];
    let m = size1;
    let lo = 0;
    let hi = size2;
    let whole = true; // RFC's b: is this subtree the whole old tree, whose root the verifier knows?
    while (m !== hi - lo) {
      const k = splitPoint(hi - lo);
      if (m <= k) {
        proof.push(this.subtree(lo + k, hi));
        hi = lo + k;
      } else {
        proof.push(this.subtree(lo, lo + k));
        m -= k;
        lo += k;
        whole = false;
      }
    }
    if (!whole) proof.push(this.subtree(lo, hi));
    return proof.reverse().map((h) => h.slice());
  }

  /**
   * A self-contained image for snapshots: header + every level, so fromBytes() restores in one copy
   * instead of rehashing. Layout: "db8M", version 1, size as uint64 BE, then levels 0.. packed.
   */
  toBytes(): Uint8Array {
    const counts = levelCounts(this.n);
    const total = counts.reduce((a, c) => a + c, 0);
    const out = new Uint8Array(HEADER_SIZE + total * HASH_SIZE);
    out.set(MAGIC, 0);
    const view = new DataView(out.buffer);
    view.setUint8(4, FORMAT_VERSION);
    view.setUint32(5, Math.floor(this.n / 2 ** 32));
    view.setUint32(9, this.n % 2 ** 32);
    let off = HEADER_SIZE;
    counts.forEach((count, k) => {
      out.set(this.levels[k]!.buf.subarray(0, count * HASH_SIZE), off);
      off += count * HASH_SIZE;
    });
    return out;
  }

  private level(k: number): Level {
    let lvl = this.levels[k];
    if (!lvl) {
      lvl = { buf: new Uint8Array(HASH_SIZE * 16), count: 0 };
      this.levels[k] = lvl;
    }
    return lvl;
  }

  /** Stored hash of node i at level k (a view: never hand it out). */
  private node(k: number, i: number): Uint8Array {
    const off = i * HASH_SIZE;
    return this.levels[k]!.buf.subarray(off, off + HASH_SIZE);
  }

  /** MTH(D[lo:hi]) for 0 <= lo < hi <= size; may return a view into storage. */
  private subtree(lo: number, hi: number): Uint8Array {
    const n = hi - lo;
    if (isPowerOfTwo(n) && lo % n === 0) return this.node(Math.log2(n), lo / n);
    const k = splitPoint(n);
    return nodeHash(this.subtree(lo, lo + k), this.subtree(lo + k, hi));
  }
}

type Level = { buf: Uint8Array; count: number };

const MAGIC = [0x64, 0x62, 0x38, 0x4d]; // "db8M"
const FORMAT_VERSION = 1;
const HEADER_SIZE = 13;

function push(lvl: Level, hash: Uint8Array): void {
  const need = (lvl.count + 1) * HASH_SIZE;
  if (need > lvl.buf.length) {
    const grown = new Uint8Array(Math.max(need, lvl.buf.length * 2));
    grown.set(lvl.buf.subarray(0, lvl.count * HASH_SIZE));
    lvl.buf = grown;
  }
  lvl.buf.set(hash, lvl.count * HASH_SIZE);
  lvl.count++;
}

/** Complete nodes per level for a tree of n leaves: n, n/2, n/4, … (floored) while non-zero. */
function levelCounts(n: number): number[] {
  const counts: number[] = [];
  for (let c = n; c > 0; c = Math.floor(c / 2)) counts.push(c);
  return counts;
}

function buildLevels(leaves: Uint8Array, count: number): Level[] {
  const levels: Level[] = [{ buf: leaves, count }];
  let below = levels[0]!;
  while (below.count >= 2) {
    const up = Math.floor(below.count / 2);
    const buf = new Uint8Array(up * HASH_SIZE);
    const src = below.buf;
    for (let i = 0; i < up; i++) {
      const off = 2 * i * HASH_SIZE;
      buf.set(
        nodeHash(src.subarray(off, off + HASH_SIZE), src.subarray(off + HASH_SIZE, off + 2 * HASH_SIZE)),
        i * HASH_SIZE,
      );
    }
    below = { buf, count: up };
    levels.push(below);
  }
  return levels;
}

function checkLeaf(h: Uint8Array, i: number): void {
  if (h.length !== HASH_SIZE) throw new RangeError(`leaf hash ${i} is ${h.length} bytes, want ${HASH_SIZE}`);
}

function checkRange(what: string, v: number, min: number, max: number): void {
  if (!Number.isSafeInteger(v) || v < min || v > max) {
    throw new RangeError(`MerkleLog: ${what} ${v} outside ${min}..${max}`);
  }
}
