import {
  foldEntry as coreFoldEntry,
  FoldedRoom,
  RefoldError,
  type RoomCore,
  roomFromSnapshot,
  type SnapshotBody,
  SnapshotBodySchema,
  type StoredEntry,
  snapshotBody,
  stateHash,
} from '@db8/core';
import { runtimeError } from './errors.ts';

// The fold lives in @db8/core (one fold for the runtime, LocalRoom and offline verify); the
// runtime only maps its refusal to a RuntimeError (REFOLD_FAILED, 500).
export {
  FoldedRoom,
  type RoomCore,
  roomFromSnapshot,
  type SnapshotBody,
  SnapshotBodySchema,
  snapshotBody,
  stateHash,
};

/** Folds one stored entry into the memo (core's foldEntry); a log the protocol refuses is REFOLD_FAILED. */
export function foldEntry(memo: FoldedRoom, entry: StoredEntry, leafHashHex: string): void {
  try {
    coreFoldEntry(memo, entry, leafHashHex);
  } catch (err) {
    if (err instanceof RefoldError) throw runtimeError('REFOLD_FAILED', err.message, { seq: err.seq });
    throw err;
  }
}
