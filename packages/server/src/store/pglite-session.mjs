// One PGlite as one connection with a statement cache, shared by the in-process driver
// (pglite.ts) and the store's thread (pglite-worker.mjs). PGlite's own `query` parses, describes
// and plans every statement on every call (six protocol round trips into the wasm); here each SQL
// text is parsed once as a named prepared statement and then only bound and executed — one round
// trip, and Postgres switches to a cached generic plan. An append costs ~200 µs instead of ~750.
// Plain JavaScript for the same reason as the worker: it loads without a TypeScript loader.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite, protocol } from '@electric-sql/pglite';

const { serialize } = protocol;
/** Prepared statements kept per connection; the oldest is closed beyond this. */
const MAX_STATEMENTS = 200;
const INT8 = 20;
// int8 as a JS number, like the Postgres driver (our bigints are unix ms and counters, < 2^53).
const parsers = { [INT8]: (v) => Number(v) };
// The buffer pool is resident from the start (an idle PGlite on an existing directory: 140 MB with
// 128 kB, 167 MB with 16 MB, 207 MB with 64 MB; Postgres' default 128 MB more still). 16 MB holds an
// embedded server's hot pages (each room's newest entries and its head); the OS page cache is
// behind it, so a page read again is a copy, not a disk read.
const startParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

/**
 * Opens PGlite in `dataDir` ('memory': nothing on disk) as a session. Nothing in memory outlives
 * the process, so there a commit need not wait on its WAL write (~20% less per append). On disk
 * the WAL is written at each commit: that is what makes an acknowledged entry survive a crash of
 * the process. `template`: a PGlite dump (dumpDataDir, uncompressed) a new directory starts from
 * instead of running initdb; ignored where the directory already holds a database.
 */
export async function openPgliteSession(dataDir, { template } = {}) {
  if (dataDir === 'memory') {
    const db = await PGlite.create({ parsers, startParams });
    await db.exec('SET synchronous_commit = off');
    return pgliteSession(db);
  }
  const fresh = !existsSync(join(dataDir, 'PG_VERSION'));
  mkdirSync(dataDir, { recursive: true });
  const loadDataDir = template && fresh ? new Blob([readFileSync(template)]) : undefined;
  return pgliteSession(
    await PGlite.create(dataDir, { parsers, startParams, ...(loadDataDir ? { loadDataDir } : {}) }),
  );
}

/** One at a time, in call order (a promise chain). */
function serial() {
  let tail = Promise.resolve();
  return (fn) => {
    const run = tail.then(fn);
    tail = run.then(
      () => {},
      () => {},
    );
    return run;
  };
}

/**
 * Everything that touches `db` goes through one session, because PGlite does not lock the wire
 * protocol calls used here against its own queries: statements and transactions run one at a time;
 * inside a transaction its statements run in order on the open transaction.
 */
export function pgliteSession(db) {
  const statements = new Map(); // sql → { name, types, fields }
  let nextName = 0;
  const outside = serial();

  async function prepare(sql) {
    const hit = statements.get(sql);
    if (hit) {
      statements.delete(sql); // least recently used goes first
      statements.set(sql, hit);
      return hit;
    }
    const name = `db8_${nextName++}`;
    const { messages } = await db.execProtocol(
      Buffer.concat([
        serialize.parse({ name, text: sql }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    const params = messages.find((m) => m.name === 'parameterDescription');
    const rows = messages.find((m) => m.name === 'rowDescription');
    const st = {
      name,
      types: params?.dataTypeIDs ?? [],
      fields: rows?.fields.map((f) => ({ name: f.name, type: f.dataTypeID })) ?? [],
    };
    statements.set(sql, st);
    if (statements.size > MAX_STATEMENTS) {
      const [oldSql, old] = statements.entries().next().value;
      statements.delete(oldSql);
      await db.execProtocol(
        Buffer.concat([serialize.close({ type: 'S', name: old.name }), serialize.sync()]),
        {
          syncToFs: false,
        },
      );
    }
    return st;
  }

  async function query(sql, params, inTx) {
    const st = await prepare(sql);
    const values = params.map((v, i) => {
      if (v === null || v === undefined) return null;
      const ser = db.serializers[st.types[i]];
      return ser ? ser(v) : v.toString();
    });
    const { messages } = await db.execProtocol(
      Buffer.concat([
        serialize.bind({ statement: st.name, values }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      { syncToFs: !inTx },
    );
    const rows = [];
    for (const m of messages) {
      if (m.name !== 'dataRow') continue;
      const row = {};
      for (let i = 0; i < st.fields.length; i++) {
        const f = st.fields[i];
        const v = m.fields[i];
        const parse = db.parsers[f.type];
        row[f.name] = v === null ? null : parse ? parse(v, f.type) : v;
      }
      rows.push(row);
    }
    return rows;
  }

  return {
    /** One statement with $n parameters; rows as objects. */
    query: (sql, params = []) => outside(() => query(sql, params, false)),
    /** Statements without parameters (migrations). */
    exec: (sql) => outside(() => db.exec(sql)),
    /**
     * `fn` gets the open transaction's runner ({query, exec}); commit when it resolves, roll back
     * when it throws.
     */
    transaction: (fn) =>
      outside(() =>
        db.transaction((t) => {
          const inside = serial();
          return fn({
            query: (sql, params = []) => inside(() => query(sql, params, true)),
            exec: (sql) => inside(() => t.exec(sql)),
          });
        }),
      ),
    close: () => outside(() => db.close()),
  };
}
