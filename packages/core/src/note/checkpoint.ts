import { z } from 'zod';
import { toBase64 } from '../crypto/bytes.ts';
import { NoteError } from './errors.ts';
import { hasControlOrLoneSurrogate, type NoteSigner, type NoteVerifier, strictBase64 } from './keys.ts';
import { type OpenedNote, openNote, signNote } from './note.ts';

// Transparency-log checkpoints (c2sp.org/tlog-checkpoint): the note text is
//   <origin>\n<tree size>\n<base64 root hash>\n[<extension line>\n]*
// db8 signs one per room with the server key; the origin names the room's log.

const line = (what: string) =>
  z
    .string()
    .min(1, `${what} must be non-empty`)
    .refine((s) => !hasControlOrLoneSurrogate(s), `${what} must be one line of valid text`);

export const CheckpointSchema = z.object({
  /** Log identity, e.g. `db8.example/room/<room_id>`. */
  origin: line('origin'),
  /** Number of leaves. */
  size: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  /** RFC 6962 root hash at `size` (32 bytes). */
  rootHash: z.custom<Uint8Array>(
    (b) => b instanceof Uint8Array && b.length === 32,
    'rootHash must be 32 bytes',
  ),
  /** Opaque extra lines (the spec advises against them; kept for round-tripping). */
  extensions: z.array(line('extension line')).optional(),
});
export type Checkpoint = z.infer<typeof CheckpointSchema>;

/** The origin db8 uses for a room's log. */
export function roomOrigin(host: string, roomId: string): string {
  return `${host}/room/${roomId}`;
}

/** The checkpoint's note text (final newline included), ready for signNote. */
export function formatCheckpoint(checkpoint: Checkpoint): string {
  const parsed = CheckpointSchema.safeParse(checkpoint);
  if (!parsed.success)
    throw new NoteError('MALFORMED_CHECKPOINT', parsed.error.issues[0]?.message ?? 'bad checkpoint');
  const { origin, size, rootHash, extensions = [] } = parsed.data;
  return [origin, String(size), toBase64(rootHash), ...extensions].map((l) => `${l}\n`).join('');
}

/** Parses checkpoint note text strictly: canonical decimal size, canonical base64 32-byte root. */
export function parseCheckpoint(text: string): Checkpoint {
  const bad = (why: string) => new NoteError('MALFORMED_CHECKPOINT', `checkpoint: ${why}`);
  if (!text.endsWith('\n')) throw bad('text must end in a newline');
  const lines = text.slice(0, -1).split('\n');
  if (lines.length < 3) throw bad('need origin, size and root hash lines');
  const [origin, sizeText, rootText, ...extensions] = lines as [string, string, string, ...string[]];
  if (!/^(0|[1-9][0-9]*)$/.test(sizeText)) throw bad('size must be decimal without leading zeroes');
  const size = Number(sizeText);
  if (!Number.isSafeInteger(size)) throw bad('size is too large');
  const rootHash = strictBase64(rootText);
  if (rootHash?.length !== 32) throw bad('root hash must be base64 of 32 bytes');
  const parsed = CheckpointSchema.safeParse({
    origin,
    size,
    rootHash,
    ...(extensions.length > 0 ? { extensions } : {}),
  });
  if (!parsed.success) throw bad(parsed.error.issues[0]?.message ?? 'invalid');
  return parsed.data;
}

/** Formats and signs a checkpoint; returns the complete signed note. */
export function signCheckpoint(checkpoint: Checkpoint, signers: readonly NoteSigner[]): string {
  return signNote(formatCheckpoint(checkpoint), signers);
}

export type VerifiedCheckpoint = { checkpoint: Checkpoint; note: OpenedNote };

/**
 * Opens a signed checkpoint note (see openNote for the signature rules) and parses its text. With
 * `origin`, also rejects a checkpoint for any other log (WRONG_ORIGIN).
 */
export function verifyCheckpoint(
  noteText: string,
  verifiers: readonly NoteVerifier[],
  opts: { origin?: string } = {},
): VerifiedCheckpoint {
  const note = openNote(noteText, verifiers);
  const checkpoint = parseCheckpoint(note.text);
  if (opts.origin !== undefined && checkpoint.origin !== opts.origin) {
    throw new NoteError('WRONG_ORIGIN', `checkpoint is for ${checkpoint.origin}, want ${opts.origin}`);
  }
  return { checkpoint, note };
}
