import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { canonicalize, type JsonValue, JsonValueSchema, parseJson } from '../src/index.ts';

describe('JsonValueSchema', () => {
  it('accepts JSON values', () => {
    const v: JsonValue = { a: [1, 'x', true, null, { b: -0.5 }] };
    expect(JsonValueSchema.parse(v)).toEqual(v);
  });

  it('rejects what canonicalize rejects, at the right path', () => {
    const cases: [unknown, (string | number)[]][] = [
      [{ a: [1, Number.NaN] }, ['a', 1]],
      [{ a: undefined }, ['a']],
      [{ s: 'x\ud800' }, ['s']],
      [[0, 2 ** 60], [1]],
      [{ d: new Date(0) }, ['d']],
      [() => 1, []],
    ];
    for (const [value, path] of cases) {
      const r = JsonValueSchema.safeParse(value);
      expect(r.success, JSON.stringify(path)).toBe(false);
      expect(r.error?.issues[0]?.path).toEqual(path);
    }
  });

  it('reports paths relative to an enclosing schema', () => {
    const Entry = z.object({ payload: JsonValueSchema });
    const r = Entry.safeParse({ payload: { x: 'a\udc00' } });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['payload', 'x']);
  });
});

describe('JsonValueSchema inside objects', () => {
  const Entry = z.object({ payload: JsonValueSchema });
  const Maybe = z.object({ payload: JsonValueSchema.optional() });

  it('is required unless marked optional', () => {
    expect(Entry.safeParse({}).success).toBe(false);
    expect(Maybe.safeParse({}).success).toBe(true);
    expect(Maybe.safeParse({ payload: null }).success).toBe(true);
  });

  it('passes values through untouched, "__proto__" members included', () => {
    const payload = parseJson('{"__proto__":{"p":1},"a":[1]}');
    const out = Entry.parse({ payload }).payload;
    expect(canonicalize(out)).toBe('{"__proto__":{"p":1},"a":[1]}');
  });
});
