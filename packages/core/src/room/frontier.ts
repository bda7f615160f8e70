import { fromHex, toHex } from '../crypto/bytes.ts';
import { emptyRoot, nodeHash } from '../merkle/hash.ts';

/**
 * The right edge of an RFC 6962 tree: the roots of its perfect subtrees, largest first (one per
 * set bit of the size). Enough to append and to compute the current root in O(log n) memory, so a
 * room's tree state fits in a snapshot; full proofs use core's MerkleLog built from leaf hashes.
 */
export class Frontier {
  private constructor(
    private n: number,
    private nodes: Uint8Array[],
  ) {}

  static empty(): Frontier {
    return new Frontier(0, []);
  }

  static fromJSON(j: { size: number; nodes: string[] }): Frontier {
    let bits = 0;
    for (let s = j.size; s > 0; s = Math.floor(s / 2)) bits += s % 2;
    if (bits !== j.nodes.length) throw new Error('frontier: node count does not match size');
    return new Frontier(
      j.size,
      j.nodes.map((h) => fromHex(h)),
    );
  }

  toJSON(): { size: number; nodes: string[] } {
    return { size: this.n, nodes: this.nodes.map(toHex) };
  }

  get size(): number {
    return this.n;
  }

  clone(): Frontier {
    return new Frontier(this.n, this.nodes.slice());
  }

  append(leafHash: Uint8Array): void {
    this.nodes.push(leafHash);
    // Each trailing 1 bit of the old size is a perfect subtree the new leaf completes a pair with.
    for (let s = this.n; s % 2 === 1; s = Math.floor(s / 2)) {
      const right = this.nodes.pop() as Uint8Array;
      const left = this.nodes.pop() as Uint8Array;
      this.nodes.push(nodeHash(left, right));
    }
    this.n++;
  }

  /** MTH of all leaves: the subtree roots folded from the right. */
  root(): Uint8Array {
    if (this.n === 0) return emptyRoot();
    let h = this.nodes[this.nodes.length - 1] as Uint8Array;
    for (let i = this.nodes.length - 2; i >= 0; i--) h = nodeHash(this.nodes[i] as Uint8Array, h);
    return h;
  }
}
