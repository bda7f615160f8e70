import { type NoteVerifier, parseVerifierKey } from '@db8/core';
import { anonClient } from './api.ts';

// The server's checkpoint-signing key, from the public GET /v1/keys (the same values as the `key`
// record of every journal bundle), so showing a journal never costs an export.

export type ServerKeyInfo = { verifier: NoteVerifier; vkey: string; identity: string | null };

/** One key per server, whatever the room; `_roomId` is accepted for callers that name the room. */
export async function fetchServerKey(_roomId?: string): Promise<ServerKeyInfo | null> {
  const keys = await anonClient().keys();
  return { verifier: parseVerifierKey(keys.note_vkey), vkey: keys.note_vkey, identity: keys.identity };
}
