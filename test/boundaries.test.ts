import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type ImportSite, importsOf, packageOf, sourceFiles, WORKSPACES } from './imports.ts';

// The layering, checked on every `npm test`: each workspace package declares what it imports, the
// packages depend on each other only downwards, and protocol code reaches the platform only through
// its kits. A rule broken here is an import to move or a kit to widen on purpose, not an allowlist.

const files = sourceFiles();
const sites: ImportSite[] = files.flatMap(importsOf);
const rootDevDeps = Object.keys(JSON.parse(readFileSync('package.json', 'utf8')).devDependencies ?? {});

/** The platform's workspace packages: none of them may import a protocol package or the app. */
const PLATFORM = ['@db8/core', '@db8/sdk', '@db8/agents', '@db8/server', '@db8/web', '@db8/cli'];
const PROTOCOLS = WORKSPACES.filter((w) => w.dir.startsWith('packages/protocols/')).map((w) => w.name);

/** The workspace packages each package may import (its own name aside): the allowed layering. */
const LAYERS: Record<string, readonly string[]> = {
  '@db8/core': [],
  '@db8/sdk': ['@db8/core', '@db8/server'],
  '@db8/agents': ['@db8/core', '@db8/sdk'],
  '@db8/server': ['@db8/core', '@db8/agents'],
  '@db8/web': ['@db8/core', '@db8/sdk'],
  '@db8/cli': ['@db8/core', '@db8/sdk', '@db8/agents', '@db8/server'],
  // A protocol builds on the platform; it never imports another protocol or the app.
  ...Object.fromEntries(PROTOCOLS.map((name) => [name, PLATFORM])),
  // The composition root: everything.
  db8: [...PLATFORM, ...PROTOCOLS],
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
    expect(crossing).toEqual([]);
  });
});

describe('protocol boundaries', () => {
  /** `[protocol, part]` of a file in packages/protocols/<protocol>/<part>/. */
  const partOf = (path: string) => /^packages\/protocols\/([^/]+)\/([^/]+)\//.exec(path)?.slice(1, 3);

  it("finds the protocol packages and each one's parts", () => {
    expect(PROTOCOLS.length).toBeGreaterThanOrEqual(6);
    const parts = new Set(files.filter((f) => !f.test).map((f) => partOf(f.path)?.[1]));
    for (const part of ['rules', 'server', 'web', 'cli', 'agent', 'client']) expect(parts).toContain(part);
  });

  it("keeps a protocol's rules pure: @db8/core, zod and its own rules only", () => {
    const allowed = new Set(['@db8/core', 'zod', 'ajv', 'ajv-formats', 'diff']);
    const bad = sites
      .filter((s) => !s.file.test && partOf(s.file.path)?.[1] === 'rules')
      .filter((s) => (s.bare ? !allowed.has(s.target) : !s.resolved?.startsWith(rulesDir(s.file.path))))
      .map(show);
    expect(bad).toEqual([]);
  });

  it('keeps every protocol name out of the platform packages', () => {
    const names = PROTOCOLS.map((n) => n.slice('@db8/'.length));
    const word = new RegExp(`(?<![\\w/.-])(${names.join('|')})(?![\\w-])`);
    const platform = files.filter((f) => !f.test && PLATFORM.includes(f.pkg.name));
    expect(platform.length).toBeGreaterThan(200);
    const hits = platform.flatMap((f) =>
      codeOf(readFileSync(f.path, 'utf8'))
        .split('\n')
        .flatMap((line, i) => (word.test(line) ? [`${f.path}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(hits).toEqual([]);
  });
});

describe('plugin surfaces', () => {
  /** Each side's kit: the only platform entries a protocol's part on that side may import. */
  const KITS: Record<string, readonly string[]> = {
    server: ['@db8/server/kit', '@db8/server/schemas'],
    web: ['@db8/web/kit'],
    cli: ['@db8/cli/kit', '@db8/cli/kit-run'],
  };
  /** Whole compositions inside a protocol package, not module code: they start a server. */
  const COMPOSITIONS = [
    // `db8 poker simulate`'s local table server (runtime, store, scheduler, the poker module).
    'packages/protocols/poker/server/standalone.ts',
    // `db8 demo`'s local debate server.
    'packages/protocols/debate/cli/demo.ts',
  ];

  it("has a protocol's server, web and CLI parts reach their platform side only through its kit", () => {
    const bad = sites
      .filter((s) => !s.file.test && s.bare && !COMPOSITIONS.includes(s.file.path))
      .filter((s) => {
        const part = /^packages\/protocols\/[^/]+\/(server|web|cli)\//.exec(s.file.path)?.[1];
        const side = /^@db8\/(server|web|cli)(\/|$)/.exec(s.spec)?.[1];
        return part !== undefined && side !== undefined && !KITS[side]!.includes(s.spec);
      })
      .map(show);
    expect(bad).toEqual([]);
  });

  it("never reaches into a platform package's files by path (only its entries and kits)", () => {
    const deep = sites
      .filter((s) => !s.file.test && s.bare && /^@db8\/[^/]+\/(src|test)\//.test(s.spec))
      .map(show);
    expect(deep).toEqual([]);
  });
});

/** A test helper another package's tests may use: its test/ folder, or the root's. */
function isTestHelper(path: string): boolean {
  return path.startsWith('test/') || /(^|\/)test\//.test(path);
}

/** `packages/protocols/<p>/rules/` of a file inside it. */
function rulesDir(path: string): string {
  return `${path.split('/').slice(0, 3).join('/')}/rules/`;
}

/** Source text without comments, strings kept: a protocol named in a comment is not code. */
function codeOf(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}
