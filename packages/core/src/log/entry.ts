import { z } from 'zod';
import { bytesEqual, fromHex, hashCanonical, toHex } from '../crypto/index.ts';
import { canonicalBytes, JsonValueSchema } from '../json/index.ts';
import { leafHash } from '../merkle/index.ts';
import type { Viewer } from '../protocol/contract.ts';
import { canSee, VisibilitySchema } from './visibility.ts';

/**
 * The log entry format. Every input to a room is one entry; the room's Merkle tree hashes each
 * entry's PUBLIC form (RFC 8785 canonical JSON), so public and private readers agree on every
 * leaf. A non-public entry's public form carries only `commit` = sha256(canonical({payload, salt}));
 * the sealed payload is stored beside it and revealed later by a `reveals` item of some entry,
 * which anyone can check against the commitment.
 */

export const ENTRY_VERSION = 1;

export const EntryKindSchema = z.enum([
  'genesis', // room created: protocol, version, config, seats, seed commitment
  'join', // a principal took a seat (runtime-level; not folded by the protocol)
  'action', // a seat's action, folded by protocol.apply
  'tick', // the runtime advanced time, folded by protocol.tick
  'close', // the room ended; reveals the seed
]);
export type EntryKind = z.infer<typeof EntryKindSchema>;

const Hex64 = z.string().regex(/^[0-9a-f]{64}$/, 'expected 64 lowercase hex chars');

export const RevealSchema = z.object({
  seq: z.number().int().nonnegative(),
  payload: JsonValueSchema,
  salt: Hex64,
});
export type Reveal = z.infer<typeof RevealSchema>;

export const PublicEntrySchema = z
  .object({
    v: z.literal(ENTRY_VERSION),
    room: z.string().min(1),
    seq: z.number().int().nonnegative(),
    ts: z.number().int().nonnegative(),
    kind: EntryKindSchema,
    /** Seat id, `system`, or a principal id for joins. */
    actor: z.string().min(1),
    vis: VisibilitySchema,
    payload: JsonValueSchema.optional(),
    commit: Hex64.optional(),
    reveals: z.array(RevealSchema).optional(),
    /** Public protocol data for this action/tick (Transition.note), recomputed by replay. */
    note: JsonValueSchema.optional(),
  })
  .strict()
  .refine(
    (e) =>
      (e.vis.kind === 'public') === (e.payload !== undefined) &&
      (e.payload === undefined) === (e.commit !== undefined),
    {
      message: 'a public entry has a payload and no commit; a sealed entry has a commit and no payload',
    },
  );
export type PublicEntry = z.infer<typeof PublicEntrySchema>;

export const SealedSchema = z.object({ payload: JsonValueSchema, salt: Hex64 });
export type Sealed = z.infer<typeof SealedSchema>;

/** An entry as stored: the public form plus, for a non-public entry, its sealed payload. */
export type StoredEntry = PublicEntry & { sealed?: Sealed };

/** The commitment that a sealed payload's public form carries. */
export function commitmentOf(sealed: Sealed): string {
  return hashCanonical({ payload: sealed.payload, salt: sealed.salt });
}

export function publicForm(entry: StoredEntry): PublicEntry {
  const { sealed: _sealed, ...pub } = entry;
  return pub;
}

/** RFC 6962 leaf hash of the entry's public form. */
export function entryLeafHash(entry: PublicEntry | StoredEntry): Uint8Array {
  return leafHash(canonicalBytes(publicForm(entry as StoredEntry)));
}

export function entryLeafHashHex(entry: PublicEntry | StoredEntry): string {
  return toHex(entryLeafHash(entry));
}

/** Check a reveal against the commitment in the entry it names. */
export function verifyReveal(committed: PublicEntry, reveal: Reveal): boolean {
  if (committed.seq !== reveal.seq || committed.commit === undefined) return false;
  const expected = fromHex(committed.commit);
  const actual = fromHex(commitmentOf({ payload: reveal.payload, salt: reveal.salt }));
  return bytesEqual(expected, actual);
}

/**
 * The entry as `viewer` may read it: the public form, plus the sealed payload when the viewer may
 * see it. Every read path (REST, WS, SSE, export) goes through this.
 */
export function redactEntry(entry: StoredEntry, viewer: Viewer): StoredEntry {
  if (!entry.sealed) return entry;
  return canSee(entry.vis, viewer) ? entry : publicForm(entry);
}

/** The payload the protocol folds: public payload or sealed payload. */
export function entryPayload(entry: StoredEntry): unknown {
  return entry.payload !== undefined ? entry.payload : entry.sealed?.payload;
}
