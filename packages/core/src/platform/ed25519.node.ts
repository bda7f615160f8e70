// Node backend for Ed25519: node:crypto (OpenSSL). KeyObjects are cached per key because building one
// from DER costs about as much as a verify; a room re-verifies the same few authors over and over.
import { createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import { BoundedCache } from '../crypto/lru.ts';

const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const CACHE_SIZE = 1024;

const publicKeys = new BoundedCache<string, KeyObject | null>(CACHE_SIZE);
const privateKeys = new BoundedCache<string, KeyObject>(CACHE_SIZE);

const hexOf = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
const buf = (b: Uint8Array): Buffer => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

function publicKeyObject(pub: Uint8Array, useCache: boolean): KeyObject | null {
  const id = hexOf(pub);
  if (useCache) {
    const hit = publicKeys.get(id);
    if (hit !== undefined) return hit;
  }
  let key: KeyObject | null;
  try {
    key = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, buf(pub)]), format: 'der', type: 'spki' });
  } catch {
    // Not a valid curve point: remember that too, so garbage keys stay cheap to reject.
    key = null;
  }
  if (useCache) publicKeys.set(id, key);
  return key;
}

function privateKeyObject(seed: Uint8Array): KeyObject {
  const id = hexOf(seed);
  let key = privateKeys.get(id);
  if (!key) {
    key = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, buf(seed)]), format: 'der', type: 'pkcs8' });
    privateKeys.set(id, key);
  }
  return key;
}

export function ed25519Sign(seed: Uint8Array, msg: Uint8Array): Uint8Array {
  return new Uint8Array(sign(null, buf(msg), privateKeyObject(seed)));
}

export function ed25519Verify(pub: Uint8Array, msg: Uint8Array, sig: Uint8Array, useCache = true): boolean {
  if (pub.length !== 32 || sig.length !== 64) return false;
  const key = publicKeyObject(pub, useCache);
  if (!key) return false;
  try {
    return verify(null, buf(msg), key, buf(sig));
  } catch {
    return false;
  }
}

export function ed25519PublicFromSeed(seed: Uint8Array): Uint8Array {
  const spki = createPublicKey(privateKeyObject(seed)).export({ format: 'der', type: 'spki' });
  return new Uint8Array(spki.subarray(SPKI_PREFIX.length));
}

/** Drop cached KeyObjects (tests and benchmarks measure the uncached path with this). */
export function ed25519ClearCache(): void {
  publicKeys.clear();
  privateKeys.clear();
}

export const ed25519Backend = 'node:crypto';
