import { fromHex, toHex, utf8Encode } from '../crypto/bytes.ts';
import { JournalWriter, journalCheckpoint, journalKey } from '../journal/build.ts';
import { CHECKPOINT_SSHSIG_NAMESPACE, JournalEntrySchema, type JournalRecord } from '../journal/schema.ts';
import type { StoredEntry } from '../log/entry.ts';
import { MerkleLog } from '../merkle/log.ts';
import { roomOrigin, signCheckpoint } from '../note/checkpoint.ts';
import { ed25519Signer } from '../note/keys.ts';
import type { Viewer } from '../protocol/contract.ts';
import { formatSshPublicKey } from '../ssh/keys.ts';
import { signSshsig } from '../ssh/sshsig.ts';
import type { LocalRoom } from './local.ts';

export interface LocalJournalOptions {
  /** The Ed25519 seed (32 bytes) that signs the checkpoints: a local run's own key. */
  key: Uint8Array;
  /** Note key name and origin host (default `db8-local`). */
  host?: string;
  /** ISO time the bundle is written (core reads no clock). */
  exportedAt: string;
  /** Whose bundle this is (default admin: every sealed payload). */
  viewer?: Viewer;
  title?: string | null;
}

/**
 * A LocalRoom's log as a journal bundle — the same records a server export writes (header, key,
 * entries, checkpoints signed as C2SP notes and SSHSIG, trailer) — so `db8 verify` checks a local
 * run exactly as it checks a server room. Checkpoints: one after each milestone entry (as the
 * server signs them) and one of the head.
 */
export function localJournal(room: LocalRoom, opts: LocalJournalOptions): JournalRecord[] {
  const host = opts.host ?? 'db8-local';
  const origin = roomOrigin(host, room.id);
  const signer = ed25519Signer(host, opts.key);
  const sshLine = formatSshPublicKey(signer.verifier.publicKey, `${host}-local`);
  const viewer = opts.viewer ?? { kind: 'admin' };
  const w = new JournalWriter({
    room: room.id,
    protocol: room.protocol.name,
    protocol_version: room.protocol.version,
    origin,
    title: opts.title ?? null,
    exported_at: opts.exportedAt,
    viewer_class:
      viewer.kind === 'observer' ? 'public' : viewer.kind === 'admin' ? 'admin' : `seat:${viewer.seat}`,
  });
  const out: JournalRecord[] = [w.start()];
  out.push(journalKey({ noteVkey: signer.verifier.vkey, sshPublicKey: sshLine, identity: `local@${host}` }));
  for (const e of room.entries) out.push(w.entry(e));
  const tree = MerkleLog.fromLeafHashes(room.leaves.map(fromHex));
  const sizes = new Map<number, string | null>(room.milestones.map((m) => [m.size, m.milestone]));
  if (!sizes.has(tree.size)) sizes.set(tree.size, null);
  for (const [size, milestone] of [...sizes].sort((a, b) => a[0] - b[0])) {
    const rootHash = tree.root(size);
    const note = signCheckpoint({ origin, size, rootHash }, [signer]);
    out.push(
      w.checkpoint(
        journalCheckpoint({ size, rootHash: toHex(rootHash), milestone, note }, (text) =>
          signSshsig({ seed: opts.key, namespace: CHECKPOINT_SSHSIG_NAMESPACE, message: utf8Encode(text) }),
        ),
      ),
    );
  }
  out.push(w.end());
  return out;
}

/**
 * A bundle's entries as stored: each public form with the sealed payload the bundle carries for it.
 * Records that are not well-formed entries are skipped (verifyBundle reports them).
 */
export function journalEntries(records: readonly unknown[]): StoredEntry[] {
  const out: StoredEntry[] = [];
  for (const r of records) {
    const rec = JournalEntrySchema.safeParse(r);
    if (rec.success)
      out.push(rec.data.sealed ? { ...rec.data.entry, sealed: rec.data.sealed } : rec.data.entry);
  }
  return out;
}

/** A bundle as JSONL text (one canonical-enough JSON record per line, as the server streams it). */
export function journalText(records: readonly JournalRecord[]): string {
  return records.map((r) => `${JSON.stringify(r)}\n`).join('');
}
