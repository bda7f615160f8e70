import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bytesEqual,
  canonicalBytes,
  concatBytes,
  fromBase64,
  fromBase64Url,
  fromHex,
  hashCanonical,
  sha256,
  sha256Hex,
  sha512,
  toBase64,
  toBase64Url,
  toHex,
  utf8Decode,
  utf8Encode,
} from '../src/index.ts';
import * as browser from '../src/platform/sha256.browser.ts';

const enc = (s: string) => new TextEncoder().encode(s);

describe('sha256 / sha512', () => {
  it('match the FIPS 180-2 "abc" vectors', () => {
    expect(sha256Hex(enc('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(toHex(sha256(new Uint8Array()))).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    expect(toHex(sha512(enc('abc')))).toBe(
      'ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a' +
        '2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f',
    );
  });

  it('return plain Uint8Arrays (not Buffers)', () => {
    expect(Object.getPrototypeOf(sha256(enc('x')))).toBe(Uint8Array.prototype);
    expect(Object.getPrototypeOf(sha512(enc('x')))).toBe(Uint8Array.prototype);
  });

  it('node and browser backends agree', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (b) => {
        expect(browser.sha256(b)).toEqual(sha256(b));
        expect(browser.sha512(b)).toEqual(sha512(b));
      }),
      { numRuns: 200, seed: 1 },
    );
  });

  it('hashCanonical hashes the canonical bytes, so key order does not matter', () => {
    const a = hashCanonical({ b: 1, a: [true, 'é'] });
    expect(a).toBe(hashCanonical({ a: [true, 'é'], b: 1 }));
    expect(a).toBe(createHash('sha256').update('{"a":[true,"é"],"b":1}', 'utf8').digest('hex'));
    expect(a).toBe(sha256Hex(canonicalBytes({ a: [true, 'é'], b: 1 })));
    expect(() => hashCanonical({ x: Number.NaN })).toThrow(/NON_FINITE|not a JSON number/);
  });
});

describe('hex', () => {
  it('round-trips and matches Buffer', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (b) => {
        const h = toHex(b);
        expect(h).toBe(Buffer.from(b).toString('hex'));
        expect(fromHex(h)).toEqual(b);
        expect(fromHex(h.toUpperCase())).toEqual(b);
      }),
      { numRuns: 200, seed: 2 },
    );
  });

  it('rejects odd length and non-hex', () => {
    expect(() => fromHex('abc')).toThrow(TypeError);
    expect(() => fromHex('0g')).toThrow(/offset 1/);
    expect(() => fromHex(' 00')).toThrow(TypeError);
  });
});

describe('base64 / base64url', () => {
  it('round-trip and match Buffer', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (b) => {
        expect(toBase64(b)).toBe(Buffer.from(b).toString('base64'));
        expect(toBase64Url(b)).toBe(Buffer.from(b).toString('base64url'));
        expect(fromBase64(toBase64(b))).toEqual(b);
        expect(fromBase64Url(toBase64Url(b))).toEqual(b);
      }),
      { numRuns: 300, seed: 3 },
    );
  });

  it('RFC 4648 §10 vectors', () => {
    const v = ['', 'Zg==', 'Zm8=', 'Zm9v', 'Zm9vYg==', 'Zm9vYmE=', 'Zm9vYmFy'];
    v.forEach((b64, i) => {
      expect(toBase64(enc('foobar'.slice(0, i)))).toBe(b64);
      expect(utf8Decode(fromBase64(b64))).toBe('foobar'.slice(0, i));
    });
  });

  it('decode strictly: padding, alphabet, trailing bits', () => {
    expect(() => fromBase64('Zg')).toThrow(TypeError); // padding required
    expect(() => fromBase64('Zh==')).toThrow(/padding bits/); // 'h' leaves non-zero bits
    expect(() => fromBase64('Zg=a')).toThrow(TypeError);
    expect(() => fromBase64('Z===')).toThrow(TypeError);
    expect(() => fromBase64('Zm9v\n')).toThrow(TypeError);
    expect(() => fromBase64('-_8=')).toThrow(TypeError); // url alphabet in standard
    expect(fromBase64Url('-_8')).toEqual(new Uint8Array([0xfb, 0xff]));
    expect(() => fromBase64Url('Zg==')).toThrow(TypeError); // padding not allowed
    expect(() => fromBase64Url('Z')).toThrow(TypeError);
    expect(() => fromBase64Url('+/8')).toThrow(TypeError);
  });
});

describe('utf8, concat, equality', () => {
  it('utf8 round-trips and is strict both ways', () => {
    expect(utf8Decode(utf8Encode('a€😂'))).toBe('a€😂');
    expect(() => utf8Encode('a\ud800')).toThrow(/lone surrogate/);
    expect(() => utf8Decode(new Uint8Array([0xc3]))).toThrow(/invalid UTF-8/);
    expect(() => utf8Decode(new Uint8Array([0xed, 0xa0, 0x80]))).toThrow(TypeError); // encoded surrogate
    expect(utf8Decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x41]))).toBe('\ufeffA'); // BOM kept
  });

  it('concatBytes', () => {
    expect(concatBytes(new Uint8Array([1]), new Uint8Array(), new Uint8Array([2, 3]))).toEqual(
      new Uint8Array([1, 2, 3]),
    );
    expect(concatBytes()).toEqual(new Uint8Array());
  });

  it('bytesEqual', () => {
    expect(bytesEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true);
    expect(bytesEqual(new Uint8Array([1, 2]), new Uint8Array([1, 3]))).toBe(false);
    expect(bytesEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2, 0]))).toBe(false);
    expect(bytesEqual(new Uint8Array(), new Uint8Array())).toBe(true);
  });
});
