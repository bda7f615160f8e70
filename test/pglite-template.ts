// vitest setupFile: in-memory PGlite databases, and new ones on disk, start from a template instead
// of running initdb.
// A fresh PGlite runs initdb in WebAssembly, about two seconds of CPU each; the suites open dozens
// of in-memory stores (openStore({ memory: true })). The first one in a machine's tmpdir is made
// the usual way and its freshly initialised data directory dumped; every later in-memory PGlite
// (no extensions, default user and database; in memory or in a new, empty data directory) loads that
// dump, which is the same cluster initdb would produce. Existing data directories, and the product,
// are unaffected.
// A db8 store (the server's PGlite driver, which alone passes `parsers`) then runs the same bundled
// migrations every time, a second or two more: it starts from a second template, the first with
// those migrations applied (keyed by their text), so its migrate() finds nothing left to do.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import type { SqlDriver } from '../packages/server/src/store/driver.ts';
import { bundledMigrations, migrate } from '../packages/server/src/store/migrate.ts';

type Create = (dataDirOrOptions?: string | PGliteOptions, options?: PGliteOptions) => Promise<PGlite>;

// The template belongs to one PGlite build: key it by the installed version.
const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite'); // <pkg>/dist/index.cjs
const version: string = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')).version;
const DIR = join(tmpdir(), 'db8-test-pglite');
const FILE = join(DIR, `template-${version}.tar`);
const migrations = bundledMigrations();
const migrationsKey = createHash('sha256').update(JSON.stringify(migrations)).digest('hex').slice(0, 16);
const MIGRATED = join(DIR, `template-${version}-db8-${migrationsKey}.tar`);

/** Just enough of the server's SqlDriver for migrate(). */
function driverOf(db: PGlite): SqlDriver {
  type Runner = Pick<PGlite, 'query' | 'exec'>;
  const over = (r: Runner, tx: (fn: (q: SqlDriver) => Promise<unknown>) => Promise<unknown>): SqlDriver =>
    ({
      kind: 'pglite',
      query: async (sql: string, params: readonly unknown[] = []) =>
        (await r.query(sql, params as unknown[])).rows,
      exec: async (sql: string) => {
        await r.exec(sql);
      },
      tx,
      close: async () => {},
    }) as unknown as SqlDriver;
  const self = over(db, (fn) => db.transaction((t) => fn(over(t as unknown as Runner, (f) => f(self)))));
  return self;
}

const writeAtomic = (file: string, bytes: Uint8Array) => {
  mkdirSync(DIR, { recursive: true });
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  writeFileSync(tmp, bytes);
  renameSync(tmp, file); // atomic: a concurrent run reads either no file or a whole one
};

const patched = Symbol.for('db8.test.pglite-template');
/** PGlite.create as PGlite has it, kept under the symbol by the first module instance to patch it. */
const pglite = PGlite as unknown as { create: Create; [patched]?: Create };
pglite[patched] ??= pglite.create.bind(PGlite);
const create: Create = pglite[patched];

let template: Promise<Blob> | null = null;
const loadTemplate = async (): Promise<Blob> => {
  if (!existsSync(FILE)) {
    const db = await create();
    const dump = await db.dumpDataDir('none');
    await db.close();
    writeAtomic(FILE, new Uint8Array(await dump.arrayBuffer()));
  }
  return new Blob([readFileSync(FILE)]);
};
let migratedTemplate: Promise<Blob> | null = null;
const loadMigrated = async (): Promise<Blob> => {
  if (!existsSync(MIGRATED)) {
    template ??= loadTemplate();
    const db = await create({ loadDataDir: await template });
    await migrate(driverOf(db), migrations);
    const dump = await db.dumpDataDir('none');
    await db.close();
    writeAtomic(MIGRATED, new Uint8Array(await dump.arrayBuffer()));
  }
  return new Blob([readFileSync(MIGRATED)]);
};

/**
 * Both templates made now if missing (vitest's globalSetup, test/global-setup.ts): once, before any
 * worker starts, rather than by every worker at once on a fresh clone.
 */
export async function ensurePgliteTemplates(): Promise<void> {
  migratedTemplate ??= loadMigrated();
  await migratedTemplate;
}

// The server's on-disk store opens PGlite in a thread of its own, out of this patch's reach: a new
// data directory there starts from the migrated template through DB8_PGLITE_TEMPLATE
// (store/pglite-thread.ts), in this process and in the servers and CLIs the suites spawn. Made by
// globalSetup; a value already set (empty: the product's initdb) is kept.
if (existsSync(MIGRATED)) process.env.DB8_PGLITE_TEMPLATE ??= MIGRATED;

if (!(pglite.create as { db8Template?: true }).db8Template) {
  const templated: Create = (dataDirOrOptions, maybeOptions) => {
    const [dataDir, options] =
      typeof dataDirOrOptions === 'string'
        ? [dataDirOrOptions, maybeOptions ?? {}]
        : [dataDirOrOptions?.dataDir, dataDirOrOptions ?? {}];
    const inMemory = dataDir === undefined || dataDir === '' || dataDir === 'memory://';
    // PGlite runs initdb through an inner PGlite.create({ noInitDb: true, ... }): leave that alone.
    const internal = 'noInitDb' in options || 'pgDataProxyFs' in options;
    const plain =
      !internal &&
      !options.loadDataDir &&
      !options.extensions &&
      !options.fs &&
      !options.username &&
      !options.database;
    if (!plain) return create(dataDirOrOptions, maybeOptions);
    // A new data directory on disk starts from the same template (PGlite writes it there).
    const fresh =
      !inMemory &&
      dataDir !== undefined &&
      !dataDir.includes('://') &&
      (!existsSync(dataDir) || readdirSync(dataDir).length === 0);
    if (!inMemory && !fresh) return create(dataDirOrOptions, maybeOptions);
    const db8Store = options.parsers !== undefined;
    if (db8Store) migratedTemplate ??= loadMigrated();
    else template ??= loadTemplate();
    const from = (db8Store ? migratedTemplate : template) as Promise<Blob>;
    return from.then((loadDataDir) =>
      inMemory
        ? create({ ...options, dataDir: undefined, loadDataDir })
        : create(dataDir!, { ...options, loadDataDir }),
    );
  };
  pglite.create = Object.assign(templated, { db8Template: true as const });
}
