import { randomBytes } from 'node:crypto';
import {
  type BuiltEntry as CoreBuilt,
  buildEntry as coreBuild,
  type EntrySpec,
  type PublicEntry,
  type Sealed,
  type StoredEntry,
  toHex,
} from '@db8/core';
import type { EntryRow } from '../store/schemas.ts';

export type { EntrySpec };

export interface BuiltEntry {
  stored: StoredEntry;
  row: EntryRow;
  leaf: Uint8Array;
}

const salt = () => randomBytes(32).toString('hex');

/**
 * Builds an entry as stored (core's buildEntry: the one entry format LocalRoom writes too), with a
 * fresh 32-byte salt for a sealed payload, and the row the store keeps.
 */
export function buildEntry(spec: EntrySpec): BuiltEntry {
  const b: CoreBuilt = coreBuild(spec, salt);
  return {
    stored: b.stored,
    leaf: b.leaf,
    row: {
      roomId: spec.room,
      seq: spec.seq,
      ts: spec.ts,
      kind: spec.kind,
      actor: spec.actor,
      publicJson: b.publicJson,
      sealedJson: b.sealedJson,
      leafHash: toHex(b.leaf),
    },
  };
}

/** A stored row back as an entry (our own canonical JSON, so plain JSON.parse is exact). */
export function rowToStored(row: EntryRow): StoredEntry {
  const pub = JSON.parse(row.publicJson) as PublicEntry;
  return row.sealedJson === null ? pub : { ...pub, sealed: JSON.parse(row.sealedJson) as Sealed };
}
