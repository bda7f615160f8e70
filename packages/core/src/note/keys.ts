import { concatBytes, fromBase64, toBase64, utf8Encode } from '../crypto/bytes.ts';
import { generateKeyPair, publicKeyFromSeed, sign, verify } from '../crypto/ed25519.ts';
import { sha256 } from '../crypto/hash.ts';
import { isWellFormed } from '../json/wellformed.ts';
import { NoteError } from './errors.ts';

// C2SP signed-note keys (c2sp.org/signed-note): a key is named, and identified in signature lines
// by (name, 32-bit key ID). Only Ed25519 (signature type 0x01) is implemented; the NoteSigner and
// NoteVerifier shapes are algorithm-neutral so others (e.g. cosignatures) can be added beside it.

export const ED25519_SIG_TYPE = 0x01;

/** Anything that can sign note text under a (name, keyId). */
export type NoteSigner = {
  readonly name: string;
  readonly keyId: number;
  sign(message: Uint8Array): Uint8Array;
};

/** Anything that can check a note signature made under a (name, keyId). */
export type NoteVerifier = {
  readonly name: string;
  readonly keyId: number;
  verify(message: Uint8Array, signature: Uint8Array): boolean;
};

export type Ed25519NoteVerifier = NoteVerifier & { readonly publicKey: Uint8Array; readonly vkey: string };
export type Ed25519NoteSigner = NoteSigner & {
  readonly verifier: Ed25519NoteVerifier;
  readonly skey: string;
};

/** Key names are non-empty, with no Unicode space (incl. NEL) and no '+'. */
export function isValidKeyName(name: string): boolean {
  return name.length > 0 && !/[\s\u0085+]/u.test(name) && !hasControlOrLoneSurrogate(name);
}

/** key ID = SHA-256(name || 0x0A || sigType || publicKey)[:4], read as a big-endian uint32. */
export function noteKeyId(name: string, publicKey: Uint8Array, sigType: number = ED25519_SIG_TYPE): number {
  const h = sha256(concatBytes(utf8Encode(name), new Uint8Array([0x0a, sigType]), publicKey));
  return ((h[0]! << 24) | (h[1]! << 16) | (h[2]! << 8) | h[3]!) >>> 0;
}

export const keyIdHex = (id: number): string => id.toString(16).padStart(8, '0');

/** Verifier key text: `<name>+<hex key ID>+base64(0x01 || publicKey)`. */
export function formatVerifierKey(name: string, publicKey: Uint8Array): string {
  checkName(name);
  if (publicKey.length !== 32) throw new NoteError('BAD_KEY', 'Ed25519 public key must be 32 bytes');
  const typed = concatBytes(new Uint8Array([ED25519_SIG_TYPE]), publicKey);
  return `${name}+${keyIdHex(noteKeyId(name, publicKey))}+${toBase64(typed)}`;
}

/** Parses a vkey; rejects anything whose key ID does not match its name and key. */
export function parseVerifierKey(vkey: string): Ed25519NoteVerifier {
  const parts = splitPlus(vkey, 3);
  if (!parts) throw new NoteError('BAD_KEY', 'verifier key must be name+keyid+key');
  const [name, idHex, keyB64] = parts as [string, string, string];
  const { keyId, material } = parseKeyParts(name, idHex, keyB64);
  const verifier = ed25519Verifier(name, material);
  if (verifier.keyId !== keyId) throw new NoteError('BAD_KEY', 'verifier key ID does not match');
  return verifier;
}

/** Signer key text (as Go's golang.org/x/mod/sumdb/note): `PRIVATE+KEY+<name>+<hex key ID>+base64(0x01 || seed)`. */
export function formatSignerKey(name: string, seed: Uint8Array): string {
  checkName(name);
  if (seed.length !== 32) throw new NoteError('BAD_KEY', 'Ed25519 seed must be 32 bytes');
  const keyId = noteKeyId(name, publicKeyFromSeed(seed));
  const typed = concatBytes(new Uint8Array([ED25519_SIG_TYPE]), seed);
  return `PRIVATE+KEY+${name}+${keyIdHex(keyId)}+${toBase64(typed)}`;
}

