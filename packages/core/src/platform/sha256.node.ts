// Node backend for '#sha256' (see package.json "imports"): OpenSSL through node:crypto.
import { createHash } from 'node:crypto';

export function sha256(data: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHash('sha256').update(data).digest());
}

export function sha512(data: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHash('sha512').update(data).digest());
}
