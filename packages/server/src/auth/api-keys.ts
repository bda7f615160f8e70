import { createHash, createHmac, randomBytes } from 'node:crypto';

export const API_KEY_PREFIX = 'db8k_';

/** 256 random bits, URL-safe, with a prefix so the server (and secret scanners) can tell keys from JWTs. */
export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function looksLikeApiKey(s: string): boolean {
  return s.startsWith(API_KEY_PREFIX) && /^[A-Za-z0-9_-]{20,200}$/.test(s);
}

/** Pepper derived from the server key: a leaked table of hashes is useless without the key file. */
export function apiKeyPepper(serverSeed: Uint8Array): Buffer {
  return createHash('sha256').update('db8/api-key-pepper/v1\0').update(serverSeed).digest();
}

/**
 * HMAC-SHA256(pepper, key). The key already has 256 bits of entropy, so a slow KDF adds nothing;
 * a deterministic keyed hash lets us look the key up by index.
 */
export function hashApiKey(pepper: Uint8Array, apiKey: string): string {
  return createHmac('sha256', pepper).update(apiKey, 'utf8').digest('hex');
}
