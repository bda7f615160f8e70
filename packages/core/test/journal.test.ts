import { describe, expect, it } from 'vitest';
import {
  type JournalCheckpoint,
  type JournalEntry,
  type JournalFailureCode,
  type JournalRecord,
  redactJournal,
  type VerifyBundleOptions,
  verifyBundle,
  verifyBundleText,
  viewerClassCovers,
} from '../src/journal/index.ts';
import { canonicalize } from '../src/json/index.ts';
import { entryLeafHashHex } from '../src/log/index.ts';
import { ed25519Signer, signCheckpoint } from '../src/note/index.ts';
import { signSshsig } from '../src/ssh/index.ts';
import {
  bundle,
  checkpointFor,
  clone,
  KEY,
  ROGUE,
  ROOM,
  roomEntries,
  sshLineOf,
  vkeyOf,
} from './journal-fixtures.ts';

const entryAt = (recs: JournalRecord[], seq: number) =>
  recs.find((r): r is JournalEntry => r.type === 'entry' && r.entry.seq === seq)!;
const checkpointAt = (recs: JournalRecord[], size: number) =>
  recs.find((r): r is JournalCheckpoint => r.type === 'checkpoint' && r.size === size)!;
/** What a careful forger does after editing an entry: recompute its leaf hash. */
const rehash = (e: JournalEntry) => {
  e.leaf_hash = entryLeafHashHex(e.entry);
};
const toText = (recs: readonly unknown[]) => recs.map((r) => `${canonicalize(r)}\n`).join('');

function expectFirst(
  recs: unknown[],
  code: JournalFailureCode,
  seq: number | null,
  opts?: VerifyBundleOptions,
) {
  const r = verifyBundle(recs, opts);
  expect(r.ok).toBe(false);
  expect(r.firstFailure, JSON.stringify(r.failures)).toMatchObject({ code, seq });
  return r;
}

describe('verifyBundle: a good bundle', () => {
  it('verifies every entry, checkpoint and reveal of a public bundle', () => {
    const r = verifyBundle(bundle());
    expect(r.failures).toEqual([]);
    expect(r).toMatchObject({
      ok: true,
      room: ROOM,
      viewerClass: 'public',
      entries: 8,
      checkpoints: 3,
      // two bids revealed by the tick, the admin join revealed at close, and the room seed
      reveals: 4,
      sealed: 0,
      treeSize: 8,
      keyPinned: false,
    });
    expect(r.firstFailure).toBeUndefined();
  });

  it('checks the sealed payloads each viewer class may see', () => {
    expect(verifyBundle(bundle({ viewer: 'admin' }))).toMatchObject({ ok: true, sealed: 3 });
    expect(verifyBundle(bundle({ viewer: 'seat:p1' }))).toMatchObject({ ok: true, sealed: 1 });
    const pub = bundle().filter((r) => r.type === 'entry' && r.sealed);
    expect(pub).toEqual([]);
  });

  it('round-trips as JSONL text, parsed strictly', () => {
    expect(verifyBundleText(toText(bundle())).ok).toBe(true);
    // A duplicate key is refused by the strict parser even though JSON.parse would accept it.
    const lines = toText(bundle()).split('\n');
    lines[3] = lines[3]!.replace('{', '{"type":"entry",');
    const r = verifyBundleText(lines.join('\n'));
    expect(r.firstFailure).toMatchObject({ code: 'MALFORMED_RECORD', seq: 1, line: 4 });
  });

  it('accepts a pinned key given as a note verifier key or an ssh-ed25519 line', () => {
    expect(verifyBundle(bundle(), { pinnedKey: vkeyOf(KEY) })).toMatchObject({ ok: true, keyPinned: true });
    expect(verifyBundle(bundle(), { pinnedKey: sshLineOf(KEY) })).toMatchObject({
      ok: true,
      keyPinned: true,
    });
  });

  it('downgrades an admin bundle to public without breaking it', () => {
    const admin = bundle({ viewer: 'admin' });
    const pub = redactJournal(admin, 'public');
    expect(pub.filter((r) => r.type === 'entry' && r.sealed)).toEqual([]);
    expect(verifyBundle(pub)).toMatchObject({ ok: true, viewerClass: 'public', sealed: 0 });
    expect(pub).toEqual(bundle());
    expect(verifyBundle(redactJournal(admin, 'seat:p1'))).toMatchObject({ ok: true, sealed: 1 });
  });

  it('orders viewer classes: admin ⊇ seat ⊇ public', () => {
    expect(viewerClassCovers('admin', 'public')).toBe(true);
    expect(viewerClassCovers('admin', 'seat:p1')).toBe(true);
    expect(viewerClassCovers('seat:p1', 'public')).toBe(true);
    expect(viewerClassCovers('seat:p1', 'seat:p1')).toBe(true);
    expect(viewerClassCovers('seat:p1', 'seat:p2')).toBe(false);
    expect(viewerClassCovers('public', 'seat:p1')).toBe(false);
    expect(viewerClassCovers('seat:p1', 'admin')).toBe(false);
  });
});

