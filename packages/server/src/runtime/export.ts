import {
  CHECKPOINT_SSHSIG_NAMESPACE,
  JournalWriter,
  journalCheckpoint,
  journalKey,
  openNote,
  roomOrigin,
  utf8Encode,
  type Viewer,
  viewerClassOf,
} from '@db8/core';
import type { Runtime } from './runtime.ts';

const PAGE = 1000;

/** allowed_signers identity of the server key: `server@<origin>` (plain characters only). */
export function serverIdentity(origin: string): string {
  const id = `server@${origin}`;
  return /^[^\s,"*?!]+$/.test(id) ? id : 'db8-server';
}

/**
 * The journal bundle (see @db8/core journal/schema.ts) as records: header, the server key, every
 * entry as the viewer may see it, every checkpoint (signed note + SSHSIG form), the trailer.
 * A consistent cut: a checkpoint of the head is ensured first (proof() signs one if the newest
 * lags), and nothing past it is exported, so every exported entry is under a signed tree head.
 */
export async function* exportRoom(runtime: Runtime, roomId: string, viewer: Viewer): AsyncGenerator<object> {
  const room = await runtime.getRoom(roomId);
  const { treeSize } = await runtime.proof(roomId, room.seq);
  const key = runtime.serverKey;
  const w = new JournalWriter({
    room: roomId,
    protocol: room.protocol,
    protocol_version: room.protocolVersion,
    origin: roomOrigin(runtime.origin, roomId),
    title: room.title,
    exported_at: new Date(runtime.now()).toISOString(),
    viewer_class: viewerClassOf(viewer),
  });
  yield w.start();
  yield journalKey({
    noteVkey: key.noteVerifierKey,
    sshPublicKey: key.sshPublicLine,
    identity: serverIdentity(runtime.origin),
  });
  for (let from = 0; from < treeSize; ) {
    const page = await runtime.entries(roomId, viewer, from, Math.min(PAGE, treeSize - from));
    for (const entry of page) yield w.entry(entry);
    if (page.length === 0) break;
    from = (page[page.length - 1]?.seq ?? from) + 1;
  }
  const verifier = [key.noteSigner.verifier];
  for (const cp of await runtime.checkpoints(roomId)) {
    if (cp.size > treeSize) continue;
    // The SSHSIG form only ever re-signs text the note key already signed: a stored note that no
    // longer verifies (a damaged database) is exported as it is, without one.
    let valid = true;
    try {
      openNote(cp.note, verifier);
    } catch {
      valid = false;
    }
    yield w.checkpoint(
      journalCheckpoint(
        cp,
        valid ? (text) => key.sshsig(utf8Encode(text), CHECKPOINT_SSHSIG_NAMESPACE) : undefined,
      ),
    );
  }
  yield w.end();
}
