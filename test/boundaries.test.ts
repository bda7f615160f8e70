import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  type ImportSite,
  importsOf,
  packageOf,
  type SourceFile,
  sourceFiles,
  WORKSPACES,
} from './imports.ts';

// The layering, checked on every `npm test`: each workspace package declares what it imports, the
// packages depend on each other only downwards, and protocol code reaches the platform only through
// its kits. A rule broken here is an import to move or a kit to widen on purpose, not an allowlist.

const files = sourceFiles();
const sites: ImportSite[] = files.flatMap(importsOf);
const rootDevDeps = Object.keys(JSON.parse(readFileSync('package.json', 'utf8')).devDependencies ?? {});

/** The workspace packages each package may import (its own name aside): the allowed layering. */
const LAYERS: Record<string, readonly string[]> = {
  '@db8/core': [],
  '@db8/protocols': ['@db8/core'],
  '@db8/sdk': ['@db8/core', '@db8/protocols', '@db8/server'],
  '@db8/agents': ['@db8/core', '@db8/protocols', '@db8/sdk'],
  '@db8/server': ['@db8/core', '@db8/protocols', '@db8/agents'],
  '@db8/web': ['@db8/core', '@db8/protocols', '@db8/sdk'],
  db8: ['@db8/core', '@db8/protocols', '@db8/sdk', '@db8/agents', '@db8/server'],
};

const show = (s: ImportSite) => `${s.file.path}: ${s.spec}`;

describe('workspace boundaries', () => {
  it('sees every package and a fair number of imports (the scan itself works)', () => {
    expect(new Set(files.map((f) => f.pkg.name))).toEqual(new Set(WORKSPACES.map((w) => w.name)));
    expect(sites.filter((s) => s.bare).length).toBeGreaterThan(500);
  });

  it("declares in each package.json every package its sources import (tests may use the root's tools)", () => {
    const missing = sites
      .filter((s) => s.bare && s.target !== s.file.pkg.name)
      .filter((s) => {
        const own = s.file.test ? s.file.pkg.allDeps : s.file.pkg.deps;
        return !own.includes(s.target) && !(s.file.test && rootDevDeps.includes(s.target));
      })
      .map(show);
    expect(missing).toEqual([]);
  });

  it('layers the workspace packages: each imports only the ones below it', () => {
    const upward = sites
      .filter((s) => s.bare && (s.target.startsWith('@db8/') || s.target === 'db8'))
      .filter((s) => !s.file.test && s.target !== s.file.pkg.name)
      .filter((s) => !(LAYERS[s.file.pkg.name] ?? []).includes(s.target))
      .map(show);
    expect(upward).toEqual([]);
  });

  it("never reaches into another package's code by a relative path (tests may share test helpers)", () => {
    const crossing = sites
      .filter((s) => !s.bare && s.resolved !== undefined && packageOf(s.resolved) !== s.file.pkg)
      .filter((s) => !(s.file.test && isTestHelper(s.resolved!)))
      .map(show);
    // The web's copy of deliberation's lesson extraction is checked against the server's until the
    // pure deliberation pieces move to its rules (issue 22, left for last).
    expect(crossing).toEqual([
      'packages/web/test/deliberation-graph.test.ts: ../../server/src/protocols/deliberation/storage/lessons-extract.ts',
    ]);
  });
});

describe('protocol boundaries', () => {
  const rules = (f: SourceFile) => /^packages\/protocols\/[^/]+\/src\//.test(f.path);

  it("keeps a protocol's rules pure: @db8/core, zod and its own files only", () => {
    const allowed = new Set(['@db8/core', 'zod', 'ajv', 'ajv-formats', 'diff']);
    const bad = sites
      .filter((s) => rules(s.file))
      .filter((s) => (s.bare ? !allowed.has(s.target) : !s.resolved?.startsWith(protocolDir(s.file.path))))
      .map(show);
    expect(bad).toEqual([]);
  });

  it('keeps the platform from importing a protocol module folder (only the registries do)', () => {
    const registries = new Set([
      'packages/server/src/protocols/registry.ts',
      'packages/web/src/protocols/registry.ts',
      'packages/cli/src/protocols/registry.ts',
    ]);
    const modulePath = /^packages\/(server|web|cli)\/src\/protocols\/[^/]+\//;
    const bad = sites
      .filter((s) => !s.file.test && !modulePath.test(s.file.path) && !registries.has(s.file.path))
      .filter((s) => s.resolved !== undefined && modulePath.test(s.resolved))
      .map(show);
    expect(bad).toEqual([]);
  });
});

describe('plugin surfaces', () => {
  /** Each side's kit: the only platform files a protocol's module there may import. */
  const KITS: Record<string, readonly string[]> = {
    server: ['packages/server/src/kit/index.ts'],
    web: ['packages/web/src/kit.ts'],
    cli: ['packages/cli/src/kit.ts', 'packages/cli/src/kit-run.ts'],
  };
  /** Modules not yet on their kits: deliberation and question move last (issue 22). */
  const PENDING = new Set(['deliberation', 'question']);
  /** Imports that are not module code: they leave with the piece named. */
  const KNOWN = [
    // A whole local poker server (runtime, store, scheduler): a composition, not module code.
    'packages/server/src/protocols/poker/standalone.ts',
  ];
  const moduleOf = (path: string) => /^packages\/(server|web|cli)\/src\/protocols\/([^/]+)\//.exec(path);

  it("has a module reach the platform only through its side's kit", () => {
    const bad = sites
      .filter((s) => !s.file.test && !s.bare && s.resolved !== undefined && !KNOWN.includes(s.file.path))
      .filter((s) => {
        const m = moduleOf(s.file.path);
        if (!m || PENDING.has(m[2]!)) return false;
        const own = `packages/${m[1]}/src/protocols/${m[2]}/`;
        return !s.resolved!.startsWith(own) && !KITS[m[1]!]!.includes(s.resolved!);
      })
      .map(show);
    // Debate's rating schemas still sit in the generic wire schemas (the SDK reads them there).
    expect(bad).toEqual([
      'packages/server/src/protocols/debate/ratings.ts: ../../schemas/ratings.ts',
      'packages/server/src/protocols/debate/routes.ts: ../../schemas/ratings.ts',
    ]);
  });
});

/** A test helper another package's tests may use: its test/ folder, or the root's. */
function isTestHelper(path: string): boolean {
  return path.startsWith('test/') || /(^|\/)test\//.test(path);
}

/** `packages/protocols/<p>/` of a file inside it. */
function protocolDir(path: string): string {
  return path.split('/').slice(0, 3).join('/') + '/';
}
