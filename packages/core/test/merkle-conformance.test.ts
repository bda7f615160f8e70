import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { conformancePath } from '../../../test/conformance.ts';
import { fromBase64 } from '../src/crypto/bytes.ts';
import { leafHash, nodeHash, rootOf, verifyConsistency, verifyInclusion } from '../src/merkle/index.ts';

// Vectors from transparency-dev/merkle testdata (see SOURCES.txt there): every file in
// inclusion/** and consistency/**, including the wantErr probes, which must be rejected.
const ROOT = conformancePath('merkle');
if (!existsSync(ROOT)) {
  throw new Error(`conformance data missing: ${ROOT} (test/conformance/merkle in the repository)`);
}

const b64 = z.string().transform((s) => fromBase64(s));
// Not .int(): the Go generator writes `leafIdx - 1` for index 0 as uint64 2^64 - 1, which JSON
// parses to an unsafe float; the verifier itself must reject it.
const size = z.number();
const InclusionVector = z.object({
  leafIdx: size,
  treeSize: size,
  root: b64,
  leafHash: b64,
  proof: z.array(b64).nullable(),
  desc: z.string(),
  wantErr: z.boolean(),
});
const ConsistencyVector = z.object({
  size1: size,
  size2: size,
  root1: b64,
  root2: b64,
  proof: z.array(b64).nullable(),
  desc: z.string(),
  wantErr: z.boolean(),
});

function jsonFiles(dir: string): string[] {
  if (!existsSync(dir)) throw new Error(`conformance folder missing: ${dir}`);
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return jsonFiles(p);
    return name.endsWith('.json') ? [p] : [];
  });
}

const load = <T>(schema: z.ZodType<T>, file: string) => ({
  name: relative(ROOT, file),
  v: schema.parse(JSON.parse(readFileSync(file, 'utf8'))),
});
const inclusion = jsonFiles(join(ROOT, 'inclusion')).map((f) => load(InclusionVector, f));
const consistency = jsonFiles(join(ROOT, 'consistency')).map((f) => load(ConsistencyVector, f));

describe('RFC 6962 conformance vectors (transparency-dev/merkle testdata)', () => {
  it('found the vectors', () => {
    // The snapshot holds 98 inclusion and 98 consistency files; a partial copy should not pass quietly.
    expect(inclusion.length).toBeGreaterThan(90);
    expect(consistency.length).toBeGreaterThan(90);
    expect(inclusion.some((t) => !t.v.wantErr)).toBe(true);
    expect(inclusion.some((t) => t.v.wantErr)).toBe(true);
    expect(consistency.some((t) => !t.v.wantErr)).toBe(true);
    expect(consistency.some((t) => t.v.wantErr)).toBe(true);
  });

  it.each(inclusion)('inclusion $name', ({ v }) => {
    const ok = verifyInclusion(v.leafHash, v.leafIdx, v.treeSize, v.proof ?? [], v.root);
    expect(ok, v.desc).toBe(!v.wantErr);
  });

  it.each(consistency)('consistency $name', ({ v }) => {
    const ok = verifyConsistency(v.size1, v.size2, v.proof ?? [], v.root1, v.root2);
    expect(ok, v.desc).toBe(!v.wantErr);
  });
});

// The reference tree of the Go tests (ref/rfc6962 and proof/verify_test.go): 8 leaves and the
// root at every size, pinned here as hex.
const LEAVES = [
  '',
  '00',
  '10',
  '2021',
  '3031',
  '40414243',
  '5051525354555657',
  '606162636465666768696a6b6c6d6e6f',
];
const ROOTS = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('RFC 6962 hashing (rfc6962_test.go vectors)', () => {
  it('empty tree, leaf and node hashes', () => {
    expect(hex(rootOf([]))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hex(leafHash(new Uint8Array(0)))).toBe(
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
    );
    expect(hex(leafHash(new TextEncoder().encode('L123456')))).toBe(
      '395aa064aa4c29f7010acfe3f25db9485bbd4b91897b6ad7ad547639252b4d56',
    );
    expect(hex(nodeHash(new TextEncoder().encode('N123'), new TextEncoder().encode('N456')))).toBe(
      'aa217fe888e47007fa15edab33c2b492a722cb106c64667fc2b044444de66bbb',
    );
  });

  it('roots of the reference tree at sizes 1..8', () => {
    const leaves = LEAVES.map((h) => leafHash(Uint8Array.from(Buffer.from(h, 'hex'))));
    ROOTS.forEach((want, i) => {
      expect(hex(rootOf(leaves, i + 1)), `size ${i + 1}`).toBe(want);
    });
  });
});
