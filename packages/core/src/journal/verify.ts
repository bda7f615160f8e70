import { bytesEqual, toHex } from '../crypto/bytes.ts';
import { parseJson } from '../json/parse.ts';
import { MerkleLog } from '../merkle/log.ts';
import { type NoteVerifier, parseVerifierKey } from '../note/keys.ts';
import { parseSshPublicKey } from '../ssh/keys.ts';
import { allowedSignersLine } from './build.ts';
import type { JournalFailure } from './failures.ts';
import {
  JOURNAL_TYPE,
  JOURNAL_VERSION,
  type JournalCheckpoint,
  JournalCheckpointSchema,
  type JournalEntry,
  JournalEntrySchema,
  type JournalHeader,
  JournalHeaderSchema,
  type JournalKey,
  JournalKeySchema,
  type JournalTrailer,
  JournalTrailerSchema,
  type ViewerClass,
} from './schema.ts';
import { Checker, checkCheckpoints, checkEntries, type Keys, type LogCheck } from './verify-log.ts';

export interface VerifyBundleOptions {
  /**
   * The key the caller trusts: a note verifier key (`name+keyid+base64`) or an `ssh-ed25519 AAAA…`
   * line. Without it the bundle is checked against the key it carries, which proves only that the
   * bundle is self-consistent — anyone can re-sign a forged log with a key of their own.
   */
  pinnedKey?: string;
  /** Stop collecting after this many failures (default 100); firstFailure is still the earliest. */
  maxFailures?: number;
}

export interface VerifyBundleResult {
  ok: boolean;
  room: string | null;
  viewerClass: ViewerClass | null;
  /** Entry records that passed every check of their own. */
  entries: number;
  /** Checkpoints whose note, SSHSIG and root all verified. */
  checkpoints: number;
  /** Reveals checked against their commitments (including the room seed against its commitment). */
  reveals: number;
  /** Sealed payloads present and matching their commitments. */
  sealed: number;
  /** Leaves in the bundle and their root (hex). */
  treeSize: number;
  rootHash: string;
  /** True when a pinned key was given and the bundle's key is that key. */
  keyPinned: boolean;
  firstFailure?: JournalFailure;
  failures: JournalFailure[];
}

/** A record and the 1-based line it came from. */
export type NumberedRecord = { line: number; value: unknown };

/**
 * Verifies a journal bundle, given as parsed records (one per JSONL line, in order). Pure and
 * isomorphic: recomputes every leaf from the canonical public form, rebuilds the Merkle tree,
 * checks each checkpoint's signed note, its SSHSIG twin and its root, every sealed payload and
 * reveal against its commitment, the room seed, seq contiguity and the room id; then names the
 * earliest entry that fails.
 */
export function verifyBundle(
  records: readonly unknown[],
  opts: VerifyBundleOptions = {},
): VerifyBundleResult {
  return verifyNumbered(
    records.map((value, i) => ({ line: i + 1, value })),
    [],
    opts,
  );
}

/** Parses JSONL strictly (duplicate keys, unsafe integers… are errors) and verifies it. */
export function verifyBundleText(text: string, opts: VerifyBundleOptions = {}): VerifyBundleResult {
  const { records, failures } = parseJournalText(text);
  return verifyNumbered(records, failures, opts);
}

/** Splits JSONL into strictly parsed records; unparsable lines become MALFORMED_RECORD failures. */
export function parseJournalText(text: string): { records: NumberedRecord[]; failures: JournalFailure[] } {
  const records: NumberedRecord[] = [];
  const failures: JournalFailure[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    try {
      records.push({ line: i + 1, value: parseJson(raw) });
    } catch (e) {
      // The seq is a best guess from the raw text, so a damaged entry line is still named.
      const seq = /"seq":(\d+)/.exec(raw)?.[1];
      failures.push({
        seq: seq !== undefined && raw.includes('"entry":{') ? Number(seq) : null,
        code: 'MALFORMED_RECORD',
        message: `not JSON: ${(e as Error).message}`,
        line: i + 1,
      });
    }
  });
  return { records, failures };
}

