import {
  encodeSshEd25519PublicKey,
  fromHex,
  sshFingerprint,
  toBase64,
  toHex,
  webcryptoGenerateEd25519,
  webcryptoSignEd25519,
} from '@db8/core';
import { type SubmitAction, submissionBytes } from '../rules/index.ts';

// Opt-in browser signing (seed §1 "full crypto in browser"): a WebCrypto Ed25519 key made
// non-extractable, so page scripts can sign with it but never read it, kept in IndexedDB (which
// stores CryptoKey objects as they are) per room and seat. The debater registers its public half
// with `register_key`, then each submission carries a raw Ed25519 signature over its canonical
// bytes — the same bytes the protocol hashes and checks.

export type BrowserKey = { privateKey: CryptoKey; publicHex: string; fingerprint: string };

const DB = 'db8-keys';
const STORE = 'keys';
const keyId = (roomId: string, seat: string) => `${roomId}/${seat}`;

function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

async function withStore<T>(mode: IDBTransactionMode, fn: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await openDb();
  try {
    return await new Promise<T>((resolve, reject) => {
      const req = fn(db.transaction(STORE, mode).objectStore(STORE));
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
  } finally {
    db.close();
  }
}

type Stored = { privateKey: CryptoKey; publicHex: string };

export const fingerprintOf = (raw: Uint8Array): string => sshFingerprint(encodeSshEd25519PublicKey(raw));

/** The key this browser made for `seat` in `roomId`, or null. */
export async function loadBrowserKey(roomId: string, seat: string): Promise<BrowserKey | null> {
  const s = await withStore<Stored | undefined>('readonly', (st) => st.get(keyId(roomId, seat)));
  if (!s) return null;
  return { ...s, fingerprint: fingerprintOf(fromHex(s.publicHex)) };
}

/** Make (and keep) a new non-extractable key for `seat` in `roomId`. */
export async function createBrowserKey(roomId: string, seat: string): Promise<BrowserKey> {
  const pair = await webcryptoGenerateEd25519(false);
  const stored: Stored = { privateKey: pair.privateKey, publicHex: toHex(pair.publicKeyRaw) };
  await withStore('readwrite', (st) => st.put(stored, keyId(roomId, seat)));
  return { ...stored, fingerprint: fingerprintOf(pair.publicKeyRaw) };
}

/** The action with its signature fields: a raw Ed25519 signature over the canonical bytes. */
export async function signSubmit(action: SubmitAction, key: BrowserKey): Promise<SubmitAction> {
  const sig = await webcryptoSignEd25519(key.privateKey, submissionBytes(action));
  return {
    ...action,
    signature_kind: 'ed25519',
    signature_b64: toBase64(sig),
    signer_fingerprint: key.fingerprint,
  };
}
