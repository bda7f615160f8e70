// The example files the README and docs/cli.md tell people to use are shipped, and they work: the
// auction config is one the sealed-bid protocol accepts, and the deliberation's tests pass against a
// right add() and fail against a wrong one.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sealedBid } from '@db8/sealed-bid';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const docs = ['README.md', 'docs/cli.md'].map((f) => readFileSync(join(ROOT, f), 'utf8')).join('\n');

describe('shipped examples', () => {
  it('every examples/ file the docs name exists', () => {
    const named = [...new Set([...docs.matchAll(/examples\/[\w.-]+/g)].map((m) => m[0]))];
    expect(named).toEqual(expect.arrayContaining(['examples/auction.json', 'examples/add.test.mjs']));
    for (const f of named) expect(() => readFileSync(join(ROOT, f)), f).not.toThrow();
  });

  it('examples/auction.json is a sealed-bid config', () => {
    const config = JSON.parse(readFileSync(join(ROOT, 'examples/auction.json'), 'utf8'));
    expect(sealedBid.configSchema.safeParse(config).success).toBe(true);
  });

  it('examples/add.test.mjs judges add(): a right one passes every test, a wrong one none', () => {
    const source = readFileSync(join(ROOT, 'examples/add.test.mjs'), 'utf8');
    expect(source).toMatch(/from '\.\/solution\.mjs'/);
    const run = (add: (a: number, b: number) => number) => {
      // The module's body without its imports, with add and assert given: its tests as functions.
      const body = source.replace(/^import .*$/gm, '').replace('export default', 'return');
      const tests = new Function('add', 'assert', body)(add, assertEqual) as Record<string, () => void>;
      return Object.values(tests).filter((t) => {
        try {
          t();
          return true;
        } catch {
          return false;
        }
      }).length;
    };
    const total = (source.match(/=> assert\./g) ?? []).length;
    expect(total).toBeGreaterThan(1);
    expect(run((a, b) => a + b)).toBe(total);
    expect(run((a, b) => a - b)).toBeLessThan(total);
  });
});

const assertEqual = {
  equal: (a: unknown, b: unknown) => {
    if (a !== b) throw new Error(`${String(a)} !== ${String(b)}`);
  },
};
