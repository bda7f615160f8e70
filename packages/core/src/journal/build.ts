import { fromHex, toBase64, toHex } from '../crypto/bytes.ts';
import { entryLeafHashHex, publicForm, redactEntry, type StoredEntry } from '../log/entry.ts';
import { canSee } from '../log/visibility.ts';
import { rootOf } from '../merkle/root.ts';
import type { Viewer } from '../protocol/contract.ts';
import { splitSshKeyLine } from '../ssh/keys.ts';
import {
  CHECKPOINT_SSHSIG_NAMESPACE,
  JOURNAL_TYPE,
  JOURNAL_VERSION,
  type JournalCheckpoint,
  type JournalEntry,
  type JournalHeader,
  type JournalKey,
  type JournalRecord,
  type JournalTrailer,
  type ViewerClass,
  viewerOfClass,
} from './schema.ts';

// Pure record builders: the server's exporter streams these, tests build bundles with them, and a
// client can downgrade a bundle (admin → public) without touching a leaf.

/** One allowed_signers line limited to checkpoint signatures (the key's comment is dropped). */
export function allowedSignersLine(
  identity: string,
  sshPublicKey: string,
  namespace: string = CHECKPOINT_SSHSIG_NAMESPACE,
): string {
  const { type, blob } = splitSshKeyLine(sshPublicKey);
  return `${identity} namespaces="${namespace}" ${type} ${toBase64(blob)}`;
}

/** The note's signed text: everything up to and including the newline before the blank line. */
export function noteText(note: string): string {
  const split = note.lastIndexOf('\n\n');
  return split < 0 ? note : note.slice(0, split + 1);
}

export function journalKey(input: { noteVkey: string; sshPublicKey: string; identity: string }): JournalKey {
  return {
    type: 'key',
    role: 'server',
    note_vkey: input.noteVkey,
    ssh_public_key: input.sshPublicKey,
    identity: input.identity,
    namespace: CHECKPOINT_SSHSIG_NAMESPACE,
    allowed_signers: allowedSignersLine(input.identity, input.sshPublicKey),
  };
}

/** A stored entry as `viewer` may read it: public form, plus the sealed payload if visible. */
export function journalEntry(stored: StoredEntry, viewer: Viewer): JournalEntry {
  const seen = redactEntry(stored, viewer);
  const entry = publicForm(seen);
  return {
    type: 'entry',
    leaf_hash: entryLeafHashHex(entry),
    entry,
    ...(seen.sealed ? { sealed: seen.sealed } : {}),
  };
}

/**
 * A checkpoint record. `sshsig` signs the note's text; the caller passes a signer only for notes
 * it has verified, so the SSHSIG form never vouches for text the note key did not sign.
 */
export function journalCheckpoint(
  cp: { size: number; rootHash: string; milestone?: string | null; note: string },
  sshsig?: (text: string) => string,
): JournalCheckpoint {
  const text = noteText(cp.note);
  return {
    type: 'checkpoint',
    size: cp.size,
    root_hash: cp.rootHash,
    milestone: cp.milestone ?? null,
    note: cp.note,
    text,
    ...(sshsig ? { sshsig: sshsig(text) } : {}),
  };
}

/** Streams a bundle: header and key first, then entries, checkpoints and the trailer. */
export class JournalWriter {
  private readonly leaves: Uint8Array[] = [];
  private checkpointCount = 0;
  readonly viewer: Viewer;

  constructor(readonly header: Omit<JournalHeader, 'type' | 'version'>) {
    this.viewer = viewerOfClass(header.viewer_class);
  }

  start(): JournalHeader {
    return { type: JOURNAL_TYPE, version: JOURNAL_VERSION, ...this.header };
  }

  entry(stored: StoredEntry): JournalEntry {
    const rec = journalEntry(stored, this.viewer);
    this.leaves.push(fromHex(rec.leaf_hash));
    return rec;
  }

  checkpoint(rec: JournalCheckpoint): JournalCheckpoint {
    this.checkpointCount++;
    return rec;
  }

  end(): JournalTrailer {
    return {
      type: 'end',
      entries: this.leaves.length,
      checkpoints: this.checkpointCount,
      root_hash: toHex(rootOf(this.leaves)),
    };
  }
}

const RANK: Record<string, number> = { public: 0, admin: 2 };
/** Whether a bundle for `have` holds everything a bundle for `want` may (admin ⊇ seat ⊇ public). */
export function viewerClassCovers(have: ViewerClass, want: ViewerClass): boolean {
  if (have === want) return true;
  return (RANK[have] ?? 1) > (RANK[want] ?? 1) && (want === 'public' || have === 'admin');
}

/**
 * The same bundle as `cls` may see it: drops sealed payloads the class may not read and relabels
 * the header. Leaves, checkpoints and the trailer are unchanged (sealed payloads are never hashed).
 */
export function redactJournal(records: readonly JournalRecord[], cls: ViewerClass): JournalRecord[] {
  const viewer = viewerOfClass(cls);
  return records.map((r) => {
    if (r.type === 'db8-journal') return { ...r, viewer_class: cls };
    if (r.type !== 'entry' || !r.sealed || canSee(r.entry.vis, viewer)) return r;
    const { sealed: _dropped, ...rest } = r;
    return rest;
  });
}
