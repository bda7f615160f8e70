import { randomBytes } from 'node:crypto';
import {
  canonicalize,
  commitmentOf,
  ENTRY_VERSION,
  type EntryKind,
  type JsonValue,
  leafHash,
  type PublicEntry,
  PublicEntrySchema,
  type Reveal,
  type Sealed,
  type StoredEntry,
  toHex,
  utf8Encode,
  type Visibility,
} from '@db8/core';
import type { EntryRow } from '../store/schemas.ts';

export interface BuiltEntry {
  stored: StoredEntry;
  row: EntryRow;
  leaf: Uint8Array;
}

export interface EntrySpec {
  room: string;
  seq: number;
  ts: number;
  kind: EntryKind;
  actor: string;
  payload: JsonValue;
  vis: Visibility;
  reveals?: Reveal[];
  /** Public protocol note (Transition.note): on the public form even when the payload is sealed. */
  note?: JsonValue;
}

/**
 * Builds an entry as stored: a public entry carries its payload; any other is sealed with a fresh
 * 32-byte salt and its public form carries only the commitment. The public form is validated
 * (PublicEntrySchema) and canonicalised once; the leaf hash is over exactly those bytes.
 */
export function buildEntry(spec: EntrySpec): BuiltEntry {
  const base = {
    v: ENTRY_VERSION,
    room: spec.room,
    seq: spec.seq,
    ts: spec.ts,
    kind: spec.kind,
    actor: spec.actor,
    vis: spec.vis,
  } as const;
  let pub: PublicEntry;
  let sealed: Sealed | undefined;
  if (spec.vis.kind === 'public') {
    pub = { ...base, payload: spec.payload };
  } else {
    sealed = { payload: spec.payload, salt: randomBytes(32).toString('hex') };
    pub = { ...base, commit: commitmentOf(sealed) };
  }
  if (spec.reveals && spec.reveals.length > 0) pub.reveals = spec.reveals;
  if (spec.note !== undefined) pub.note = spec.note;
  PublicEntrySchema.parse(pub);
  const publicJson = canonicalize(pub);
  const leaf = leafHash(utf8Encode(publicJson));
  const stored: StoredEntry = sealed ? { ...pub, sealed } : pub;
  return {
    stored,
    leaf,
    row: {
      roomId: spec.room,
      seq: spec.seq,
      ts: spec.ts,
      kind: spec.kind,
      actor: spec.actor,
      publicJson,
      sealedJson: sealed ? canonicalize(sealed) : null,
      leafHash: toHex(leaf),
    },
  };
}

/** A stored row back as an entry (our own canonical JSON, so plain JSON.parse is exact). */
export function rowToStored(row: EntryRow): StoredEntry {
  const pub = JSON.parse(row.publicJson) as PublicEntry;
  return row.sealedJson === null ? pub : { ...pub, sealed: JSON.parse(row.sealedJson) as Sealed };
}
