// What verifyBundle reports. Codes are stable (the CLI prints them, tests assert them).

export const JOURNAL_FAILURE_CODES = [
  // The bundle as a whole
  'MALFORMED_RECORD', // a line is not strict JSON, or not any known record
  'NO_HEADER', // the first record is not a valid db8-journal header
  'UNSUPPORTED_VERSION',
  'BAD_HEADER', // header inconsistent with itself (origin does not name the room)
  'NO_KEY', // no server key record (or more than one)
  'BAD_KEY', // key record malformed or inconsistent (note key ≠ ssh key, wrong allowed_signers line)
  'KEY_NOT_PINNED', // the bundle's key is not the key the caller pinned
  // Entries
  'WRONG_ROOM', // entry for another room
  'MISSING_ENTRY', // a seq is absent (dropped entry or truncated bundle)
  'OUT_OF_ORDER', // a seq appears after a later one
  'DUPLICATE_ENTRY',
  'BAD_GENESIS', // entry 0 is not the genesis of the header's protocol, or a genesis later on
  'LEAF_MISMATCH', // the leaf hash of the public form differs from the one recorded
  'SEALED_MISMATCH', // a sealed payload does not match its entry's commitment
  'REVEAL_MISMATCH', // a reveal does not match the commitment of the entry it names
  'SEED_MISMATCH', // the close entry's seed does not match the genesis seed commitment
  // Checkpoints
  'CHECKPOINT_MALFORMED',
  'CHECKPOINT_SIGNATURE', // the signed note does not verify with the (pinned or bundled) key
  'CHECKPOINT_ORIGIN', // the checkpoint is for another log
  'CHECKPOINT_FIELDS', // size / root_hash / text fields disagree with the signed note
  'CHECKPOINT_ROOT', // the signed root is not the root of the bundle's entries at that size
  'CHECKPOINT_BEYOND_LOG', // a checkpoint covers more entries than the bundle has
  'SSHSIG_MISSING',
  'SSHSIG_INVALID', // the SSHSIG form does not verify (key, namespace, text)
  'UNSIGNED_TAIL', // entries after the last signed checkpoint: nothing vouches for them
  // The trailer
  'TRUNCATED', // no trailer: the bundle was cut short
  'TRAILER_MISMATCH', // counts or root in the trailer disagree with the bundle
] as const;
export type JournalFailureCode = (typeof JOURNAL_FAILURE_CODES)[number];

export interface JournalFailure {
  /** The entry the failure names; null for the bundle as a whole (header, key, trailer). */
  seq: number | null;
  code: JournalFailureCode;
  message: string;
  /** 1-based line (record) number in the bundle, when one record is at fault. */
  line?: number;
  /** The checkpoint's tree size, for checkpoint failures. */
  checkpoint?: number;
}

/** Bundle-level failures come before any entry; trailer cross-checks after every entry. */
const HEAD_CODES = new Set<JournalFailureCode>([
  'MALFORMED_RECORD',
  'NO_HEADER',
  'UNSUPPORTED_VERSION',
  'BAD_HEADER',
  'NO_KEY',
  'BAD_KEY',
  'KEY_NOT_PINNED',
]);

function rank(f: JournalFailure): number {
  if (f.seq !== null) return f.seq;
  return HEAD_CODES.has(f.code) ? -1 : Number.POSITIVE_INFINITY;
}

/** The earliest failure in log order; ties go to the one found first (entry checks run first). */
export function firstOf(failures: readonly JournalFailure[]): JournalFailure | undefined {
  let best: JournalFailure | undefined;
  for (const f of failures) if (!best || rank(f) < rank(best)) best = f;
  return best;
}

/** One line for people: `seq 12: LEAF_MISMATCH: …`. */
export function formatFailure(f: JournalFailure): string {
  const where = f.seq !== null ? `entry ${f.seq}` : 'bundle';
  const line = f.line !== undefined ? ` (line ${f.line})` : '';
  return `${where}${line}: ${f.code}: ${f.message}`;
}