export function parseSignerKey(skey: string): Ed25519NoteSigner {
  const parts = splitPlus(skey, 5);
  if (parts?.[0] !== 'PRIVATE' || parts[1] !== 'KEY') {
    throw new NoteError('BAD_KEY', 'signer key must be PRIVATE+KEY+name+keyid+key');
  }
  const [, , name, idHex, keyB64] = parts as [string, string, string, string, string];
  const { keyId, material: seed } = parseKeyParts(name, idHex, keyB64);
  const signer = ed25519Signer(name, seed);
  if (signer.keyId !== keyId) throw new NoteError('BAD_KEY', 'signer key ID does not match');
  return signer;
}

export function ed25519Verifier(name: string, publicKey: Uint8Array): Ed25519NoteVerifier {
  const pub = publicKey.slice();
  return {
    name,
    keyId: noteKeyId(name, pub),
    publicKey: pub,
    vkey: formatVerifierKey(name, pub),
    verify: (message, signature) => verify(pub, message, signature),
  };
}

export function ed25519Signer(name: string, seed: Uint8Array): Ed25519NoteSigner {
  checkName(name);
  if (seed.length !== 32) throw new NoteError('BAD_KEY', 'Ed25519 seed must be 32 bytes');
  const s = seed.slice();
  const verifier = ed25519Verifier(name, publicKeyFromSeed(s));
  return {
    name,
    keyId: verifier.keyId,
    verifier,
    skey: formatSignerKey(name, s),
    sign: (message) => sign(s, message),
  };
}

/** A fresh Ed25519 note key (the only randomness: crypto.getRandomValues via generateKeyPair). */
export function generateNoteKey(name: string): { skey: string; vkey: string } {
  checkName(name);
  const { seed, publicKey } = generateKeyPair();
  return { skey: formatSignerKey(name, seed), vkey: formatVerifierKey(name, publicKey) };
}

function parseKeyParts(name: string, idHex: string, keyB64: string): { keyId: number; material: Uint8Array } {
  checkName(name);
  if (!/^[0-9a-f]{8}$/.test(idHex)) throw new NoteError('BAD_KEY', 'key ID must be 8 lowercase hex digits');
  const typed = strictBase64(keyB64);
  if (typed?.length !== 33 || typed[0] !== ED25519_SIG_TYPE) {
    throw new NoteError('BAD_KEY', 'key must be base64 of 0x01 followed by 32 bytes (Ed25519)');
  }
  return { keyId: Number.parseInt(idHex, 16), material: typed.slice(1) };
}

/** Splits at the first n - 1 pluses: the last part is base64, which may itself contain '+'. */
function splitPlus(s: string, n: number): string[] | undefined {
  const parts: string[] = [];
  let rest = s;
  for (let i = 1; i < n; i++) {
    const at = rest.indexOf('+');
    if (at < 0) return undefined;
    parts.push(rest.slice(0, at));
    rest = rest.slice(at + 1);
  }
  parts.push(rest);
  return parts;
}

function checkName(name: string): void {
  if (!isValidKeyName(name)) throw new NoteError('BAD_KEY', `invalid key name ${JSON.stringify(name)}`);
}

/** Decoded standard padded base64 (bytes.ts rejects non-canonical text), or undefined. */
export function strictBase64(s: string): Uint8Array | undefined {
  if (s.length === 0) return undefined;
  try {
    return fromBase64(s);
  } catch {
    return undefined;
  }
}

/** ASCII controls (other than newline when allowed), or a lone surrogate (which has no UTF-8 form). */
export function hasControlOrLoneSurrogate(s: string, allowNewline = false): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 && !(allowNewline && c === 0x0a)) return true;
  }
  return !isWellFormed(s);
}
