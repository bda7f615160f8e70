import { type NoteVerifier, parseVerifierKey } from '@db8/core';
import { tokenFor } from './api.ts';

// The server's checkpoint-signing key, as published in the room's journal bundle (its `key`
// record). Only the first records of the JSONL export are read; the rest of the stream is dropped.

const MAX_RECORDS = 4;

export type ServerKeyInfo = { verifier: NoteVerifier; vkey: string; identity: string | null };

export async function fetchServerKey(roomId: string): Promise<ServerKeyInfo | null> {
  const token = tokenFor(roomId);
  const res = await fetch(`/v1/rooms/${encodeURIComponent(roomId)}/export`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  if (!res.ok || !res.body) return null;
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buf = '';
  let seen = 0;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return null;
      buf += value;
      for (let nl = buf.indexOf('\n'); nl !== -1; nl = buf.indexOf('\n')) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (++seen > MAX_RECORDS) return null;
        const rec = JSON.parse(line) as {
          type?: string;
          role?: string;
          note_vkey?: string;
          identity?: string;
        };
        if (rec.type === 'key' && rec.role === 'server' && typeof rec.note_vkey === 'string') {
          return {
            verifier: parseVerifierKey(rec.note_vkey),
            vkey: rec.note_vkey,
            identity: rec.identity ?? null,
          };
        }
      }
    }
  } finally {
    void reader.cancel().catch(() => {});
  }
}