function verifyNumbered(
  all: readonly NumberedRecord[],
  preFailures: readonly JournalFailure[],
  opts: VerifyBundleOptions,
): VerifyBundleResult {
  const c = new Checker(opts.maxFailures ?? 100);
  for (const f of preFailures) c.add(f);
  const result = (h: JournalHeader | null, r: Partial<VerifyBundleResult> = {}): VerifyBundleResult => {
    const firstFailure = c.first;
    return {
      ok: c.count === 0,
      room: h?.room ?? null,
      viewerClass: h?.viewer_class ?? null,
      entries: 0,
      checkpoints: 0,
      reveals: 0,
      sealed: 0,
      treeSize: 0,
      rootHash: toHex(new MerkleLog().root()),
      keyPinned: false,
      ...r,
      ...(firstFailure ? { firstFailure } : {}),
      failures: c.failures,
    };
  };

  const header = readHeader(all[0], c);
  if (!header) {
    // Not a bundle (or not one this verifier reads): say that, not what broke on line 1.
    c.first = c.failures.find((f) => f.code === 'NO_HEADER' || f.code === 'UNSUPPORTED_VERSION') ?? c.first;
    return result(null);
  }

  const keys: Array<{ line: number; key: JournalKey }> = [];
  const entries: Array<{ line: number; rec: JournalEntry }> = [];
  const checkpoints: Array<{ line: number; rec: JournalCheckpoint }> = [];
  let trailer: { line: number; rec: JournalTrailer } | null = null;
  for (const { line, value } of all.slice(1)) {
    if (trailer) {
      c.fail('MALFORMED_RECORD', null, 'record after the trailer', { line });
      continue;
    }
    const type = (value as { type?: unknown } | null)?.type;
    const schema =
      type === 'key'
        ? JournalKeySchema
        : type === 'entry'
          ? JournalEntrySchema
          : type === 'checkpoint'
            ? JournalCheckpointSchema
            : type === 'end'
              ? JournalTrailerSchema
              : null;
    const parsed = schema?.safeParse(value);
    if (!parsed?.success) {
      const issue = parsed?.error.issues[0];
      const why = issue ? `${issue.path.join('.') || '(record)'}: ${issue.message}` : 'unknown record type';
      const seq = (value as { entry?: { seq?: unknown } } | null)?.entry?.seq;
      c.fail(
        'MALFORMED_RECORD',
        type === 'entry' && Number.isSafeInteger(seq) ? (seq as number) : null,
        why,
        {
          line,
        },
      );
      continue;
    }
    const rec = parsed.data;
    if (rec.type === 'key') keys.push({ line, key: rec });
    else if (rec.type === 'entry') entries.push({ line, rec });
    else if (rec.type === 'checkpoint') checkpoints.push({ line, rec });
    else if (rec.type === 'end') trailer = { line, rec };
  }

  const k = readKeys(keys, opts.pinnedKey, c);
  const log = checkEntries(header, entries, c);
  const n = log.tree.size;
  const rootHash = toHex(log.tree.root());
  // The trailer before the checkpoints: a cut-short bundle should say so, not "checkpoint beyond log".
  checkTrailer(trailer, log, rootHash, checkpoints.length, c);
  const cps = checkCheckpoints(header, checkpoints, log, k, c, trailer === null);
  return result(header, {
    entries: log.ok,
    checkpoints: cps,
    reveals: log.reveals,
    sealed: log.sealed,
    treeSize: n,
    rootHash,
    keyPinned: k.pinned,
  });
}

function checkTrailer(
  trailer: { line: number; rec: JournalTrailer } | null,
  log: LogCheck,
  rootHash: string,
  checkpoints: number,
  c: Checker,
): void {
  const n = log.tree.size;
  if (!trailer) {
    c.fail('TRUNCATED', n, `the bundle ends after ${n} entries without its trailer (cut short?)`);
    return;
  }
  const { rec: t, line } = trailer;
  if (t.entries > n && log.lastSeq + 1 === n) {
    c.fail(
      'MISSING_ENTRY',
      n,
      `the trailer counts ${t.entries} entries; the bundle stops before entry ${n}`,
      {
        line,
      },
    );
  } else if (t.entries !== n) {
    c.fail('TRAILER_MISMATCH', null, `the trailer counts ${t.entries} entries; the bundle has ${n}`, {
      line,
    });
  } else if (t.root_hash !== rootHash) {
    c.fail('TRAILER_MISMATCH', null, 'the trailer root is not the root of the bundle entries', { line });
  }
  if (t.checkpoints !== checkpoints)
    c.fail(
      'TRAILER_MISMATCH',
      null,
      `the trailer counts ${t.checkpoints} checkpoints; the bundle has ${checkpoints}`,
      {
        line,
      },
    );
}

