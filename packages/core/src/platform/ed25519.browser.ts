// Browser backend for Ed25519: @noble/curves (pure JS, synchronous). Strict RFC 8032 checks
// (zip215: false) so browsers accept exactly what OpenSSL in Node accepts.
import { ed25519 } from '@noble/curves/ed25519.js';

export function ed25519Sign(seed: Uint8Array, msg: Uint8Array): Uint8Array {
  return ed25519.sign(msg, seed);
}

export function ed25519Verify(pub: Uint8Array, msg: Uint8Array, sig: Uint8Array, _useCache = true): boolean {
  if (pub.length !== 32 || sig.length !== 64) return false;
  try {
    return ed25519.verify(sig, msg, pub, { zip215: false });
  } catch {
    return false;
  }
}

export function ed25519PublicFromSeed(seed: Uint8Array): Uint8Array {
  return ed25519.getPublicKey(seed);
}

export function ed25519ClearCache(): void {}

export const ed25519Backend = '@noble/curves';
