import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import ts from 'typescript';

// The workspace's import graph as the boundary tests (boundaries.test.ts) read it: every source
// file of every workspace package and what it imports, found by TypeScript's own pre-processor
// (static, dynamic and type-only imports and re-exports; comments and strings are not imports).

export interface Workspace {
  name: string;
  /** Relative to the repository root, e.g. `packages/server`. */
  dir: string;
  /** `dependencies`: what its published code may import. */
  deps: string[];
  /** `dependencies` and `devDependencies`: what its tests may import too. */
  allDeps: string[];
}

export interface SourceFile {
  /** Relative to the repository root. */
  path: string;
  pkg: Workspace;
  /** A test, fixture or config file rather than shipped code. */
  test: boolean;
}

export interface ImportSite {
  file: SourceFile;
  spec: string;
  /** A package name (`zod`, `@db8/core`), not a relative path. */
  bare: boolean;
  /** The package a bare import names; the spec itself for a relative one. */
  target: string;
  /** The file a relative import names, relative to the root. */
  resolved?: string;
}

const readJson = (p: string) => JSON.parse(readFileSync(p, 'utf8'));

/** The workspace folders, each `dir/*` entry expanded to the folders in it that hold a package.json. */
const workspaceDirs = (readJson('package.json').workspaces as string[]).flatMap((entry) =>
  entry.endsWith('/*')
    ? readdirSync(entry.slice(0, -2))
        .map((name) => `${entry.slice(0, -2)}/${name}`)
        .filter((dir) => statSync(join(dir, 'package.json'), { throwIfNoEntry: false }))
        .sort()
    : [entry],
);

export const WORKSPACES: readonly Workspace[] = workspaceDirs.map((dir) => {
  const pj = readJson(join(dir, 'package.json'));
  const deps = Object.keys(pj.dependencies ?? {});
  return { name: pj.name, dir, deps, allDeps: [...deps, ...Object.keys(pj.devDependencies ?? {})] };
});

/** The workspace package a root-relative path lies in (the deepest one), if any. */
export function packageOf(path: string): Workspace | undefined {
  let best: Workspace | undefined;
  for (const w of WORKSPACES)
    if (path.startsWith(`${w.dir}/`) && (!best || w.dir.length > best.dir.length)) best = w;
  return best;
}

const SOURCE = /\.(ts|tsx|mts|mjs|js)$/;
const SKIP = new Set(['node_modules', 'dist', '.db8']);

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    if (SKIP.has(f)) return [];
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : SOURCE.test(f) ? [p] : [];
  });
}

export function sourceFiles(): SourceFile[] {
  const out: SourceFile[] = [];
  for (const w of WORKSPACES) {
    for (const path of walk(w.dir)) {
      if (packageOf(path) !== w) continue;
      const test = /(^|\/)test\//.test(path.slice(w.dir.length)) || /\.config\.ts$/.test(path);
      out.push({ path, pkg: w, test });
    }
  }
  return out;
}

/** A bare specifier's package: `@scope/name` or `name`. */
const packageName = (spec: string) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');

export function importsOf(file: SourceFile): ImportSite[] {
  const info = ts.preProcessFile(readFileSync(file.path, 'utf8'), true, true);
  return info.importedFiles
    .map((f) => f.fileName)
    .filter((spec) => !spec.startsWith('node:') && !spec.startsWith('#'))
    .map((spec) => {
      if (!spec.startsWith('.')) return { file, spec, bare: true, target: packageName(spec) };
      return { file, spec, bare: false, target: spec, resolved: normalize(join(dirname(file.path), spec)) };
    });
}
