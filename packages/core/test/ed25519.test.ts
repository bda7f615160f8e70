import { generateKeyPairSync, sign as nodeSign } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BoundedCache } from '../src/crypto/lru.ts';
import { Ed25519KeyError, ed25519 } from '../src/index.ts';
import * as browser from '../src/platform/ed25519.browser.ts';

const hex = (s: string) => Uint8Array.from(Buffer.from(s, 'hex'));
const enc = (s: string) => new TextEncoder().encode(s);

// RFC 8032 §7.1, TEST 1 and TEST 2.
const RFC8032 = [
  {
    seed: '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60',
    pub: 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
    msg: '',
    sig: 'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
  },
  {
    seed: '4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb',
    pub: '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c',
    msg: '72',
    sig: '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00',
  },
];

describe('ed25519 (node:crypto backend)', () => {
  it('is the node backend under Node', () => {
    expect(ed25519.ed25519BackendName).toBe('node:crypto');
  });

  it.each(RFC8032)('matches RFC 8032 vector (pub $pub)', (v) => {
    expect(Buffer.from(ed25519.publicKeyFromSeed(hex(v.seed))).toString('hex')).toBe(v.pub);
    expect(Buffer.from(ed25519.sign(hex(v.seed), hex(v.msg))).toString('hex')).toBe(v.sig);
    expect(ed25519.verify(hex(v.pub), hex(v.msg), hex(v.sig))).toBe(true);
    expect(browser.ed25519Sign(hex(v.seed), hex(v.msg))).toEqual(hex(v.sig));
    expect(browser.ed25519Verify(hex(v.pub), hex(v.msg), hex(v.sig))).toBe(true);
  });

  it('generates distinct key pairs that sign and verify', () => {
    const a = ed25519.generateKeyPair();
    const b = ed25519.generateKeyPair();
    expect(a.seed).toHaveLength(32);
    expect(a.publicKey).toHaveLength(32);
    expect(a.seed).not.toEqual(b.seed);
    expect(ed25519.keyPairFromSeed(a.seed).publicKey).toEqual(a.publicKey);
    const sig = ed25519.sign(a.seed, enc('hello'));
    expect(ed25519.verify(a.publicKey, enc('hello'), sig)).toBe(true);
    expect(ed25519.verify(b.publicKey, enc('hello'), sig)).toBe(false);
    expect(ed25519.verify(a.publicKey, enc('hellp'), sig)).toBe(false);
  });

  it('returns false (never throws) for malformed input', () => {
    const { seed, publicKey } = ed25519.generateKeyPair();
    const sig = ed25519.sign(seed, enc('m'));
    expect(ed25519.verify(publicKey.subarray(1), enc('m'), sig)).toBe(false);
    expect(ed25519.verify(publicKey, enc('m'), sig.subarray(1))).toBe(false);
    expect(ed25519.verify(publicKey, enc('m'), new Uint8Array(64))).toBe(false);
    // y = 2^255 - 1 is not a canonical field element, so it is not a valid point.
    const notAPoint = new Uint8Array(32).fill(0xff);
    expect(ed25519.verify(notAPoint, enc('m'), sig)).toBe(false);
    expect(ed25519.verify(notAPoint, enc('m'), sig)).toBe(false); // cached negative
    // biome-ignore lint/suspicious/noExplicitAny: deliberately wrong types from untyped callers
    expect(ed25519.verify('x' as any, enc('m'), sig)).toBe(false);
    // S >= L (non-canonical scalar) must be rejected, as RFC 8032 requires.
    const badS = sig.slice();
    badS.fill(0xff, 32);
    expect(ed25519.verify(publicKey, enc('m'), badS)).toBe(false);
    expect(browser.ed25519Verify(publicKey, enc('m'), badS)).toBe(false);
  });

  it('rejects wrong-length seeds with a typed error', () => {
    expect(() => ed25519.sign(new Uint8Array(31), enc('m'))).toThrow(Ed25519KeyError);
    expect(() => ed25519.keyPairFromSeed(new Uint8Array(64))).toThrow(/32 bytes/);
  });

  it('agrees with @noble/curves and across cached/uncached paths (property)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ maxLength: 200 }),
        fc.nat(64 * 8 - 1),
        (seed, msg, bit) => {
          const pub = ed25519.publicKeyFromSeed(seed);
          expect(browser.ed25519PublicFromSeed(seed)).toEqual(pub);
          const sig = ed25519.sign(seed, msg);
          expect(browser.ed25519Sign(seed, msg)).toEqual(sig);
          expect(ed25519.verify(pub, msg, sig)).toBe(true);
          expect(ed25519.verifyUncached(pub, msg, sig)).toBe(true);
          const flipped = sig.slice();
          flipped[bit >> 3]! ^= 1 << (bit & 7);
          expect(ed25519.verify(pub, msg, flipped)).toBe(false);
          expect(browser.ed25519Verify(pub, msg, flipped)).toBe(false);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('keeps verifying after the key cache is cleared', () => {
    const { seed, publicKey } = ed25519.generateKeyPair();
    const sig = ed25519.sign(seed, enc('x'));
    expect(ed25519.verify(publicKey, enc('x'), sig)).toBe(true);
    ed25519.clearEd25519Cache();
    expect(ed25519.verify(publicKey, enc('x'), sig)).toBe(true);
  });

  it('converts raw <-> SPKI DER the way node:crypto does', () => {
    const kp = generateKeyPairSync('ed25519');
    const der = new Uint8Array(kp.publicKey.export({ format: 'der', type: 'spki' }));
    const raw = ed25519.publicKeyFromSpki(der);
    expect(raw).toHaveLength(32);
    expect(ed25519.publicKeyToSpki(raw)).toEqual(der);
    const sig = new Uint8Array(nodeSign(null, Buffer.from('spki'), kp.privateKey));
    expect(ed25519.verify(raw, enc('spki'), sig)).toBe(true);
    // Same length, different algorithm OID (X25519): must not be mistaken for an Ed25519 key.
    const x = generateKeyPairSync('x25519').publicKey.export({ format: 'der', type: 'spki' });
    expect(x).toHaveLength(44);
    expect(() => ed25519.publicKeyFromSpki(new Uint8Array(x))).toThrow(Ed25519KeyError);
  });
});

describe('BoundedCache (the key and certificate cache)', () => {
  it('evicts the least recently used entry and never exceeds its capacity', () => {
    const c = new BoundedCache<string, number>(3);
    c.set('a', 1);
    c.set('b', 2);
    c.set('c', 3);
    expect(c.get('a')).toBe(1); // a is now the most recent
    c.set('d', 4); // evicts b
    expect(c.get('b')).toBeUndefined();
    expect([c.get('a'), c.get('c'), c.get('d')]).toEqual([1, 3, 4]);
    expect(c.get('d')).toBe(4); // repeated read of the newest key
    c.set('e', 5); // evicts a (order now a, c, d -> a is oldest)
    expect(c.get('a')).toBeUndefined();
    expect(c.size).toBe(3);
    c.set('c', 30);
    expect(c.get('c')).toBe(30);
    expect(c.size).toBe(3);
    expect(() => new BoundedCache(0)).toThrow(RangeError);
  });
});
