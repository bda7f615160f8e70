// The on-disk store's DB8_PGLITE_TEMPLATE (store/pglite-thread.ts): a new data directory starts from
// the named dump and an existing one is never replaced by it. The suites set it for every server
// (test/pglite-template.ts); the product's path without it (initdb in a thread of its own) is the
// store contract's on-disk run (store.test.ts, store.helpers.ts pgliteDiskStore).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../src/store/index.ts';

const migrated = process.env.DB8_PGLITE_TEMPLATE;
const dir = mkdtempSync(join(tmpdir(), 'db8-pglite-template-'));
const dataDir = (name: string) => join(dir, name);

/** A dump of the migrated template with one more table, `marker`, holding `name`. */
async function markedTemplate(name: string): Promise<string> {
  const db = await PGlite.create({ loadDataDir: new Blob([readFileSync(migrated!)]) });
  await db.exec(`CREATE TABLE marker (name text); INSERT INTO marker VALUES ('${name}')`);
  const dump = await db.dumpDataDir('none');
  await db.close();
  const file = join(dir, `${name}.tar`);
  writeFileSync(file, new Uint8Array(await dump.arrayBuffer()));
  return file;
}

const markers = async (store: Store): Promise<string[]> =>
  (await store.db.query<{ name: string }>('SELECT name FROM marker')).map((r) => r.name);

async function room(store: Store, id: string) {
  await store.rooms.create(
    {
      id,
      protocol: 'counter',
      protocolVersion: 1,
      configJson: '{"seats":2}',
      title: id,
      createdBy: null,
      createdAt: 1000,
      seed: 'ab'.repeat(32),
      deadlineAt: null,
    },
    [{ seat: 'p1', role: 'player' }],
  );
}

let first: string;
let second: string;
beforeAll(async () => {
  expect(migrated, 'test/pglite-template.ts sets DB8_PGLITE_TEMPLATE').toBeTruthy();
  first = await markedTemplate('first');
  second = await markedTemplate('second');
});
afterEach(() => {
  process.env.DB8_PGLITE_TEMPLATE = migrated;
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('DB8_PGLITE_TEMPLATE', () => {
  it('a new data directory starts from the template; an existing one keeps its database', async () => {
    process.env.DB8_PGLITE_TEMPLATE = first;
    let store = await openStore({ dataDir: dataDir('kept'), env: false });
    expect(await markers(store)).toEqual(['first']);
    await room(store, 'r-kept');
    await store.close();

    process.env.DB8_PGLITE_TEMPLATE = second;
    store = await openStore({ dataDir: dataDir('kept'), env: false });
    expect(await markers(store)).toEqual(['first']);
    expect((await store.rooms.get('r-kept'))?.title).toBe('r-kept');
    await store.close();
  });
});
