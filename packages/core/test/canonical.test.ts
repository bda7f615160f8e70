import peerCanonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalBytes, canonicalize, JSON_MAX_DEPTH, JsonError, parseJson } from '../src/index.ts';

function codeOf(fn: () => unknown): { code: string; path: string } {
  try {
    fn();
  } catch (err) {
    if (err instanceof JsonError) return { code: err.code, path: err.path };
    throw err;
  }
  throw new Error('expected a JsonError, nothing was thrown');
}

function hasUnsafeInteger(v: unknown): boolean {
  if (typeof v === 'number') return Number.isInteger(v) && !Number.isSafeInteger(v) && Math.abs(v) < 1e21;
  if (Array.isArray(v)) return v.some(hasUnsafeInteger);
  if (v && typeof v === 'object') return Object.values(v).some(hasUnsafeInteger);
  return false;
}

describe('canonicalize', () => {
  it('sorts keys by UTF-16 code units, not code points or locale', () => {
    // U+FB33 (one unit) sorts after U+1F602 (surrogates D83D DE02) in UTF-16 order, before it by code point.
    const v = { '\ufb33': 1, '\u{1f602}': 2, '\u00e9': 3, e: 4, E: 5, '10': 6, '1': 7, '': 8 };
    expect(canonicalize(v)).toBe('{"":8,"1":7,"10":6,"E":5,"e":4,"\u00e9":3,"\u{1f602}":2,"\ufb33":1}');
  });

  it('serialises nested structures without whitespace, in the RFC 8785 forms', () => {
    const v = { b: [1, 2.5, -0, 1e21, 1e-7, true, null], a: { z: 'x\n"\\\u0001\u007f/' } };
    expect(canonicalize(v)).toBe(
      '{"a":{"z":"x\\n\\"\\\\\\u0001\u007f/"},"b":[1,2.5,0,1e+21,1e-7,true,null]}',
    );
    expect(canonicalize('</script>')).toBe('"</script>"');
  });

  it('agrees with the canonicalize package on random JSON (differential)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary' }), (v) => {
        if (hasUnsafeInteger(v)) {
          expect(codeOf(() => canonicalize(v)).code).toBe('UNSAFE_INTEGER');
          return;
        }
        expect(canonicalize(v)).toBe(peerCanonicalize(v));
      }),
      { numRuns: 500, seed: 8785 },
    );
  });

  it('round-trips through parseJson to the same text', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary' }), (v) => {
        if (hasUnsafeInteger(v)) return;
        const text = canonicalize(v);
        expect(canonicalize(parseJson(text))).toBe(text);
      }),
      { numRuns: 300, seed: 6962 },
    );
  });

  it('encodes to UTF-8 bytes', () => {
    expect(canonicalBytes({ '€': 'é' })).toEqual(
      new Uint8Array([0x7b, 0x22, 0xe2, 0x82, 0xac, 0x22, 0x3a, 0x22, 0xc3, 0xa9, 0x22, 0x7d]),
    );
  });

  it('accepts null-prototype objects and a __proto__ own key', () => {
    const o = Object.create(null) as Record<string, unknown>;
    o.b = 1;
    o.a = 2;
    expect(canonicalize(o)).toBe('{"a":2,"b":1}');
    expect(canonicalize(parseJson('{"__proto__":{"x":1}}'))).toBe('{"__proto__":{"x":1}}');
  });

  it('accepts integers up to ±(2^53-1) and large doubles printed with an exponent', () => {
    expect(canonicalize([Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1e21, -1e300])).toBe(
      '[9007199254740991,-9007199254740991,1e+21,-1e+300]',
    );
  });
});

describe('canonicalize rejects what JSON cannot hold, naming the path', () => {
  const cases: [string, () => unknown, string, string][] = [
    ['undefined member', () => canonicalize({ a: { b: undefined } }), 'UNSUPPORTED_TYPE', '$.a.b'],
    ['top-level undefined', () => canonicalize(undefined), 'UNSUPPORTED_TYPE', '$'],
    ['array hole', () => canonicalize(new Array(3)), 'UNSUPPORTED_TYPE', '$[0]'],
    ['undefined item', () => canonicalize([1, undefined]), 'UNSUPPORTED_TYPE', '$[1]'],
    ['function', () => canonicalize({ f: () => 1 }), 'UNSUPPORTED_TYPE', '$.f'],
    ['symbol', () => canonicalize([Symbol('x')]), 'UNSUPPORTED_TYPE', '$[0]'],
    ['bigint', () => canonicalize({ n: 10n }), 'UNSUPPORTED_TYPE', '$.n'],
    ['Date', () => canonicalize({ d: new Date(0) }), 'UNSUPPORTED_TYPE', '$.d'],
    ['Map', () => canonicalize([new Map()]), 'UNSUPPORTED_TYPE', '$[0]'],
    ['Uint8Array', () => canonicalize({ b: new Uint8Array(2) }), 'UNSUPPORTED_TYPE', '$.b'],
    ['NaN', () => canonicalize({ a: [0, Number.NaN] }), 'NON_FINITE_NUMBER', '$.a[1]'],
    ['Infinity', () => canonicalize(Number.POSITIVE_INFINITY), 'NON_FINITE_NUMBER', '$'],
    ['-Infinity', () => canonicalize({ 'a b': Number.NEGATIVE_INFINITY }), 'NON_FINITE_NUMBER', '$["a b"]'],
    ['2^53', () => canonicalize({ n: 2 ** 53 }), 'UNSAFE_INTEGER', '$.n'],
    ['-2^60', () => canonicalize([-(2 ** 60)]), 'UNSAFE_INTEGER', '$[0]'],
    ['lone high surrogate', () => canonicalize({ s: 'a\ud800' }), 'LONE_SURROGATE', '$.s'],
    ['lone low surrogate', () => canonicalize(['\udc00b']), 'LONE_SURROGATE', '$[0]'],
    ['reversed pair', () => canonicalize('\ude02\ud83d'), 'LONE_SURROGATE', '$'],
    ['lone surrogate key', () => canonicalize({ x: { '\ud800': 1 } }), 'LONE_SURROGATE', '$.x["\\ud800"]'],
  ];
  for (const [name, fn, code, path] of cases) {
    it(name, () => expect(codeOf(fn)).toEqual({ code, path }));
  }

  it('cycles', () => {
    const a: Record<string, unknown> = { x: [1] };
    (a.x as unknown[]).push(a);
    expect(codeOf(() => canonicalize(a))).toEqual({ code: 'CYCLE', path: '$.x[1]' });
  });

  it('shared (non-cyclic) references are fine', () => {
    const shared = { k: 1 };
    expect(canonicalize({ a: shared, b: [shared] })).toBe('{"a":{"k":1},"b":[{"k":1}]}');
  });

  it('nesting beyond JSON_MAX_DEPTH', () => {
    let deep: unknown = 0;
    for (let i = 0; i < JSON_MAX_DEPTH; i++) deep = [deep];
    expect(canonicalize(deep)).toMatch(/^\[+0\]+$/);
    expect(codeOf(() => canonicalize([deep])).code).toBe('TOO_DEEP');
  });
});
