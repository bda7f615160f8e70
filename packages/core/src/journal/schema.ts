import { z } from 'zod';
import { PublicEntrySchema, SealedSchema } from '../log/entry.ts';
import type { Viewer } from '../protocol/contract.ts';

/**
 * The journal bundle: a room's log as JSONL, one record per line, verifiable offline.
 *
 *   db8-journal header · key · entry × n (seq 0..n-1) · checkpoint × m (size ascending) · end
 *
 * Field names are snake_case like the REST wire. Entries carry their PUBLIC form exactly as
 * hashed into the room's Merkle tree, plus the sealed payload where the bundle's viewer class may
 * read it. Checkpoints carry the C2SP signed note and the same checkpoint text signed as SSHSIG.
 */

export const JOURNAL_TYPE = 'db8-journal';
export const JOURNAL_VERSION = 1;
/**
 * SSHSIG namespace of checkpoint signatures. Not `db8` (author signatures): a signature made for
 * one purpose must never verify for the other.
 */
export const CHECKPOINT_SSHSIG_NAMESPACE = 'db8-checkpoint';

const Hex64 = z.string().regex(/^[0-9a-f]{64}$/, 'expected 64 lowercase hex chars');
const OneLine = z
  .string()
  .min(1)
  .refine((s) => !/[\r\n]/.test(s), 'must be one line');

/** Who the bundle was exported for: `public` (observer), `seat:<id>`, or `admin`. */
export const ViewerClassSchema = z.union([
  z.literal('public'),
  z.literal('admin'),
  z.templateLiteral(['seat:', z.string().min(1)]),
]);
export type ViewerClass = z.infer<typeof ViewerClassSchema>;

export function viewerOfClass(cls: ViewerClass): Viewer {
  if (cls === 'public') return { kind: 'observer' };
  if (cls === 'admin') return { kind: 'admin' };
  return { kind: 'seat', seat: cls.slice('seat:'.length) };
}

export function viewerClassOf(viewer: Viewer): ViewerClass {
  if (viewer.kind === 'observer') return 'public';
  if (viewer.kind === 'admin') return 'admin';
  return `seat:${viewer.seat}`;
}

export const JournalHeaderSchema = z.strictObject({
  type: z.literal(JOURNAL_TYPE),
  version: z.number().int().positive(),
  room: z.string().min(1),
  protocol: z.string().min(1),
  protocol_version: z.number().int(),
  /** Checkpoint origin of the room's log: `<host>/room/<room>`. */
  origin: OneLine,
  title: z.string().nullable(),
  exported_at: z.iso.datetime(),
  viewer_class: ViewerClassSchema,
});
export type JournalHeader = z.infer<typeof JournalHeaderSchema>;

/** An allowed_signers identity: no whitespace, commas, quotes or pattern characters. */
const Identity = z.string().regex(/^[^\s,"*?!]+$/, 'not a plain allowed_signers identity');

export const JournalKeySchema = z.strictObject({
  type: z.literal('key'),
  role: z.literal('server'),
  /** C2SP signed-note verifier key: `<name>+<keyid>+<base64>`. */
  note_vkey: OneLine,
  /** The same Ed25519 key as an OpenSSH public key line. */
  ssh_public_key: OneLine,
  /** allowed_signers identity for `ssh-keygen -Y verify -I`. */
  identity: Identity,
  namespace: z.literal(CHECKPOINT_SSHSIG_NAMESPACE),
  /** One allowed_signers line: `<identity> namespaces="db8-checkpoint" ssh-ed25519 AAAA…`. */
  allowed_signers: OneLine,
});
export type JournalKey = z.infer<typeof JournalKeySchema>;

export const JournalEntrySchema = z.strictObject({
  type: z.literal('entry'),
  /** RFC 6962 leaf hash (hex) of the canonical public form, as the exporter computed it. */
  leaf_hash: Hex64,
  entry: PublicEntrySchema,
  /** The sealed payload of a non-public entry, when the viewer class may read it. */
  sealed: SealedSchema.optional(),
});
export type JournalEntry = z.infer<typeof JournalEntrySchema>;

export const JournalCheckpointSchema = z.strictObject({
  type: z.literal('checkpoint'),
  size: z.number().int().nonnegative(),
  root_hash: Hex64,
  milestone: z.string().nullable(),
  /** The complete C2SP signed note. */
  note: z.string().min(1),
  /** The note's checkpoint text (origin, size, root lines): the bytes the SSHSIG signs. */
  text: z.string().min(1),
  /** Armored SSHSIG over `text`, namespace db8-checkpoint, by the server key. */
  sshsig: z.string().min(1).optional(),
});
export type JournalCheckpoint = z.infer<typeof JournalCheckpointSchema>;

export const JournalTrailerSchema = z.strictObject({
  type: z.literal('end'),
  entries: z.number().int().nonnegative(),
  checkpoints: z.number().int().nonnegative(),
  /** Root of all `entries` leaves (hex): a cheap cross-check, not a signature. */
  root_hash: Hex64,
});
export type JournalTrailer = z.infer<typeof JournalTrailerSchema>;

export const JournalRecordSchema = z.discriminatedUnion('type', [
  JournalHeaderSchema,
  JournalKeySchema,
  JournalEntrySchema,
  JournalCheckpointSchema,
  JournalTrailerSchema,
]);
export type JournalRecord = z.infer<typeof JournalRecordSchema>;
