import { describe, expect, it } from 'vitest';
import { UPSTREAM_SCHEMAS } from '../../rules/upstream.ts';
import { orbiplex } from './fixtures.ts';

// The package validates with its own copy of the schemas (formatted by biome); the verbatim upstream
// copies live in test/conformance/orbiplex/. They must say the same thing.
describe('upstream schemas', () => {
  it.each(Object.keys(UPSTREAM_SCHEMAS))('%s is the upstream schema', (file) => {
    expect(UPSTREAM_SCHEMAS[file as keyof typeof UPSTREAM_SCHEMAS]).toEqual(orbiplex(file));
  });
});