function readHeader(first: NumberedRecord | undefined, c: Checker): JournalHeader | null {
  const v = first?.value as { type?: unknown; version?: unknown } | undefined;
  if (v?.type !== JOURNAL_TYPE) {
    c.fail('NO_HEADER', null, `the first record must be a ${JOURNAL_TYPE} header`, {
      line: first?.line ?? 1,
    });
    return null;
  }
  if (v.version !== JOURNAL_VERSION) {
    c.fail(
      'UNSUPPORTED_VERSION',
      null,
      `bundle version ${String(v.version)}; this verifier reads ${JOURNAL_VERSION}`,
    );
    return null;
  }
  const parsed = JournalHeaderSchema.safeParse(v);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    c.fail('NO_HEADER', null, `bad header: ${i?.path.join('.')}: ${i?.message}`, { line: first?.line ?? 1 });
    return null;
  }
  const h = parsed.data;
  if (!h.origin.endsWith(`/room/${h.room}`))
    c.fail('BAD_HEADER', null, `origin ${h.origin} is not the log of room ${h.room}`, {
      line: first?.line ?? 1,
    });
  return h;
}

function readKeys(
  keys: ReadonlyArray<{ line: number; key: JournalKey }>,
  pinnedKey: string | undefined,
  c: Checker,
): Keys {
  const out: Keys = { verifiers: [], sshKey: null, pinned: false };
  const only = keys.length === 1 ? keys[0] : undefined;
  if (!only) c.fail('NO_KEY', null, `the bundle must carry one server key record, it has ${keys.length}`);
  let bundled: { verifier: NoteVerifier & { publicKey: Uint8Array }; ssh: Uint8Array } | null = null;
  if (only) {
    const { key, line } = only;
    try {
      const verifier = parseVerifierKey(key.note_vkey);
      const ssh = parseSshPublicKey(key.ssh_public_key).publicKey;
      if (!bytesEqual(ssh, verifier.publicKey)) throw new Error('the ssh key and the note key differ');
      if (key.allowed_signers !== allowedSignersLine(key.identity, key.ssh_public_key, key.namespace))
        throw new Error('allowed_signers is not the line for this identity and key');
      bundled = { verifier, ssh };
    } catch (e) {
      c.fail('BAD_KEY', null, (e as Error).message, { line });
    }
  }
  if (pinnedKey === undefined) {
    if (bundled) Object.assign(out, { verifiers: [bundled.verifier], sshKey: bundled.ssh });
    return out;
  }
  // A pinned key is the only trust: the bundle's own key is merely compared with it.
  let pin: { verifier: NoteVerifier | null; publicKey: Uint8Array };
  try {
    if (/^ssh-ed25519\s/.test(pinnedKey.trim())) {
      pin = { verifier: null, publicKey: parseSshPublicKey(pinnedKey.trim()).publicKey };
    } else {
      const v = parseVerifierKey(pinnedKey.trim());
      pin = { verifier: v, publicKey: v.publicKey };
    }
  } catch (e) {
    c.fail(
      'KEY_NOT_PINNED',
      null,
      `the pinned key is not a note verifier key or ssh-ed25519 line: ${(e as Error).message}`,
    );
    return out;
  }
  out.sshKey = pin.publicKey;
  const same =
    bundled !== null &&
    bytesEqual(bundled.verifier.publicKey, pin.publicKey) &&
    (pin.verifier === null || pin.verifier.name === bundled.verifier.name);
  if (!same) c.fail('KEY_NOT_PINNED', null, "the bundle's server key is not the pinned key");
  out.pinned = same;
  const v = pin.verifier ?? (same ? bundled?.verifier : undefined);
  if (v) out.verifiers = [v];
  return out;
}
