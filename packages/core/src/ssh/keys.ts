// OpenSSH encodings of Ed25519 keys: the public key blob and `ssh-ed25519 AAAA… comment` line
// (RFC 8709), SHA256 fingerprints, and unencrypted `openssh-key-v1` private key files (PROTOCOL.key).

import { bytesEqual, fromBase64, toBase64 } from '../crypto/bytes.ts';
import { keyPairFromSeed } from '../crypto/ed25519.ts';
import { sha256 } from '../crypto/hash.ts';
import { SshReader, SshWireError, SshWriter } from './wire.ts';

export const SSH_ED25519 = 'ssh-ed25519';

export class SshKeyError extends Error {
  readonly code: 'BAD_KEY' | 'UNSUPPORTED_KEY_TYPE' | 'ENCRYPTED_KEY';
  constructor(code: SshKeyError['code'], message: string) {
    super(message);
    this.name = 'SshKeyError';
    this.code = code;
  }
}

/** The SSH wire blob of an Ed25519 public key: string "ssh-ed25519", string key(32). */
export function encodeSshEd25519PublicKey(publicKey: Uint8Array): Uint8Array {
  if (publicKey.length !== 32) throw new SshKeyError('BAD_KEY', 'Ed25519 public key must be 32 bytes');
  return new SshWriter().string(SSH_ED25519).string(publicKey).bytes();
}

/** Raw 32-byte key from an `ssh-ed25519` wire blob. */
export function decodeSshEd25519PublicKey(blob: Uint8Array): Uint8Array {
  try {
    const r = new SshReader(blob);
    const type = r.readText('key type');
    if (type !== SSH_ED25519) throw new SshKeyError('UNSUPPORTED_KEY_TYPE', `unsupported key type: ${type}`);
    const pk = r.readString('public key');
    if (pk.length !== 32) throw new SshKeyError('BAD_KEY', 'Ed25519 public key must be 32 bytes');
    r.end('public key blob');
    return pk.slice();
  } catch (e) {
    if (e instanceof SshWireError)
      throw new SshKeyError('BAD_KEY', `malformed public key blob: ${e.message}`);
    throw e;
  }
}

/** `SHA256:…` fingerprint of a key blob, as `ssh-keygen -l` prints it. */
export function sshFingerprint(blob: Uint8Array): string {
  return `SHA256:${toBase64(sha256(blob)).replace(/=+$/, '')}`;
}

export function formatSshPublicKey(publicKey: Uint8Array, comment?: string): string {
  const line = `${SSH_ED25519} ${toBase64(encodeSshEd25519PublicKey(publicKey))}`;
  return comment ? `${line} ${comment}` : line;
}

export type SshPublicKeyLine = { type: string; blob: Uint8Array; comment: string };

/** Split an authorized_keys-style line `type base64 [comment]` (no options prefix). */
export function splitSshKeyLine(line: string): SshPublicKeyLine {
  const m = /^\s*(\S+)\s+([A-Za-z0-9+/]+={0,2})(?:\s+(.*?))?\s*$/.exec(line);
  if (!m) throw new SshKeyError('BAD_KEY', 'not an OpenSSH public key line');
  let blob: Uint8Array;
  try {
    blob = fromBase64(m[2]!);
  } catch {
    throw new SshKeyError('BAD_KEY', 'public key line has invalid base64');
  }
  // The type outside the blob must agree with the one inside it.
  try {
    const inner = new SshReader(blob).readText('key type');
    if (inner !== m[1])
      throw new SshKeyError('BAD_KEY', `key type mismatch: line says ${m[1]}, blob says ${inner}`);
  } catch (e) {
    if (e instanceof SshWireError) throw new SshKeyError('BAD_KEY', `malformed key blob: ${e.message}`);
    throw e;
  }
  return { type: m[1]!, blob, comment: m[3] ?? '' };
}

/** Raw 32-byte key and comment from an `ssh-ed25519 AAAA… comment` line. */
export function parseSshPublicKey(line: string): { publicKey: Uint8Array; comment: string } {
  const { type, blob, comment } = splitSshKeyLine(line);
  if (type !== SSH_ED25519) throw new SshKeyError('UNSUPPORTED_KEY_TYPE', `unsupported key type: ${type}`);
  return { publicKey: decodeSshEd25519PublicKey(blob), comment };
}

const PRIV_BEGIN = '-----BEGIN OPENSSH PRIVATE KEY-----';
const PRIV_END = '-----END OPENSSH PRIVATE KEY-----';
const AUTH_MAGIC = 'openssh-key-v1\0';

export type SshPrivateKey = { seed: Uint8Array; publicKey: Uint8Array; comment: string };

