import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JSON_MAX_DEPTH, JsonError, parseJson } from '../src/index.ts';

function err(text: string): { code: string; path: string; offset: number | undefined } {
  try {
    parseJson(text);
  } catch (e) {
    if (e instanceof JsonError) return { code: e.code, path: e.path, offset: e.offset };
    throw e;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be rejected`);
}

describe('parseJson accepts JSON', () => {
  it('reads every kind of value like JSON.parse', () => {
    const text =
      ' {"a":[1,-2.5e3,0.1,-0,1E2,true,false,null],"b":{"c":"x\\u00e9\\n\\/\\"\\\\","":{}},"d":[]} ';
    expect(parseJson(text)).toEqual(JSON.parse(text));
    expect(Object.is(parseJson('-0'), -0)).toBe(true);
  });

  it('decodes escaped and raw surrogate pairs', () => {
    expect(parseJson('"\\ud83d\\ude02"')).toBe('\u{1f602}');
    expect(parseJson('"\u{1f602}"')).toBe('\u{1f602}');
    expect(parseJson('"\\ud83d\ude02"')).toBe('\u{1f602}'); // escaped high, raw low: decodes to a pair
    expect(parseJson('["a\u{1f602}b\\t"]')).toEqual(['a\u{1f602}b\t']);
  });

  it('keeps __proto__ as an own member, without touching the prototype', () => {
    const v = parseJson('{"__proto__":{"polluted":true},"a":1}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v)).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(err('{"__proto__":1,"__proto__":2}').code).toBe('DUPLICATE_KEY');
  });

  it('accepts the largest safe integers and non-integer tokens of any size', () => {
    expect(parseJson('[9007199254740991,-9007199254740991,1e300,12345678901234567890.5]')).toEqual([
      9007199254740991,
      -9007199254740991,
      1e300,
      Number('12345678901234567890.5'),
    ]);
  });

  it('agrees with JSON.parse on random documents (differential)', () => {
    fc.assert(
      fc.property(fc.json({ stringUnit: 'binary' }), (text) => {
        let want: unknown;
        try {
          want = JSON.parse(text);
        } catch {
          return;
        }
        const unsafe = /(^|[^.\d eE+-])-?\d{16,}(?![.\deE])/.test(text);
        try {
          expect(parseJson(text)).toEqual(want);
        } catch (e) {
          // fc.json() emits integers beyond 2^53 now and then; only those may be refused.
          if (!(e instanceof JsonError) || e.code !== 'UNSAFE_INTEGER' || !unsafe) throw e;
        }
      }),
      { numRuns: 500, seed: 8259 },
    );
  });
});

describe('parseJson rejects, saying what and where', () => {
  const cases: [string, string, string, string, number][] = [
    ['duplicate key', '{"a":1,"b":{"x":1,"x":2}}', 'DUPLICATE_KEY', '$.b.x', 18],
    ['unsafe integer', '{"n":[1,9007199254740992]}', 'UNSAFE_INTEGER', '$.n[1]', 8],
    ['unsafe negative integer', '-9007199254740993', 'UNSAFE_INTEGER', '$', 0],
    ['overflowing number', '[1e400]', 'NON_FINITE_NUMBER', '$[0]', 1],
    ['escaped lone high surrogate', '{"s":"ab\\ud800"}', 'LONE_SURROGATE', '$.s', 8],
    ['escaped lone low surrogate', '["\\udc00"]', 'LONE_SURROGATE', '$[0]', 2],
    ['escaped high then non-low', '"\\ud800\\u0041"', 'LONE_SURROGATE', '$', 1],
    ['raw lone high surrogate', '["x\ud800y"]', 'LONE_SURROGATE', '$[0]', 3],
    ['raw lone low surrogate', '"\udc00"', 'LONE_SURROGATE', '$', 1],
    ['raw high before an escape', '"\ud800\\n"', 'LONE_SURROGATE', '$', 1],
    ['lone surrogate in a key', '{"\\ud800":1}', 'LONE_SURROGATE', '$', 2],
    ['trailing garbage', '{"a":1} x', 'TRAILING_DATA', '$', 8],
    ['two values', '1 2', 'TRAILING_DATA', '$', 2],
    ['empty text', '', 'UNEXPECTED_END', '$', 0],
    ['only whitespace', ' \n ', 'UNEXPECTED_END', '$', 3],
    ['unterminated string', '{"a":"abc', 'UNEXPECTED_END', '$.a', 5],
    ['unclosed array', '[1,2', 'UNEXPECTED_END', '$', 4],
    ['trailing comma', '[1,2,]', 'SYNTAX', '$[2]', 5],
    ['trailing comma in object', '{"a":1,}', 'SYNTAX', '$', 7],
    ['single quotes', "{'a':1}", 'SYNTAX', '$', 1],
    ['missing colon', '{"a" 1}', 'SYNTAX', '$.a', 5],
    ['leading zero', '01', 'TRAILING_DATA', '$', 1],
    ['leading plus', '+1', 'SYNTAX', '$', 0],
    ['bare decimal point', '1.', 'UNEXPECTED_END', '$', 2],
    ['empty exponent', '[1e+]', 'SYNTAX', '$[0]', 4],
    ['NaN literal', 'NaN', 'SYNTAX', '$', 0],
    ['bad literal', 'tru', 'SYNTAX', '$', 0],
    ['raw control character', '"a\tb"', 'SYNTAX', '$', 2],
    ['bad escape', '"\\x41"', 'SYNTAX', '$', 1],
    ['short unicode escape', '"\\u12"', 'SYNTAX', '$', 1],
    ['byte order mark', '\ufeff{}', 'SYNTAX', '$', 0],
    ['comment', '[1 /* c */]', 'SYNTAX', '$', 3],
  ];
  for (const [name, text, code, path, offset] of cases) {
    it(name, () => expect(err(text)).toEqual({ code, path, offset }));
  }

  it('puts path, offset, line and column in the message', () => {
    expect(() => parseJson('{\n  "a": 1,\n  "a": 2\n}')).toThrow(
      'duplicate key "a" at $.a (offset 14, line 3 column 3)',
    );
  });

  it('limits nesting depth instead of overflowing the stack', () => {
    expect(parseJson('['.repeat(JSON_MAX_DEPTH) + ']'.repeat(JSON_MAX_DEPTH))).toBeInstanceOf(Array);
    expect(err('['.repeat(JSON_MAX_DEPTH + 1) + ']'.repeat(JSON_MAX_DEPTH + 1)).code).toBe('TOO_DEEP');
    expect(err('{"a":'.repeat(100_000)).code).toBe('TOO_DEEP');
  });

  it('refuses a non-string argument', () => {
    expect(() => parseJson(42 as unknown as string)).toThrow(JsonError);
  });
});
