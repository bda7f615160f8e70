#!/usr/bin/env node
// Build the web app (packages/app/web/dist) only when its inputs changed: `npm start` runs this first.
// The inputs are the app's web entry and config, the generic web package, every protocol's web/ and
// rules/ folders, the workspace sources the bundle imports (@db8/core, @db8/sdk) and the lockfile.
// Their content hash is written to packages/app/web/dist/.build-stamp after a build; the next run
// compares it and skips an unchanged tree. `--force` always builds.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WEB = join(ROOT, 'packages', 'app', 'web');
const DIST = join(WEB, 'dist');
const STAMP = join(DIST, '.build-stamp');
const PROTOCOLS = join(ROOT, 'packages', 'protocols');

/** Files and folders (relative to the repository) whose content makes the bundle. */
const INPUTS = [
  'package-lock.json',
  'packages/app/package.json',
  'packages/app/web/index.html',
  'packages/app/web/main.tsx',
  'packages/app/web/modules.ts',
  'packages/app/web/vite.config.ts',
  'packages/app/web/public',
  'packages/app/src/protocols.ts',
  'packages/web/package.json',
  'packages/web/tsconfig.json',
  'packages/web/src',
  'packages/core/package.json',
  'packages/core/src',
  'packages/sdk/package.json',
  'packages/sdk/src',
  ...(existsSync(PROTOCOLS)
    ? readdirSync(PROTOCOLS, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .flatMap((d) =>
          ['package.json', 'rules', 'web', 'client'].map((p) => `packages/protocols/${d.name}/${p}`),
        )
    : []),
];

function files(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .filter((d) => d.name !== 'node_modules' && !d.name.startsWith('.'))
    .flatMap((d) => files(join(path, d.name)));
}

function inputHash() {
  const hash = createHash('sha256');
  const all = [...new Set(INPUTS.flatMap((p) => files(join(ROOT, p))))]
    .map((f) => relative(ROOT, f).split(sep).join('/'))
    .sort();
  for (const rel of all) {
    hash.update(`${rel}\0`);
    hash.update(readFileSync(join(ROOT, rel)));
    hash.update('\0');
  }
  return `${hash.digest('hex')} ${all.length} files`;
}

const force = process.argv.includes('--force');
const want = inputHash();
const have = existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : '';
if (!force && have === want && existsSync(join(DIST, 'index.html'))) {
  console.log('web app up to date (packages/app/web/dist); `npm run build:web` rebuilds it');
  process.exit(0);
}

console.log(
  have ? 'web app sources changed: building packages/app/web/dist' : 'building packages/app/web/dist',
);
const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
const r = spawnSync(process.execPath, [vite, 'build'], { cwd: WEB, stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);
writeFileSync(STAMP, `${want}\n`);
