import { concatBytes, toBase64, utf8Decode, utf8Encode } from '../crypto/bytes.ts';
import { NoteError } from './errors.ts';
import {
  hasControlOrLoneSurrogate,
  isValidKeyName,
  keyIdHex,
  type NoteSigner,
  type NoteVerifier,
  strictBase64,
} from './keys.ts';

// C2SP signed notes (c2sp.org/signed-note): text ending in a newline, a blank line, then one or
// more lines `— <key name> base64(keyID[4] || signature)`. Acceptance rules follow the spec and
// golang.org/x/mod/sumdb/note: unknown keys are ignored, a known key's bad signature rejects the
// whole note, and a note with no verified signature is rejected.

const SIG_PREFIX = '\u2014 '; // em dash, space
/** Signatures read per note before giving up (the spec asks for at least 16). */
export const MAX_NOTE_SIGNATURES = 100;

export type NoteSignature = { name: string; keyId: number; base64: string };

export type OpenedNote = {
  /** The signed text, final newline included. */
  text: string;
  /** Signatures verified by a known key, in note order (at least one). */
  sigs: NoteSignature[];
  /** Signatures from keys not in the verifier list, kept for the caller (e.g. witnesses). */
  unverifiedSigs: NoteSignature[];
};

/** Signs `text` (which must end in a newline) with each signer; returns the complete note. */
export function signNote(text: string, signers: readonly NoteSigner[]): string {
  checkText(text);
  if (signers.length === 0) throw new NoteError('MALFORMED_NOTE', 'a note needs at least one signature');
  const message = utf8Encode(text);
  const lines = signers.map((s) => {
    if (!isValidKeyName(s.name)) throw new NoteError('BAD_KEY', `invalid key name ${JSON.stringify(s.name)}`);
    const sig = s.sign(message);
    return `${SIG_PREFIX}${s.name} ${toBase64(concatBytes(keyIdBytes(s.keyId), sig))}\n`;
  });
  return `${text}\n${lines.join('')}`;
}

/**
 * Parses and verifies a signed note (text, or its UTF-8 bytes) against known verifiers. Unknown keys'
 * signatures are ignored (returned as unverifiedSigs). Throws NoteError: MALFORMED_NOTE,
 * INVALID_SIGNATURE (a known key's signature is bad), UNVERIFIED_NOTE (no known key signed it),
 * AMBIGUOUS_KEY (two verifiers share name and key ID).
 */
export function openNote(input: string | Uint8Array, verifiers: readonly NoteVerifier[]): OpenedNote {
  const known = indexVerifiers(verifiers);
  const note = typeof input === 'string' ? input : decodeNote(input);
  if (hasControlOrLoneSurrogate(note, true)) {
    throw new NoteError('MALFORMED_NOTE', 'note has control characters or is not valid UTF-8');
  }
  const split = note.lastIndexOf('\n\n');
  if (split < 0) throw new NoteError('MALFORMED_NOTE', 'no blank line before the signatures');
  const text = note.slice(0, split + 1);
  const block = note.slice(split + 2);
  if (block.length === 0 || !block.endsWith('\n')) {
    throw new NoteError('MALFORMED_NOTE', 'signature block missing or not newline-terminated');
  }
  const message = utf8Encode(text);
  const sigs: NoteSignature[] = [];
  const unverifiedSigs: NoteSignature[] = [];
  const seenKeys = new Set<string>();
  const seenLines = new Set<string>();
  const lines = block.slice(0, -1).split('\n');
  if (lines.length > MAX_NOTE_SIGNATURES) throw new NoteError('MALFORMED_NOTE', 'too many signatures');
  for (const line of lines) {
    const sig = parseSignatureLine(line);
    const id = lookupKey(sig.name, sig.keyId);
    const v = known.get(id);
    if (v === 'ambiguous') throw new NoteError('AMBIGUOUS_KEY', `more than one verifier for ${id}`);
    if (!v) {
      // Kept for the caller (e.g. witness cosignatures); identical repeats are listed once.
      if (!seenLines.has(line)) unverifiedSigs.push(sig.public);
      seenLines.add(line);
      continue;
    }
    // Every signature by a known key is checked (the spec's MUST); each key is reported once.
    if (!v.verify(message, sig.signature)) {
      throw new NoteError('INVALID_SIGNATURE', `signature by ${id} does not verify`);
    }
    if (!seenKeys.has(id)) sigs.push(sig.public);
    seenKeys.add(id);
  }
  if (sigs.length === 0) throw new NoteError('UNVERIFIED_NOTE', 'no signature from a known key');
  return { text, sigs, unverifiedSigs };
}

function parseSignatureLine(line: string): {
  name: string;
  keyId: number;
  signature: Uint8Array;
  public: NoteSignature;
} {
  if (!line.startsWith(SIG_PREFIX))
    throw new NoteError('MALFORMED_NOTE', 'signature line must start with "— "');
  const rest = line.slice(SIG_PREFIX.length);
  const space = rest.indexOf(' ');
  const name = space < 0 ? '' : rest.slice(0, space);
  const b64 = space < 0 ? '' : rest.slice(space + 1);
  const raw = strictBase64(b64);
  if (!isValidKeyName(name) || !raw || raw.length < 5) {
    throw new NoteError('MALFORMED_NOTE', 'bad signature line');
  }
  const keyId = ((raw[0]! << 24) | (raw[1]! << 16) | (raw[2]! << 8) | raw[3]!) >>> 0;
  return { name, keyId, signature: raw.slice(4), public: { name, keyId, base64: b64 } };
}

// Two verifiers for one (name, keyId) are an error only when a signature names that key, as in Go's
// VerifierList: a stale duplicate in a config should not break notes it has nothing to do with.
function indexVerifiers(verifiers: readonly NoteVerifier[]): Map<string, NoteVerifier | 'ambiguous'> {
  const known = new Map<string, NoteVerifier | 'ambiguous'>();
  for (const v of verifiers) {
    const k = lookupKey(v.name, v.keyId);
    known.set(k, known.has(k) ? 'ambiguous' : v);
  }
  return known;
}

const lookupKey = (name: string, keyId: number): string => `${name}+${keyIdHex(keyId)}`;

function keyIdBytes(id: number): Uint8Array {
  if (!Number.isInteger(id) || id < 0 || id > 0xffffffff)
    throw new NoteError('BAD_KEY', 'key ID must be a uint32');
  return new Uint8Array([id >>> 24, (id >>> 16) & 0xff, (id >>> 8) & 0xff, id & 0xff]);
}

function checkText(text: string): void {
  if (!text.endsWith('\n')) throw new NoteError('MALFORMED_NOTE', 'note text must end in a newline');
  if (hasControlOrLoneSurrogate(text, true)) {
    throw new NoteError('MALFORMED_NOTE', 'note text has control characters or is not valid UTF-8');
  }
}

function decodeNote(bytes: Uint8Array): string {
  try {
    return utf8Decode(bytes);
  } catch {
    throw new NoteError('MALFORMED_NOTE', 'note is not valid UTF-8');
  }
}
