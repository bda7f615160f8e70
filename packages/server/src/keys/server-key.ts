import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type Ed25519NoteSigner,
  ed25519,
  ed25519Signer,
  formatOpenSshPrivateKey,
  formatSshPublicKey,
  parseOpenSshPrivateKey,
  signSshsig,
} from '@db8/core';

/** File names inside the data directory. The private key is an unencrypted OpenSSH key (0600). */
export const SERVER_KEY_FILE = 'server_ed25519';
export const SERVER_PUBKEY_FILE = 'server_ed25519.pub';

/**
 * The server's Ed25519 identity. It signs room checkpoints (C2SP signed notes) and, in SSHSIG form,
 * anything `ssh-keygen -Y verify` should check. The seed is never logged: toJSON/inspect hide it.
 */
export interface ServerKey {
  readonly seed: Uint8Array;
  readonly publicKey: Uint8Array;
  /** Key name in signed notes (c2sp.org/signed-note), e.g. `db8`. */
  readonly noteName: string;
  sign(message: Uint8Array): Uint8Array;
  readonly noteSigner: Ed25519NoteSigner;
  /** `<name>+<keyid>+<base64>`: what verifiers of checkpoints pin. */
  readonly noteVerifierKey: string;
  /** `ssh-ed25519 AAAA… <comment>`, for allowed_signers files. */
  readonly sshPublicLine: string;
  /** Armored SSHSIG over message (namespace default `db8`). */
  sshsig(message: Uint8Array, namespace?: string): string;
}

export const DEFAULT_NOTE_NAME = 'db8';

/** A ServerKey from a 32-byte seed (tests, or a key supplied by deployment config). */
export function serverKeyFromSeed(seed: Uint8Array, noteName: string = DEFAULT_NOTE_NAME): ServerKey {
  if (seed.length !== 32) throw new Error('server key seed must be 32 bytes');
  const s = seed.slice();
  const noteSigner = ed25519Signer(noteName, s);
  const publicKey = noteSigner.verifier.publicKey;
  const key: ServerKey = {
    seed: s,
    publicKey,
    noteName,
    sign: (message) => ed25519.sign(s, message),
    noteSigner,
    noteVerifierKey: noteSigner.verifier.vkey,
    sshPublicLine: formatSshPublicKey(publicKey, `${noteName}-server`),
    sshsig: (message, namespace = 'db8') => signSshsig({ seed: s, namespace, message }),
  };
  // Keep the secret out of logs and JSON dumps.
  const hidden = () => ({ noteName, noteVerifierKey: key.noteVerifierKey });
  Object.defineProperty(key, 'toJSON', { value: hidden, enumerable: false });
  Object.defineProperty(key, Symbol.for('nodejs.util.inspect.custom'), { value: hidden, enumerable: false });
  Object.defineProperty(key, 'seed', { value: s, enumerable: false });
  Object.defineProperty(key, 'noteSigner', { value: noteSigner, enumerable: false });
  return key;
}

/** A fresh in-memory key (tests). */
export function generateServerKey(noteName?: string): ServerKey {
  return serverKeyFromSeed(new Uint8Array(randomBytes(32)), noteName);
}

/**
 * Loads the server key from `dataDir`, creating it on first start (mode 0600; the directory 0700
 * when we create it). The file appears atomically (written aside, then hard-linked into place,
 * which fails if it exists), so two processes starting together on one data directory agree.
 */
export function loadOrCreateServerKey(dataDir: string, opts: { noteName?: string } = {}): ServerKey {
  const noteName = opts.noteName ?? process.env.DB8_KEY_NAME ?? DEFAULT_NOTE_NAME;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, SERVER_KEY_FILE);
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const seed = new Uint8Array(randomBytes(32));
  writeFileSync(tmp, formatOpenSshPrivateKey(seed, `${noteName}-server`), { mode: 0o600, flag: 'wx' });
  chmodSync(tmp, 0o600); // the mode given to open() is masked by the umask
  let created = false;
  try {
    linkSync(tmp, path);
    created = true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    unlinkSync(tmp);
  }
  if (created) {
    const key = serverKeyFromSeed(seed, noteName);
    writeFileSync(join(dataDir, SERVER_PUBKEY_FILE), `${key.sshPublicLine}\n`, { mode: 0o644 });
    return key;
  }
  // An existing key must not be readable by others: tighten it rather than trust an old umask.
  if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  return serverKeyFromSeed(parseOpenSshPrivateKey(readFileSync(path, 'utf8')).seed, noteName);
}
