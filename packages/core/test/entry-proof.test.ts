import { describe, expect, it } from 'vitest';
import {
  checkpointOfNote,
  ed25519Signer,
  entryLeafHash,
  MerkleLog,
  type EntryProofInput as ProofInput,
  type PublicEntry,
  roomOrigin,
  type StoredEntry,
  signCheckpoint,
  toHex,
  verifyEntryProof as verifyEntry,
} from '../src/index.ts';

// The journal badge's per-entry check (core verifyEntryProof), on a log built with core's own Merkle
// tree and signed checkpoint.

const room = 'room_test';
const entries: StoredEntry[] = [
  {
    v: 1,
    room,
    seq: 0,
    ts: 1000,
    kind: 'genesis',
    actor: 'system',
    vis: { kind: 'public' },
    payload: { p: 'x' },
  },
  {
    v: 1,
    room,
    seq: 1,
    ts: 1001,
    kind: 'join',
    actor: 'alice',
    vis: { kind: 'public' },
    payload: { seat: 'a' },
  },
  {
    v: 1,
    room,
    seq: 2,
    ts: 1002,
    kind: 'action',
    actor: 'a',
    vis: { kind: 'seat', seat: 'a' },
    commit: 'ab'.repeat(32),
    sealed: { payload: { bid: 5 }, salt: 'cd'.repeat(32) },
  },
  {
    v: 1,
    room,
    seq: 3,
    ts: 1003,
    kind: 'tick',
    actor: 'system',
    vis: { kind: 'public' },
    payload: { n: 1.5 },
  },
  { v: 1, room, seq: 4, ts: 1004, kind: 'action', actor: 'b', vis: { kind: 'public' }, payload: { s: 'é' } },
];

const log = new MerkleLog();
for (const e of entries) log.append(entryLeafHash(e));
const signer = ed25519Signer('db8.test', new Uint8Array(32).fill(7));
const note = signCheckpoint({ origin: roomOrigin('db8.test', room), size: log.size, rootHash: log.root() }, [
  signer,
]);

function proofFor(seq: number): ProofInput {
  return {
    leaf_hash: toHex(log.leaf(seq)),
    index: seq,
    tree_size: log.size,
    proof: log.inclusionProof(seq).map(toHex),
    checkpoint: note,
  };
}

describe('verifyEntry', () => {
  it('verifies every entry of a signed log, sealed ones by their public form', () => {
    for (const e of entries) {
      const v = verifyEntry(e, proofFor(e.seq));
      expect(v, `seq ${e.seq}`).toMatchObject({ ok: true, treeSize: 5, origin: 'db8.test/room/room_test' });
    }
  });

  it('gives the same verdict with the sealed payload stripped', () => {
    const { sealed: _s, ...pub } = entries[2]!;
    expect(verifyEntry(pub as PublicEntry, proofFor(2)).ok).toBe(true);
  });

  it('fails when the served entry was altered', () => {
    const tampered = { ...entries[1]!, payload: { seat: 'b' } };
    const v = verifyEntry(tampered, proofFor(1));
    expect(v).toMatchObject({ ok: false, reason: 'leaf hash differs from the served one' });
  });

  it('fails when the server lies consistently about the leaf hash', () => {
    const tampered = { ...entries[1]!, payload: { seat: 'b' } };
    const proof = { ...proofFor(1), leaf_hash: toHex(entryLeafHash(tampered)) };
    expect(verifyEntry(tampered, proof)).toMatchObject({
      ok: false,
      reason: 'inclusion proof does not lead to the checkpoint root',
    });
  });

  it('fails on a proof for another leaf, a wrong path, or a mismatched size', () => {
    expect(verifyEntry(entries[1]!, proofFor(3)).ok).toBe(false);
    const p = proofFor(1);
    expect(verifyEntry(entries[1]!, { ...p, proof: [...p.proof].reverse() }).ok).toBe(false);
    expect(verifyEntry(entries[1]!, { ...p, tree_size: 4 })).toMatchObject({ ok: false });
    expect(verifyEntry(entries[1]!, { ...p, checkpoint: 'garbage' })).toMatchObject({ ok: false });
  });

  it('checks the checkpoint signature when given the server key', () => {
    const v = verifyEntry(entries[3]!, proofFor(3), signer.verifier);
    expect(v).toMatchObject({ ok: true, signedBy: 'db8.test' });
    const stranger = ed25519Signer('db8.test', new Uint8Array(32).fill(8));
    const forged = signCheckpoint(
      { origin: roomOrigin('db8.test', room), size: log.size, rootHash: log.root() },
      [stranger],
    );
    expect(verifyEntry(entries[3]!, { ...proofFor(3), checkpoint: forged }, signer.verifier)).toMatchObject({
      ok: false,
    });
    // Without a key the inclusion still checks, and the verdict says the signature was not.
    expect(verifyEntry(entries[3]!, proofFor(3))).toMatchObject({ ok: true, signedBy: null });
  });

  it("rejects a valid checkpoint of another room's log", () => {
    const other = signCheckpoint(
      { origin: roomOrigin('db8.test', 'room_other'), size: log.size, rootHash: log.root() },
      [signer],
    );
    expect(verifyEntry(entries[3]!, { ...proofFor(3), checkpoint: other }, signer.verifier)).toMatchObject({
      ok: false,
      reason: 'checkpoint is for db8.test/room/room_other',
    });
  });

  it('reads the checkpoint body out of a signed note', () => {
    const cp = checkpointOfNote(note);
    expect(cp.size).toBe(5);
    expect(toHex(cp.rootHash)).toBe(toHex(log.root()));
  });
});
