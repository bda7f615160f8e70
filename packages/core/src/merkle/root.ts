import { emptyRoot, HASH_SIZE, nodeHash } from './hash.ts';

/**
 * MTH(D[0:n]) of the first `n` leaf hashes (default: all), RFC 6962 §2.1, in n - 1 node hashes and
 * O(log n) memory: a stack of perfect subtrees (the "compact range") is merged as leaves arrive,
 * then folded right to left, which is exactly the RFC's left-heavy split.
 */
export function rootOf(leafHashes: readonly Uint8Array[], n: number = leafHashes.length): Uint8Array {
  if (!Number.isSafeInteger(n) || n < 0 || n > leafHashes.length) {
    throw new RangeError(`rootOf: size ${n} outside 0..${leafHashes.length}`);
  }
  if (n === 0) return emptyRoot();
  const stack: Uint8Array[] = [];
  const sizes: number[] = [];
  for (let i = 0; i < n; i++) {
    const leaf = leafHashes[i]!;
    if (leaf.length !== HASH_SIZE) throw new RangeError(`rootOf: leaf hash ${i} is not ${HASH_SIZE} bytes`);
    let h = leaf;
    let size = 1;
    while (sizes.length > 0 && sizes[sizes.length - 1] === size) {
      sizes.pop();
      h = nodeHash(stack.pop()!, h);
      size *= 2;
    }
    stack.push(h);
    sizes.push(size);
  }
  let root = stack.pop()!;
  while (stack.length > 0) root = nodeHash(stack.pop()!, root);
  // A single leaf's root is the leaf hash itself: hand out a copy, never the caller's array.
  return n === 1 ? root.slice() : root;
}
