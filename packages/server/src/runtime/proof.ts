import { bytesEqual, fromHex, MerkleLog, toHex } from '@db8/core';
import type { Store } from '../store/store.ts';
import { type CommitConfig, signRoomCheckpoint } from './commit.ts';
import { runtimeError } from './errors.ts';
import type { FoldedRoom } from './room.ts';
import type { InclusionProof } from './types.ts';

/**
 * Proof that entry `seq` is in the room's log, against the newest signed checkpoint. When the
 * newest checkpoint predates the entry, a checkpoint of the current head is signed and stored
 * first. The tree is built from stored leaf hashes once per room and extended as it grows.
 */
export async function inclusionProof(
  store: Store,
  cfg: CommitConfig,
  memo: FoldedRoom,
  seq: number,
): Promise<InclusionProof> {
  const roomId = memo.core.id;
  if (!Number.isSafeInteger(seq) || seq < 0 || seq > memo.seq) {
    throw runtimeError('ENTRY_NOT_FOUND', `room ${roomId} has no entry ${seq}`);
  }
  let cp = await store.checkpoints.latest(roomId);
  if (!cp || cp.size <= seq) {
    const size = memo.frontier.size;
    const root = memo.frontier.root();
    const row = {
      roomId,
      size,
      rootHash: toHex(root),
      note: signRoomCheckpoint(cfg, roomId, size, root),
      milestone: null,
      createdAt: memo.lastTs,
    };
    await store.checkpoints.put(row);
    cp = (await store.checkpoints.latest(roomId)) ?? row;
  }
  let tree = memo.tree ?? new MerkleLog();
  if (tree.size < cp.size) {
    const hashes = await store.entries.leafHashes(roomId, tree.size, cp.size);
    if (tree.size === 0) tree = MerkleLog.fromLeafHashes(hashes.map(fromHex));
    else for (const h of hashes) tree.append(fromHex(h));
  }
  memo.tree = tree;
  if (tree.size < cp.size || !bytesEqual(tree.root(cp.size), fromHex(cp.rootHash))) {
    throw runtimeError('REFOLD_FAILED', `room ${roomId}: stored leaves do not match checkpoint ${cp.size}`);
  }
  return {
    leafHash: toHex(tree.leaf(seq)),
    index: seq,
    treeSize: cp.size,
    proof: tree.inclusionProof(seq, cp.size).map(toHex),
    checkpoint: cp.note,
  };
}
