// Ed25519 keys and signatures. The primitive comes from the platform backend (#ed25519: node:crypto in
// Node, @noble/curves in browsers); this file adds key formats and the one place core may draw randomness.
import {
  ed25519Backend,
  ed25519ClearCache,
  ed25519PublicFromSeed,
  ed25519Sign,
  ed25519Verify,
} from '#ed25519';
import { bytesEqual, concatBytes, fromHex } from './bytes.ts';

export const ED25519_SEED_LENGTH = 32;
export const ED25519_PUBLIC_KEY_LENGTH = 32;
export const ED25519_SIGNATURE_LENGTH = 64;

/** A 32-byte private seed (RFC 8032 "private key") and its 32-byte public key. */
export type Ed25519KeyPair = { seed: Uint8Array; publicKey: Uint8Array };

export class Ed25519KeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Ed25519KeyError';
  }
}

// SubjectPublicKeyInfo for id-Ed25519 (RFC 8410) is a fixed 12-byte header + the raw key.
const SPKI_PREFIX = fromHex('302a300506032b6570032100');

function checkLength(b: Uint8Array, n: number, what: string): void {
  if (!(b instanceof Uint8Array) || b.length !== n) {
    throw new Ed25519KeyError(
      `${what} must be ${n} bytes, got ${b instanceof Uint8Array ? b.length : typeof b}`,
    );
  }
}

/** Fresh key pair from globalThis.crypto.getRandomValues (the only ambient randomness in core). */
export function generateKeyPair(): Ed25519KeyPair {
  const seed = new Uint8Array(ED25519_SEED_LENGTH);
  globalThis.crypto.getRandomValues(seed);
  return { seed, publicKey: ed25519PublicFromSeed(seed) };
}

/** Key pair from a raw 32-byte seed. */
export function keyPairFromSeed(seed: Uint8Array): Ed25519KeyPair {
  checkLength(seed, ED25519_SEED_LENGTH, 'Ed25519 seed');
  return { seed: seed.slice(), publicKey: ed25519PublicFromSeed(seed) };
}

export function publicKeyFromSeed(seed: Uint8Array): Uint8Array {
  checkLength(seed, ED25519_SEED_LENGTH, 'Ed25519 seed');
  return ed25519PublicFromSeed(seed);
}

export function sign(seed: Uint8Array, message: Uint8Array): Uint8Array {
  checkLength(seed, ED25519_SEED_LENGTH, 'Ed25519 seed');
  return ed25519Sign(seed, message);
}

/** True only for a valid signature; malformed keys or signatures give false, never an exception. */
export function verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (
    !(publicKey instanceof Uint8Array) ||
    !(signature instanceof Uint8Array) ||
    !(message instanceof Uint8Array)
  ) {
    return false;
  }
  return ed25519Verify(publicKey, message, signature, true);
}

/** Verify without touching the key cache (benchmarks compare this against the cached path). */
export function verifyUncached(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  return ed25519Verify(publicKey, message, signature, false);
}

export const clearEd25519Cache: () => void = ed25519ClearCache;
export const ed25519BackendName: string = ed25519Backend;

export function publicKeyToSpki(publicKey: Uint8Array): Uint8Array {
  checkLength(publicKey, ED25519_PUBLIC_KEY_LENGTH, 'Ed25519 public key');
  return concatBytes(SPKI_PREFIX, publicKey);
}

export function publicKeyFromSpki(der: Uint8Array): Uint8Array {
  if (
    der.length !== SPKI_PREFIX.length + ED25519_PUBLIC_KEY_LENGTH ||
    !bytesEqual(der.subarray(0, 12), SPKI_PREFIX)
  ) {
    throw new Ed25519KeyError('not an Ed25519 SubjectPublicKeyInfo (RFC 8410)');
  }
  return der.slice(SPKI_PREFIX.length);
}
