// Node backend for '#sha256' (see package.json "imports"): OpenSSL through node:crypto.
// One-shot `hash()` (Node ≥ 20.12) avoids building a Hash object per call, which dominated the
// Merkle root's profile (half the CPU went to Hash construction and the GC it caused).
import { hash } from 'node:crypto';

export function sha256(data: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(hash('sha256', data, 'buffer'));
}

export function sha512(data: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(hash('sha512', data, 'buffer'));
}
