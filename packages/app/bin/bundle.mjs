// The db8 CLI bundled with esbuild: plain JavaScript in a few files, which starts in a fraction of
// the time of the TypeScript sources through tsx's loader (hundreds of modules, each resolved and
// transformed). `db8 start` (bin/db8.js) builds it when absent and every command runs it when it
// matches the sources; the spawned-CLI tests use the same bundle (test/cli-bundle.ts). Cached in
// node_modules/.cache/db8-cli/<hash of the sources>/.
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CACHE = join(ROOT, 'node_modules', '.cache', 'db8-cli');
// A bundle nothing has used for this long is removed when another is built (use refreshes it).
const STALE_MS = 7 * 86_400_000;

// Packages left outside the bundle: they read files beside their own code (wasm, static assets,
// worker scripts) or are build tools. They are imported from node_modules at run time.
const EXTERNAL = [
  '@electric-sql/pglite',
  '@fastify/swagger',
  '@fastify/swagger-ui',
  'esbuild',
  'pino',
  'playwright-core',
  'thread-stream',
  'tsx',
  'vite',
];

function sourceFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    if (d.name === 'node_modules' || d.name === 'dist' || d.name === 'test' || d.name.startsWith('.'))
      return [];
    const path = join(dir, d.name);
    return d.isDirectory() ? sourceFiles(path) : [path];
  });
}

/** Content hash of everything the bundle is made of: workspace sources, manifests, the lockfile. */
export function sourceHash() {
  const hash = createHash('sha256');
  hash.update(readFileSync(join(ROOT, 'package-lock.json')));
  // The web app is not part of the CLI: its edits need no new bundle.
  const packages = readdirSync(join(ROOT, 'packages')).filter((name) => name !== 'web');
  for (const file of packages.flatMap((name) => sourceFiles(join(ROOT, 'packages', name))).sort()) {
    hash.update(`${relative(ROOT, file)}\0`);
    hash.update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 16);
}

const CLI_ENTRY = [
  `import { main } from ${JSON.stringify(join(ROOT, 'packages/app/src/main.ts'))};`,
  'process.exitCode = await main(process.argv.slice(2));',
].join('\n');

async function bundle(outdir, contents, name) {
  // A build tool, so imported only when a bundle is built.
  const { build } = await import('esbuild');
  await build({
    stdin: { contents, resolveDir: ROOT, sourcefile: `${name}.mjs`, loader: 'js' },
    outdir,
    entryNames: name,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // CommonJS dependencies call require(); give the ESM bundle one.
    banner: {
      js: "import { createRequire as __db8Require } from 'node:module'; const require = __db8Require(import.meta.url);",
    },
    external: EXTERNAL.flatMap((name) => [name, `${name}/*`]),
    logLevel: 'error',
    plugins: [
      {
        // Workspace code finds its own files (migrations, web dist, agent entry) from
        // import.meta.url: keep each module's own URL rather than the bundle's.
        name: 'db8-own-import-meta-url',
        setup(b) {
          b.onLoad({ filter: /[\\/]packages[\\/].*\.tsx?$/ }, (args) => {
            if (args.path.includes('node_modules')) return undefined;
            const text = readFileSync(args.path, 'utf8');
            return {
              contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
              loader: args.path.endsWith('x') ? 'tsx' : 'ts',
            };
          });
        },
      },
    ],
  });
}

function touch(dir) {
  try {
    const now = new Date();
    utimesSync(dir, now, now);
  } catch {
    // a read-only cache still runs
  }
}

/** The bundled CLI's entry for these sources if it is built, else null; marks it used. */
export function cachedCli(hash = sourceHash()) {
  const dir = join(CACHE, hash);
  const entry = join(dir, 'db8.mjs');
  if (!existsSync(entry)) return null;
  touch(dir);
  return entry;
}

/**
 * Keep marking a bundle used while a long-running command (a server) runs from it: its lazily
 * loaded chunks must outlive other builds' clean-up of unused bundles.
 */
export function keepInUse(entry) {
  setInterval(() => touch(dirname(entry)), 3_600_000).unref();
}

/** The bundled CLI's entry for these sources, built (once, whatever runs at the same time) if absent. */
export function prebuiltCli() {
  return prebuilt(sourceHash(), CLI_ENTRY, 'db8');
}

/**
 * A test's own entry script (e.g. a server process for the durability suites) bundled the same
 * way, so each spawn starts plain JavaScript; cached by the sources and the script.
 */
export function prebuiltScript(file) {
  const hash = createHash('sha256').update(sourceHash()).update(readFileSync(file)).digest('hex');
  const name = basename(file).replace(/\.[cm]?tsx?$/, '');
  return prebuilt(hash.slice(0, 16), `import ${JSON.stringify(file)};`, name);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function prebuilt(hash, contents, name) {
  const dir = join(CACHE, hash);
  const entry = join(dir, `${name}.mjs`);
  const lock = `${dir}.lock`;
  mkdirSync(CACHE, { recursive: true });
  while (!existsSync(entry)) {
    try {
      mkdirSync(lock); // the builder holds this; other processes wait for its result
    } catch {
      // Wait while the builder lives, however long a busy machine makes the build; a builder
      // that died (its pid gone) leaves the lock to be taken over.
      if (builderAlive(lock)) {
        await sleep(200);
        continue;
      }
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    writeFileSync(join(lock, 'pid'), String(process.pid));
    try {
      if (!existsSync(entry)) {
        const tmp = `${dir}.tmp-${process.pid}`;
        await bundle(tmp, contents, name);
        rmSync(dir, { recursive: true, force: true });
        renameSync(tmp, dir);
        removeStale(dir);
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return entry;
}

/** Whether the process holding `lock` still runs (a lock just made, its pid not yet written, does). */
export function builderAlive(lock) {
  let text = '';
  try {
    text = readFileSync(join(lock, 'pid'), 'utf8');
  } catch (e) {
    if (e.code !== 'ENOENT') return false;
  }
  if (text === '') {
    // No pid yet: a builder between mkdir and writing it, unless the lock is old (left by a version
    // of this file that wrote none).
    try {
      return Date.now() - statSync(lock).mtimeMs < 10 * 60_000;
    } catch {
      return true; // the lock is gone: loop and look again
    }
  }
  const pid = Number(text);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM'; // alive, someone else's
  }
}

/** Drop bundles of other sources that nothing has used for a week. */
function removeStale(keep) {
  for (const name of readdirSync(CACHE)) {
    const path = join(CACHE, name);
    try {
      if (path !== keep && Date.now() - statSync(path).mtimeMs > STALE_MS)
        rmSync(path, { recursive: true, force: true });
    } catch {
      // removed meanwhile
    }
  }
}
