// Browser backend for '#sha256' (see package.json "imports"): synchronous, so not WebCrypto.
import { sha256 as nobleSha256, sha512 as nobleSha512 } from '@noble/hashes/sha2.js';

export function sha256(data: Uint8Array): Uint8Array<ArrayBuffer> {
  return nobleSha256(data);
}

export function sha512(data: Uint8Array): Uint8Array<ArrayBuffer> {
  return nobleSha512(data);
}
