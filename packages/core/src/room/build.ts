import { fromHex, toHex, utf8Encode } from '../crypto/bytes.ts';
import { sha256Hex } from '../crypto/hash.ts';
import { canonicalize, type JsonValue } from '../json/index.ts';
import {
  commitmentOf,
  ENTRY_VERSION,
  type EntryKind,
  type PublicEntry,
  PublicEntrySchema,
  type Reveal,
  type Sealed,
  type StoredEntry,
  verifyReveal,
} from '../log/entry.ts';
import type { Visibility } from '../log/visibility.ts';
import { leafHash } from '../merkle/hash.ts';
import type { SeatInfo } from '../protocol/contract.ts';

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

export interface BuiltEntry {
  stored: StoredEntry;
  leaf: Uint8Array;
  /** The canonical public form: exactly the bytes the leaf hashes. */
  publicJson: string;
  /** The canonical sealed payload of a non-public entry. */
  sealedJson: string | null;
}

/**
 * Builds an entry as stored, the one way every writer does (server runtime and LocalRoom): a public
 * entry carries its payload; any other is sealed with `salt` (32 random bytes, hex, from the
 * caller: core has no ambient randomness) and its public form carries only the commitment. The
 * public form is validated and canonicalised once; the leaf hash is over exactly those bytes.
 */
export function buildEntry(spec: EntrySpec, salt: () => string): BuiltEntry {
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
    sealed = { payload: spec.payload, salt: salt() };
    pub = { ...base, commit: commitmentOf(sealed) };
  }
  if (spec.reveals && spec.reveals.length > 0) pub.reveals = spec.reveals;
  if (spec.note !== undefined) pub.note = spec.note;
  // The payload and note are checked by canonicalize just below (the rule JsonValueSchema applies):
  // zod checks the rest of the shape without canonicalising them a second time.
  PublicEntrySchema.parse({
    ...pub,
    payload: pub.payload === undefined ? undefined : null,
    note: pub.note === undefined ? undefined : null,
  });
  const publicJson = canonicalize(pub);
  const leaf = leafHash(utf8Encode(publicJson));
  const stored: StoredEntry = sealed ? { ...pub, sealed } : pub;
  return { stored, leaf, publicJson, sealedJson: sealed ? canonicalize(sealed) : null };
}

/** A reveal could not be made: the named entry is missing or its sealed payload is not what it committed. */
export class RevealError extends Error {
  readonly code = 'BAD_REVEAL';
}

/**
 * The reveals for `seqs` from the entries that hold them: each sealed payload and salt must match
 * the commitment in its entry's public form before anything is written. Already-public entries
 * need no reveal and are skipped.
 */
export function revealsOf(seqs: readonly number[], find: (seq: number) => StoredEntry | undefined): Reveal[] {
  const out: Reveal[] = [];
  for (const seq of [...new Set(seqs)].sort((a, b) => a - b)) {
    const e = find(seq);
    if (!e) throw new RevealError(`reveal of seq ${seq}: no such entry`);
    if (!e.sealed) continue;
    const reveal: Reveal = { seq, payload: e.sealed.payload, salt: e.sealed.salt };
    if (!verifyReveal(e, reveal)) throw new RevealError(`reveal of seq ${seq} does not match its commitment`);
    out.push(reveal);
  }
  return out;
}

/** The genesis payload every room starts with; the seed is committed here and revealed at close. */
export function genesisPayload(input: {
  protocol: string;
  version: number;
  config: JsonValue;
  seats: readonly SeatInfo[];
  seed: string;
  title?: string;
}): JsonValue {
  return {
    protocol: input.protocol,
    version: input.version,
    config: input.config,
    seats: input.seats.map((s) => ({ id: s.id, role: s.role })),
    seedCommit: sha256Hex(fromHex(input.seed)),
    ...(input.title !== undefined ? { title: input.title } : {}),
  };
}

/** JSON-only copy of a value as it will be stored (drops undefined, rejects non-JSON). */
export function asJson(value: unknown): JsonValue {
  return JSON.parse(canonicalize(value)) as JsonValue;
}

/** 32 fresh random bytes as hex: the default salt (globalThis.crypto, as core's key generation). */
export function randomSalt(): string {
  const b = new Uint8Array(32);
  globalThis.crypto.getRandomValues(b);
  return toHex(b);
}
