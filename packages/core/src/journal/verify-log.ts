import { fromHex, toHex, utf8Encode } from '../crypto/bytes.ts';
import { sha256Hex } from '../crypto/hash.ts';
import { commitmentOf, entryLeafHashHex, type PublicEntry, verifyReveal } from '../log/entry.ts';
import { MerkleLog } from '../merkle/log.ts';
import { verifyCheckpoint } from '../note/checkpoint.ts';
import { NoteError } from '../note/errors.ts';
import type { NoteVerifier } from '../note/keys.ts';
import { verifySshsig } from '../ssh/sshsig.ts';
import { firstOf, type JournalFailure, type JournalFailureCode } from './failures.ts';
import {
  CHECKPOINT_SSHSIG_NAMESPACE,
  type JournalCheckpoint,
  type JournalEntry,
  type JournalHeader,
} from './schema.ts';

/**
 * The log half of `db8 verify`: each entry's own checks (leaf hash, seal commitments and
 * reveals) and each checkpoint's signature and tree head against the entries. Split from
 * verify.ts, which reads the bundle and its keys and calls these.
 */

export type Keys = { verifiers: NoteVerifier[]; sshKey: Uint8Array | null; pinned: boolean };

/** Collects failures up to a cap, but always knows the earliest and the total. */
export class Checker {
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

export type LogCheck = {
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

export function checkEntries(
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

export function checkCheckpoints(
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
