import { bytesEqual, fromBase64, fromHex, toHex } from '../crypto/bytes.ts';
import { entryLeafHash, type PublicEntry, publicForm, type StoredEntry } from '../log/entry.ts';
import { verifyInclusion } from '../merkle/verify.ts';
import { type Checkpoint, parseCheckpoint, verifyCheckpoint } from '../note/checkpoint.ts';
import type { NoteVerifier } from '../note/keys.ts';

// One served entry against the log: recompute its leaf hash from the public form the server served,
// check the served inclusion proof leads to the root in the served checkpoint, that the checkpoint
// is this room's log, and (given the server's note key) that the checkpoint's signature holds.
// Nothing the server claims about the hash is trusted; its proof and checkpoint are only inputs.
// The web journal page badges each entry with it; verifyBundle checks a whole bundle the same way.

export type EntryProofInput = {
  leaf_hash: string;
  index: number;
  tree_size: number;
  proof: string[];
  checkpoint: string;
};

export type EntryProofVerdict =
  | {
      ok: true;
      leafHash: string;
      treeSize: number;
      root: string;
      origin: string;
      /** The note key that signed the checkpoint, or null when no key was given to check it. */
      signedBy: string | null;
    }
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

export function verifyEntryProof(
  entry: StoredEntry | PublicEntry,
  proof: EntryProofInput,
  verifier: NoteVerifier | null = null,
): EntryProofVerdict {
  const seq = entry.seq;
  let leaf: Uint8Array;
  try {
    leaf = entryLeafHash(publicForm(entry as StoredEntry));
  } catch (e) {
    return { ok: false, reason: `cannot hash entry: ${(e as Error).message}` };
  }
  const leafHex = toHex(leaf);
  const fail = (reason: string): EntryProofVerdict => ({ ok: false, reason, leafHash: leafHex });
  if (proof.index !== seq) return fail(`proof is for leaf ${proof.index}, not ${seq}`);
  let served: Uint8Array;
  try {
    served = decodeHash(proof.leaf_hash);
  } catch {
    return fail('served leaf hash is malformed');
  }
  if (!bytesEqual(served, leaf)) return fail('leaf hash differs from the served one');
  let cp: Checkpoint;
  try {
    cp = verifier
      ? verifyCheckpoint(proof.checkpoint, [verifier]).checkpoint
      : checkpointOfNote(proof.checkpoint);
  } catch (e) {
    return fail(`${verifier ? 'checkpoint signature' : 'bad checkpoint'}: ${(e as Error).message}`);
  }
  // A valid checkpoint of some other room's log proves nothing about this one.
  if (!cp.origin.endsWith(`/room/${entry.room}`)) return fail(`checkpoint is for ${cp.origin}`);
  if (cp.size !== proof.tree_size) return fail(`checkpoint size ${cp.size} ≠ proof size ${proof.tree_size}`);
  let path: Uint8Array[];
  try {
    path = proof.proof.map(decodeHash);
  } catch {
    return fail('proof element is malformed');
  }
  if (!verifyInclusion(leaf, proof.index, cp.size, path, cp.rootHash)) {
    return fail('inclusion proof does not lead to the checkpoint root');
  }
  return {
    ok: true,
    leafHash: leafHex,
    treeSize: cp.size,
    root: toHex(cp.rootHash),
    origin: cp.origin,
    signedBy: verifier?.name ?? null,
  };
}
