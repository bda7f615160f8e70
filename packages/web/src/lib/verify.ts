import {
  bytesEqual,
  type Checkpoint,
  entryLeafHash,
  fromBase64,
  fromHex,
  type PublicEntry,
  parseCheckpoint,
  publicForm,
  type StoredEntry,
  toHex,
  verifyInclusion,
} from '@db8/core';

// The journal badge: recompute an entry's leaf hash here, from the public form the server served,
// and check the served inclusion proof leads to the root in the served checkpoint. Nothing the
// server claims about the hash is trusted; only its proof and checkpoint are used as inputs.

export type ProofInput = {
  leaf_hash: string;
  index: number;
  tree_size: number;
  proof: string[];
  checkpoint: string;
};

export type Verdict =
  | { ok: true; leafHash: string; treeSize: number; root: string; origin: string }
  | { ok: false; reason: string; leafHash?: string };

/** Proof elements are hex on the wire; base64 is accepted too. */
function decodeHash(s: string): Uint8Array {
  return /^[0-9a-f]{64}$/i.test(s) ? fromHex(s.toLowerCase()) : fromBase64(s);
}

/** The checkpoint body of a signed note: the text before the blank line that starts the signatures. */
export function checkpointOfNote(note: string): Checkpoint {
  const cut = note.indexOf('\n\n');
  return parseCheckpoint(cut === -1 ? note : note.slice(0, cut + 1));
}

export function verifyEntry(entry: StoredEntry | PublicEntry, proof: ProofInput, seq = entry.seq): Verdict {
  let leaf: Uint8Array;
  try {
    leaf = entryLeafHash(publicForm(entry as StoredEntry));
  } catch (e) {
    return { ok: false, reason: `cannot hash entry: ${(e as Error).message}` };
  }
  const leafHex = toHex(leaf);
  if (proof.index !== seq)
    return { ok: false, reason: `proof is for leaf ${proof.index}, not ${seq}`, leafHash: leafHex };
  let served: Uint8Array;
  try {
    served = decodeHash(proof.leaf_hash);
  } catch {
    return { ok: false, reason: 'served leaf hash is malformed', leafHash: leafHex };
  }
  if (!bytesEqual(served, leaf))
    return { ok: false, reason: 'leaf hash differs from the served one', leafHash: leafHex };
  let cp: Checkpoint;
  try {
    cp = checkpointOfNote(proof.checkpoint);
  } catch (e) {
    return { ok: false, reason: `bad checkpoint: ${(e as Error).message}`, leafHash: leafHex };
  }
  if (cp.size !== proof.tree_size) {
    return {
      ok: false,
      reason: `checkpoint size ${cp.size} ≠ proof size ${proof.tree_size}`,
      leafHash: leafHex,
    };
  }
  let path: Uint8Array[];
  try {
    path = proof.proof.map(decodeHash);
  } catch {
    return { ok: false, reason: 'proof element is malformed', leafHash: leafHex };
  }
  if (!verifyInclusion(leaf, proof.index, cp.size, path, cp.rootHash)) {
    return { ok: false, reason: 'inclusion proof does not lead to the checkpoint root', leafHash: leafHex };
  }
  return { ok: true, leafHash: leafHex, treeSize: cp.size, root: toHex(cp.rootHash), origin: cp.origin };
}