/** Parse an unencrypted OpenSSH private key file holding one Ed25519 key. */
export function parseOpenSshPrivateKey(text: string): SshPrivateKey {
  const start = text.indexOf(PRIV_BEGIN);
  const end = text.indexOf(PRIV_END);
  if (start < 0 || end < start) throw new SshKeyError('BAD_KEY', 'not an OpenSSH private key file');
  const b64 = text.slice(start + PRIV_BEGIN.length, end).replace(/\s+/g, '');
  let data: Uint8Array;
  try {
    data = fromBase64(b64);
  } catch {
    throw new SshKeyError('BAD_KEY', 'OpenSSH private key has invalid base64');
  }
  try {
    const magic = new TextDecoder().decode(data.subarray(0, AUTH_MAGIC.length));
    if (magic !== AUTH_MAGIC) throw new SshKeyError('BAD_KEY', 'missing openssh-key-v1 magic');
    const r = new SshReader(data.subarray(AUTH_MAGIC.length));
    const cipher = r.readText('cipher name');
    const kdf = r.readText('kdf name');
    r.readString('kdf options');
    if (cipher !== 'none' || kdf !== 'none') {
      throw new SshKeyError(
        'ENCRYPTED_KEY',
        `private key is encrypted (cipher ${cipher}); decrypt it first, e.g. ssh-keygen -p -N '' -f KEY on a copy`,
      );
    }
    const n = r.readUint32('key count');
    if (n !== 1) throw new SshKeyError('BAD_KEY', `expected exactly one key, found ${n}`);
    const pubBlob = r.readString('public key');
    const priv = new SshReader(r.readString('private section'));
    r.end('private key file');
    const check1 = priv.readUint32('checkint');
    const check2 = priv.readUint32('checkint');
    if (check1 !== check2)
      throw new SshKeyError('BAD_KEY', 'checkint mismatch (corrupt or wrongly decrypted key)');
    const type = priv.readText('key type');
    if (type !== SSH_ED25519)
      throw new SshKeyError('UNSUPPORTED_KEY_TYPE', `unsupported private key type: ${type}`);
    const pk = priv.readString('public key');
    const sk = priv.readString('private key');
    const comment = priv.readText('comment');
    // Padding is 1, 2, 3, … up to the cipher block size.
    for (let i = 1; priv.remaining > 0; i++) {
      if (priv.readUint8('padding') !== (i & 0xff))
        throw new SshKeyError('BAD_KEY', 'bad private key padding');
    }
    if (pk.length !== 32 || sk.length !== 64 || !bytesEqual(sk.subarray(32), pk)) {
      throw new SshKeyError('BAD_KEY', 'malformed Ed25519 private key');
    }
    if (!bytesEqual(decodeSshEd25519PublicKey(pubBlob), pk)) {
      throw new SshKeyError('BAD_KEY', 'public and private sections disagree');
    }
    const seed = sk.slice(0, 32);
    if (!bytesEqual(keyPairFromSeed(seed).publicKey, pk)) {
      throw new SshKeyError('BAD_KEY', 'private key does not match its public key');
    }
    return { seed, publicKey: pk.slice(), comment };
  } catch (e) {
    if (e instanceof SshWireError)
      throw new SshKeyError('BAD_KEY', `malformed OpenSSH private key: ${e.message}`);
    throw e;
  }
}

/**
 * Unencrypted OpenSSH private key file for a seed. The checkint is normally random; it only detects a
 * wrong passphrase, so with no encryption a value derived from the public key is as good and keeps core pure.
 */
export function formatOpenSshPrivateKey(seed: Uint8Array, comment = ''): string {
  const { publicKey } = keyPairFromSeed(seed);
  const h = sha256(publicKey);
  const check = new DataView(h.buffer, h.byteOffset, h.byteLength).getUint32(0);
  const priv = new SshWriter()
    .uint32(check)
    .uint32(check)
    .string(SSH_ED25519)
    .string(publicKey)
    .string(new Uint8Array([...seed, ...publicKey]))
    .string(comment);
  let len = priv.bytes().length;
  for (let i = 1; len % 8 !== 0; i++, len++) priv.uint8(i);
  const body = new SshWriter()
    .raw(AUTH_MAGIC)
    .string('none')
    .string('none')
    .string(new Uint8Array(0))
    .uint32(1)
    .string(encodeSshEd25519PublicKey(publicKey))
    .string(priv.bytes())
    .bytes();
  const b64 = toBase64(body).replace(/(.{70})/g, '$1\n');
  return `${PRIV_BEGIN}\n${b64.trimEnd()}\n${PRIV_END}\n`;
}
