// RFC 8785 conformance: the cyberphone/json-canonicalization test data in test/conformance/jcs
// (README there). Input files are strict-parsed then canonicalised; every byte must match.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { conformancePath } from '../../../test/conformance.ts';
import {
  canonicalBytes,
  canonicalize,
  fromHex,
  JsonError,
  parseJson,
  serializeJcsNumber,
  sha256Hex,
  utf8Decode,
} from '../src/index.ts';

const _repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const JCS = conformancePath('jcs');

function jcsDir(): string {
  if (!existsSync(join(JCS, 'input'))) {
    throw new Error(
      `RFC 8785 conformance data missing: expected ${JCS}/input (test/conformance/jcs in the repository)`,
    );
  }
  return JCS;
}

function readText(path: string): string {
  return utf8Decode(new Uint8Array(readFileSync(path)));
}

describe('RFC 8785 test data', () => {
  it('has the input, output and outhex files', () => {
    const dir = jcsDir();
    const inputs = readdirSync(join(dir, 'input')).sort();
    expect(inputs.length).toBeGreaterThanOrEqual(6);
    expect(readdirSync(join(dir, 'output')).sort()).toEqual(inputs);
    expect(readdirSync(join(dir, 'outhex')).sort()).toEqual(inputs.map((f) => f.replace(/\.json$/, '.txt')));
  });

  const names = existsSync(join(JCS, 'input')) ? readdirSync(join(JCS, 'input')).sort() : [];
  // With the folder missing this list is empty; the test above (and this guard) fail loudly.
  it('lists at least one vector', () => {
    jcsDir();
    expect(names.length).toBeGreaterThan(0);
  });
  for (const name of names) {
    it(`canonicalises input/${name} to output/ and outhex/ exactly`, () => {
      const dir = jcsDir();
      const value = parseJson(readText(join(dir, 'input', name)));
      const got = canonicalBytes(value);
      const want = new Uint8Array(readFileSync(join(dir, 'output', name)));
      expect(Buffer.from(got).toString('utf8')).toBe(Buffer.from(want).toString('utf8'));
      expect(got).toEqual(want);
      const hex = readFileSync(join(dir, 'outhex', name.replace(/\.json$/, '.txt')), 'utf8');
      expect(got).toEqual(fromHex(hex.replace(/\s+/g, '')));
      // Canonical output is a fixed point.
      expect(canonicalize(parseJson(canonicalize(value)))).toBe(canonicalize(value));
    });
  }
});

function bitsToDouble(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

describe('ES6 number serialisation (es6testfile10k.txt)', () => {
  it('matches every line, and parseJson reads every expected text back', () => {
    const path = join(jcsDir(), 'es6testfile10k.txt');
    const text = readFileSync(path, 'utf8');
    // The README's table pins the generated file's hash: proves the vectors are the real ones.
    expect(sha256Hex(new Uint8Array(readFileSync(path)))).toBe(
      'b9f7a8e75ef22a835685a52ccba7f7d6bdc99e34b010992cbc5864cd12be6892',
    );
    const lines = text.split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(10_000);
    let unsafe = 0;
    for (const line of lines) {
      const m = /^([0-9a-f]{1,16}),(.+)$/.exec(line);
      if (!m) throw new Error(`malformed line: ${line}`);
      const f = bitsToDouble(m[1]!);
      const want = m[2]!;
      if (serializeJcsNumber(f) !== want) expect(`${line} -> ${serializeJcsNumber(f)}`).toBe(line);
      const plainInteger = /^-?\d+$/.test(want);
      if (plainInteger && !Number.isSafeInteger(f)) {
        // db8 policy: digits-only integers beyond 2^53-1 are refused both ways (see canonical.ts).
        unsafe++;
        expect(() => canonicalize(f)).toThrow(expect.objectContaining({ code: 'UNSAFE_INTEGER' }));
        expect(() => parseJson(want)).toThrow(expect.objectContaining({ code: 'UNSAFE_INTEGER' }));
        continue;
      }
      if (canonicalize([f]) !== `[${want}]`) expect(`${line} -> ${canonicalize([f])}`).toBe(line);
      const back = parseJson(want);
      if (back !== f) expect(`${line} parsed back as ${String(back)}`).toBe(line);
    }
    expect(unsafe).toBeGreaterThan(0);
  });

  it('refuses NaN and infinities with a typed error', () => {
    for (const n of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(() => serializeJcsNumber(n)).toThrow(JsonError);
    }
  });
});