describe('verifyBundle: tampering names the first failing entry', () => {
  it('a flipped byte in a public payload: LEAF_MISMATCH at that entry', () => {
    const b = clone(bundle());
    (entryAt(b, 2).entry.payload as { text: string }).text = 'hellp';
    expectFirst(b, 'LEAF_MISMATCH', 2);
  });

  it('the same edit with the leaf hash recomputed: the checkpoint root fails from the last good checkpoint', () => {
    const b = clone(bundle());
    (entryAt(b, 2).entry.payload as { text: string }).text = 'hellp';
    rehash(entryAt(b, 2));
    const r = expectFirst(b, 'CHECKPOINT_ROOT', 1);
    expect(r.firstFailure?.checkpoint).toBe(4);
    expect(r.failures.map((f) => f.code)).toContain('TRAILER_MISMATCH');
  });

  it('a flipped sealed payload: SEALED_MISMATCH at that entry', () => {
    const b = clone(bundle({ viewer: 'admin' }));
    const e = entryAt(b, 3);
    e.sealed = { ...e.sealed!, payload: { type: 'bid', amount: 151 } };
    expectFirst(b, 'SEALED_MISMATCH', 3);
  });

  it('a dropped entry: MISSING_ENTRY naming it', () => {
    const b = clone(bundle()).filter((r) => !(r.type === 'entry' && r.entry.seq === 5));
    expectFirst(b, 'MISSING_ENTRY', 5);
  });

  it('the last entry dropped: MISSING_ENTRY (from the trailer count)', () => {
    const b = clone(bundle()).filter((r) => !(r.type === 'entry' && r.entry.seq === 7));
    expectFirst(b, 'MISSING_ENTRY', 7);
  });

  it('two entries swapped: OUT_OF_ORDER at the first misplaced seq', () => {
    const b = clone(bundle());
    const i = b.indexOf(entryAt(b, 3));
    [b[i], b[i + 1]] = [b[i + 1]!, b[i]!];
    expectFirst(b, 'OUT_OF_ORDER', 3);
  });

  it('an entry twice: DUPLICATE_ENTRY', () => {
    const b = clone(bundle());
    const i = b.indexOf(entryAt(b, 6));
    b.splice(i + 1, 0, clone(entryAt(b, 6)));
    expectFirst(b, 'DUPLICATE_ENTRY', 6);
  });

  it('a checkpoint root changed in the note: CHECKPOINT_SIGNATURE on that checkpoint', () => {
    const b = clone(bundle());
    const cp = checkpointAt(b, 4);
    const lines = cp.note.split('\n');
    lines[2] = Buffer.alloc(32, 7).toString('base64');
    cp.note = lines.join('\n');
    const r = expectFirst(b, 'CHECKPOINT_SIGNATURE', 3);
    expect(r.firstFailure?.checkpoint).toBe(4);
  });

  it('a checkpoint root_hash field changed: CHECKPOINT_FIELDS', () => {
    const b = clone(bundle());
    checkpointAt(b, 8).root_hash = '00'.repeat(32);
    expectFirst(b, 'CHECKPOINT_FIELDS', 7);
  });

  it('a forged reveal (leaf recomputed): REVEAL_MISMATCH at the revealing entry', () => {
    const b = clone(bundle());
    const tick = entryAt(b, 5);
    tick.entry.reveals![0]!.payload = { type: 'bid', amount: 1000 };
    rehash(tick);
    const r = expectFirst(b, 'REVEAL_MISMATCH', 5);
    // and the signed root no longer matches either; its blame points at the same entry
    expect(r.failures.find((f) => f.code === 'CHECKPOINT_ROOT')?.seq).toBe(5);
  });

  it('a reveal of a later or public entry is refused', () => {
    const b = clone(bundle());
    const tick = entryAt(b, 5);
    tick.entry.reveals![0]!.seq = 2;
    rehash(tick);
    expectFirst(b, 'REVEAL_MISMATCH', 5);
  });

  it('a different room seed at close: SEED_MISMATCH', () => {
    const b = clone(bundle());
    const close = entryAt(b, 7);
    (close.entry.payload as { seed: string }).seed = 'cd'.repeat(32);
    rehash(close);
    expectFirst(b, 'SEED_MISMATCH', 7);
  });

  it('an entry of another room: WRONG_ROOM', () => {
    const b = clone(bundle());
    entryAt(b, 6).entry.room = 'room_other';
    rehash(entryAt(b, 6));
    expectFirst(b, 'WRONG_ROOM', 6);
  });

  it('a genesis for another protocol than the header says: BAD_GENESIS', () => {
    const b = clone(bundle());
    (b[0] as { protocol: string }).protocol = 'poker';
    expectFirst(b, 'BAD_GENESIS', 0);
  });

  it('the key swapped: every checkpoint fails, the first at entry 0', () => {
    const b = clone(bundle());
    const i = b.findIndex((r) => r.type === 'key');
    b[i] = bundle({ key: ROGUE })[i]!;
    const r = expectFirst(b, 'CHECKPOINT_SIGNATURE', 0);
    expect(r.failures.filter((f) => f.code === 'SSHSIG_INVALID')).toHaveLength(3);
  });

  it('a key record whose note key and ssh key differ: BAD_KEY', () => {
    const b = clone(bundle());
    const key = b.find((r) => r.type === 'key')!;
    if (key.type === 'key') key.ssh_public_key = sshLineOf(ROGUE);
    expectFirst(b, 'BAD_KEY', null);
  });

  it('a forged log re-signed with its own key is self-consistent; only a pinned key exposes it', () => {
    const entries = roomEntries();
    entries[6] = { ...entries[6]!, payload: { type: 'note', text: 'I resign' } };
    const forged = bundle({ key: ROGUE, entries });
    expect(verifyBundle(forged).ok).toBe(true);
    expectFirst(forged, 'KEY_NOT_PINNED', null, { pinnedKey: vkeyOf(KEY) });
    const r = verifyBundle(forged, { pinnedKey: sshLineOf(KEY) });
    expect(r.firstFailure?.code).toBe('KEY_NOT_PINNED');
    expect(r.failures.some((f) => f.code === 'CHECKPOINT_SIGNATURE')).toBe(true);
  });

  it('a checkpoint signed for another origin: CHECKPOINT_ORIGIN', () => {
    const b = clone(bundle());
    const cp = checkpointAt(b, 4);
    const signer = ed25519Signer(KEY.name, KEY.seed);
    const root = Buffer.from(cp.root_hash, 'hex');
    cp.note = signCheckpoint({ origin: 'db8.test/room/room_other', size: 4, rootHash: root }, [signer]);
    expectFirst(b, 'CHECKPOINT_ORIGIN', 3);
  });

  it('SSHSIG form missing, or made for another namespace', () => {
    const b = clone(bundle());
    delete checkpointAt(b, 4).sshsig;
    expectFirst(b, 'SSHSIG_MISSING', 3);
    const c = clone(bundle());
    const cp = checkpointAt(c, 8);
    cp.sshsig = signSshsig({ seed: KEY.seed, namespace: 'db8', message: new TextEncoder().encode(cp.text) });
    const r = expectFirst(c, 'SSHSIG_INVALID', 7);
    expect(r.firstFailure?.message).toContain('NAMESPACE_MISMATCH');
  });

  it('a checkpoint beyond the entries, and entries beyond the last checkpoint', () => {
    const b = clone(bundle());
    const pubs = b.flatMap((r) => (r.type === 'entry' ? [r.entry] : []));
    const extra = checkpointFor([...pubs, { ...pubs[7]!, seq: 8 }], 9);
    b.splice(b.length - 1, 0, extra);
    expect(verifyBundle(b).failures.map((f) => f.code)).toContain('CHECKPOINT_BEYOND_LOG');
    expectFirst(bundle({ sizes: [1, 4] }), 'UNSIGNED_TAIL', 4);
    expectFirst(bundle({ sizes: [] }), 'UNSIGNED_TAIL', 0);
  });

  it('a bundle cut short: TRUNCATED', () => {
    expectFirst(clone(bundle()).slice(0, -1), 'TRUNCATED', 8);
    const r = verifyBundleText(toText(bundle()).split('\n').slice(0, 7).join('\n'));
    expect(r.firstFailure?.code).toBe('TRUNCATED');
  });

  it('a damaged line is named by its seq and line number', () => {
    const lines = toText(bundle()).split('\n');
    lines[8] = lines[8]!.slice(0, -1); // entry 6 (after header and key) loses its last brace
    expect(verifyBundleText(lines.join('\n')).firstFailure).toMatchObject({
      code: 'MALFORMED_RECORD',
      seq: 6,
      line: 9,
    });
  });

  it('no header, an unknown version, an unknown record', () => {
    expectFirst(bundle().slice(1), 'NO_HEADER', null);
    expect(verifyBundleText('hello\n').firstFailure?.code).toBe('NO_HEADER');
    const b = clone(bundle());
    (b[0] as { version: number }).version = 2;
    expectFirst(b, 'UNSUPPORTED_VERSION', null);
    const c: unknown[] = clone(bundle());
    c.splice(2, 0, { type: 'gossip' });
    expectFirst(c, 'MALFORMED_RECORD', null);
  });

  it('keeps the earliest failure even past the failure cap', () => {
    const b = clone(bundle());
    (entryAt(b, 7).entry.payload as { seed: string }).seed = 'ee'.repeat(32);
    rehash(entryAt(b, 7));
    delete checkpointAt(b, 1).sshsig; // found after the entries, but names entry 0
    const r = verifyBundle(b, { maxFailures: 1 });
    expect(r.failures).toMatchObject([{ code: 'SEED_MISMATCH', seq: 7 }]);
    expect(r.firstFailure).toMatchObject({ code: 'SSHSIG_MISSING', seq: 0 });
  });
});
