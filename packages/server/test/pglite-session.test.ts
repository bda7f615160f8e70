import { afterEach, describe, expect, it } from 'vitest';
import type { SqlDriver } from '../src/store/driver.ts';
import { pgliteDriver } from '../src/store/pglite.ts';

// The embedded store's connection: each SQL text prepared once, everything one at a time.
describe('pglite session (prepared statements, one connection)', () => {
  let db: SqlDriver;
  afterEach(async () => {
    await db?.close();
  });

  it('binds and parses every type the store uses, nulls and arrays included', async () => {
    db = await pgliteDriver('memory');
    await db.exec('CREATE TABLE t (id text PRIMARY KEY, n int, big bigint, b boolean, note text)');
    await db.query(
      'INSERT INTO t SELECT * FROM unnest($1::text[], $2::int[], $3::bigint[], $4::bool[], $5::text[])',
      [
        ['a', 'b'],
        [1, null],
        [1_700_000_000_000, 2],
        [true, false],
        ['x "quoted" \\ back', null],
      ],
    );
    const rows = await db.query('SELECT * FROM t WHERE id = ANY($1::text[]) ORDER BY id', [['a', 'b']]);
    expect(rows).toEqual([
      { id: 'a', n: 1, big: 1_700_000_000_000, b: true, note: 'x "quoted" \\ back' },
      { id: 'b', n: null, big: 2, b: false, note: null },
    ]);
    // The same text again runs the statement prepared the first time, with new values.
    expect(await db.query('SELECT * FROM t WHERE id = ANY($1::text[]) ORDER BY id', [['b']])).toEqual([
      rows[1],
    ]);
  });

  it('keeps a bounded cache: statements evicted are prepared again when used', async () => {
    db = await pgliteDriver('memory');
    for (let i = 0; i < 260; i++)
      expect(await db.query(`SELECT $1::int + ${i} AS v`, [1])).toEqual([{ v: 1 + i }]);
    expect(await db.query('SELECT $1::int + 0 AS v', [5])).toEqual([{ v: 5 }]);
  });

  it('keeps SQLSTATE and constraint on errors, and the connection usable after them', async () => {
    db = await pgliteDriver('memory');
    await db.exec('CREATE TABLE u (k text PRIMARY KEY)');
    await db.query('INSERT INTO u VALUES ($1)', ['x']);
    const err = await db.query('INSERT INTO u VALUES ($1)', ['x']).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: '23505', constraint: 'u_pkey' });
    await expect(db.query('SELEC 1')).rejects.toMatchObject({ code: '42601' });
    expect(await db.query('SELECT count(*)::int AS n FROM u')).toEqual([{ n: 1 }]);
  });

  it('never runs a statement inside another caller’s open transaction', async () => {
    db = await pgliteDriver('memory');
    await db.exec('CREATE TABLE v (k int)');
    const tx = db.tx(async (q) => {
      await q.query('INSERT INTO v VALUES ($1)', [1]);
      await new Promise((r) => setTimeout(r, 30));
      await q.query('INSERT INTO v VALUES ($1)', [2]);
    });
    // Issued while the transaction is open: it waits for the commit, so it sees both rows.
    const seen = db.query('SELECT count(*)::int AS n FROM v');
    await tx;
    expect(await seen).toEqual([{ n: 2 }]);
    // A transaction that throws leaves nothing behind.
    await expect(
      db.tx(async (q) => {
        await q.query('INSERT INTO v VALUES ($1)', [3]);
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(await db.query('SELECT count(*)::int AS n FROM v')).toEqual([{ n: 2 }]);
  });
});
