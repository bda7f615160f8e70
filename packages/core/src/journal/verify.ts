import { bytesEqual, fromHex, toHex, utf8Encode } from '../crypto/bytes.ts';
import { sha256Hex } from '../crypto/hash.ts';
import { parseJson } from '../json/parse.ts';
import { commitmentOf, entryLeafHashHex, type PublicEntry, verifyReveal } from '../log/entry.ts';
import { MerkleLog } from '../merkle/log.ts';
import { verifyCheckpoint } from '../note/checkpoint.ts';
import { NoteError } from '../note/errors.ts';
import { type NoteVerifier, parseVerifierKey } from '../note/keys.ts';
import { parseSshPublicKey } from '../ssh/keys.ts';
import { verifySshsig } from '../ssh/sshsig.ts';
import { allowedSignersLine } from './build.ts';
import { firstOf, type JournalFailure, type JournalFailureCode } from './failures.ts';
import {
  CHECKPOINT_SSHSIG_NAMESPACE,
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

type Keys = { verifiers: NoteVerifier[]; sshKey: Uint8Array | null; pinned: boolean };

/** Collects failures up to a cap, but always knows the earliest and the total. */
class Checker {
  readonly failures: JournalFailure[] = [];
  first: JournalFailure | undefined;
  count = 0;
  constructor(private readonly max: number) {}
  add(f: JournalFailure): void {
    this.count++;
    this.first = firstOf(this.first ? [this.first, f] : [f]);
    if (this.failures.length < this.max) this.failures.push(f);
  }
  fail(code: JournalFailureCode, seq: number | null, message: string, extra: Partial<JournalFailure> = {}) {
    this.add({ seq, code, message, ...extra });
  }
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

type LogCheck = {
  tree: MerkleLog;
  /** seq → public entry, first occurrence. */
  bySeq: Map<number, PublicEntry>;
  /** Seqs that failed a check of their own, ascending. */
  bad: number[];
  lastSeq: number;
  ok: number;
  reveals: number;
  sealed: number;
};

function checkEntries(
  h: JournalHeader,
  list: ReadonlyArray<{ line: number; rec: JournalEntry }>,
  c: Checker,
): LogCheck {
  const leaves: Uint8Array[] = [];
  const bySeq = new Map<number, PublicEntry>();
  const later = new Set(list.map((x) => x.rec.entry.seq));
  const bad = new Set<number>();
  const out = { ok: 0, reveals: 0, sealed: 0, lastSeq: -1 };
  let expected = 0;
  let seedCommit: string | undefined;
  list.forEach(({ line, rec }, i) => {
    const e = rec.entry;
    const seq = e.seq;
    let failed = false;
    const fail = (code: JournalFailureCode, s: number, message: string) => {
      c.fail(code, s, message, { line });
      bad.add(s);
      failed = true;
    };
    later.delete(seq);
    if (seq !== expected) {
      if (bySeq.has(seq)) fail('DUPLICATE_ENTRY', seq, `entry ${seq} appears twice`);
      else if (seq < expected) fail('OUT_OF_ORDER', seq, `entry ${seq} comes after a later entry`);
      else if (later.has(expected) || bySeq.has(expected))
        fail('OUT_OF_ORDER', expected, `entry ${expected} is not in its place (entry ${seq} is)`);
      else fail('MISSING_ENTRY', expected, `entry ${expected} is missing (the next one is ${seq})`);
    }
    expected = Math.max(expected, seq + 1);
    if (e.room !== h.room) fail('WRONG_ROOM', seq, `entry is for room ${e.room}, the bundle is ${h.room}`);
    const payload = (e.payload ?? {}) as Record<string, unknown>;
    if (i === 0 || e.kind === 'genesis') {
      if (i !== 0 || e.kind !== 'genesis')
        fail('BAD_GENESIS', seq, 'the genesis entry must be entry 0, and only it');
      else if (payload.protocol !== h.protocol || payload.version !== h.protocol_version)
        fail(
          'BAD_GENESIS',
          seq,
          `genesis is for ${String(payload.protocol)} v${String(payload.version)}, the header says ${h.protocol} v${h.protocol_version}`,
        );
      else if (typeof payload.seedCommit === 'string') seedCommit = payload.seedCommit;
    }
    if (rec.sealed) {
      if (e.commit === undefined) fail('SEALED_MISMATCH', seq, 'a public entry carries a sealed payload');
      else if (commitmentOf(rec.sealed) !== e.commit)
        fail('SEALED_MISMATCH', seq, 'the sealed payload does not match the entry commitment');
      else out.sealed++;
    }
    for (const rv of e.reveals ?? []) {
      const committed = rv.seq < seq ? bySeq.get(rv.seq) : undefined;
      if (!committed || !verifyReveal(committed, rv))
        fail('REVEAL_MISMATCH', seq, `the reveal of entry ${rv.seq} does not match its commitment`);
      else out.reveals++;
    }
    if (e.kind === 'close' && seedCommit !== undefined) {
      const seed = payload.seed;
      if (typeof seed !== 'string' || !/^[0-9a-f]{64}$/.test(seed) || sha256Hex(fromHex(seed)) !== seedCommit)
        fail('SEED_MISMATCH', seq, 'the revealed room seed does not match the genesis seed commitment');
      else out.reveals++;
    }
    const leaf = entryLeafHashHex(e);
    if (leaf !== rec.leaf_hash)
      fail('LEAF_MISMATCH', seq, 'the entry does not hash to its recorded leaf hash');
    leaves.push(fromHex(leaf));
    if (!bySeq.has(seq)) bySeq.set(seq, e);
    if (!failed) out.ok++;
    out.lastSeq = Math.max(out.lastSeq, seq);
  });
  return { tree: MerkleLog.fromLeafHashes(leaves), bySeq, bad: [...bad].sort((a, b) => a - b), ...out };
}

function checkCheckpoints(
  h: JournalHeader,
  list: ReadonlyArray<{ line: number; rec: JournalCheckpoint }>,
  log: LogCheck,
  keys: Keys,
  c: Checker,
  truncated: boolean,
): number {
  const n = log.tree.size;
  let vouched = 0; // entries below this are covered by a checkpoint that fully verified
  let signed = 0; // largest size covered by a checkpoint whose signature verified
  let ok = 0;
  const sorted = [...list].sort((a, b) => a.rec.size - b.rec.size);
  for (const { line, rec } of sorted) {
    const size = rec.size;
    const head = Math.max(0, size - 1);
    let failed = false;
    const fail = (code: JournalFailureCode, seq: number, message: string) => {
      c.fail(code, seq, `checkpoint ${size}: ${message}`, { line, checkpoint: size });
      failed = true;
    };
    let signedRoot: string | null = null;
    try {
      const { checkpoint, note } = verifyCheckpoint(rec.note, keys.verifiers, { origin: h.origin });
      signedRoot = toHex(checkpoint.rootHash);
      if (checkpoint.size !== size || signedRoot !== rec.root_hash || note.text !== rec.text)
        fail('CHECKPOINT_FIELDS', head, 'size, root_hash or text differ from the signed note');
    } catch (e) {
      const code = e instanceof NoteError ? e.code : 'MALFORMED_NOTE';
      if (code === 'WRONG_ORIGIN') fail('CHECKPOINT_ORIGIN', head, (e as Error).message);
      else if (code === 'MALFORMED_CHECKPOINT' || code === 'MALFORMED_NOTE')
        fail('CHECKPOINT_MALFORMED', head, (e as Error).message);
      else fail('CHECKPOINT_SIGNATURE', head, `the signed note does not verify: ${(e as Error).message}`);
    }
    if (rec.sshsig === undefined) fail('SSHSIG_MISSING', head, 'no SSHSIG form');
    else if (keys.sshKey) {
      const r = verifySshsig({
        armored: rec.sshsig,
        message: utf8Encode(rec.text),
        namespace: CHECKPOINT_SSHSIG_NAMESPACE,
        trust: { publicKeys: [keys.sshKey] },
      });
      if (!r.ok) fail('SSHSIG_INVALID', head, `${r.code}: ${r.message}`);
    } else fail('SSHSIG_INVALID', head, 'no usable key to check the SSHSIG form');
    if (signedRoot !== null) signed = Math.max(signed, size);
    if (size > n) {
      fail('CHECKPOINT_BEYOND_LOG', n, `covers ${size} entries, the bundle has ${n}`);
    } else if (signedRoot !== null) {
      if (toHex(log.tree.root(size)) !== signedRoot) {
        // Blame the earliest entry since the last good checkpoint that failed on its own, if any;
        // else all we know is that something in vouched..size-1 changed.
        const culprit = log.bad.find((s) => s >= vouched && s < size) ?? vouched;
        fail(
          'CHECKPOINT_ROOT',
          culprit,
          `the signed root is not the root of the bundle's entries 0..${size - 1} (entries ${vouched}..${size - 1} differ from what was signed)`,
        );
      } else if (!failed) {
        vouched = Math.max(vouched, size);
      }
    }
    if (!failed) ok++;
  }
  // A cut-short bundle already fails as TRUNCATED; its missing checkpoints are not news.
  if (signed < n && !truncated)
    c.fail('UNSIGNED_TAIL', signed, `entries ${signed}..${n - 1} are not covered by any signed checkpoint`);
  return ok;
}
