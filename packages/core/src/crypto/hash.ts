import { sha256 as sha256Backend, sha512 as sha512Backend } from '#sha256';
import { canonicalBytes } from '../json/canonical.ts';
import { toHex } from './bytes.ts';

/** SHA-256 (FIPS 180-4): node:crypto in Node, @noble/hashes in browsers. */
export function sha256(data: Uint8Array): Uint8Array<ArrayBuffer> {
  return sha256Backend(data);
}

/** SHA-512 (FIPS 180-4), same backends as sha256 (SSHSIG may hash with either). */
export function sha512(data: Uint8Array): Uint8Array<ArrayBuffer> {
  return sha512Backend(data);
}

export function sha256Hex(data: Uint8Array): string {
  return toHex(sha256Backend(data));
}

/** Lowercase hex SHA-256 of the RFC 8785 canonical UTF-8 bytes of `value` (throws JsonError like canonicalize). */
export function hashCanonical(value: unknown): string {
  return toHex(sha256Backend(canonicalBytes(value)));
}
