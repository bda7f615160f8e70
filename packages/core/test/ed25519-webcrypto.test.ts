import { describe, expect, it } from 'vitest';
import {
  ed25519,
  webcryptoExportEd25519,
  webcryptoGenerateEd25519,
  webcryptoSignEd25519,
  webcryptoVerifyEd25519,
} from '../src/index.ts';

const enc = (s: string) => new TextEncoder().encode(s);

// Node 20 implements Ed25519 in crypto.subtle, so the browser helper runs here unchanged.
describe('ed25519 via WebCrypto', () => {
  it('makes a non-extractable private key whose signatures verify with the core verifier', async () => {
    const kp = await webcryptoGenerateEd25519();
    expect(kp.privateKey.extractable).toBe(false);
    await expect(globalThis.crypto.subtle.exportKey('pkcs8', kp.privateKey)).rejects.toThrow();
    expect(kp.publicKeyRaw).toHaveLength(32);
    expect(await webcryptoExportEd25519(kp.publicKey)).toEqual(kp.publicKeyRaw);
    const sig = await webcryptoSignEd25519(kp.privateKey, enc('room entry'));
    expect(ed25519.verify(kp.publicKeyRaw, enc('room entry'), sig)).toBe(true);
    expect(ed25519.verify(kp.publicKeyRaw, enc('room entrz'), sig)).toBe(false);
  });

  it('verifies core signatures and returns false for bad input', async () => {
    const { seed, publicKey } = ed25519.generateKeyPair();
    const sig = ed25519.sign(seed, enc('m'));
    expect(await webcryptoVerifyEd25519(publicKey, enc('m'), sig)).toBe(true);
    expect(await webcryptoVerifyEd25519(publicKey, enc('n'), sig)).toBe(false);
    expect(await webcryptoVerifyEd25519(publicKey.subarray(2), enc('m'), sig)).toBe(false);
    expect(await webcryptoVerifyEd25519(new Uint8Array(32).fill(0xff), enc('m'), sig)).toBe(false);
  });
});
