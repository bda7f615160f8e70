// The embedded store's own thread: owns one on-disk PGlite and runs what the main thread's
// driver (pglite-thread.ts) posts, so the wasm Postgres runs beside the server's event loop
// instead of on it. Plain JavaScript on purpose: the same file loads under tsx, vitest and the
// CLI's esbuild bundle (which keeps each module's own import.meta.url) without a TypeScript loader.
import { parentPort, workerData } from 'node:worker_threads';
import { openPgliteSession } from './pglite-session.mjs';

/** The fields of a Postgres error the server reads (SQLSTATE, constraint), across the boundary. */
function errorOf(err) {
  const e = err ?? {};
  const out = { message: String(e.message ?? err) };
  for (const k of ['code', 'constraint', 'detail', 'schema', 'table', 'column', 'severity']) {
    if (typeof e[k] === 'string') out[k] = e[k];
  }
  return out;
}

const db = await openPgliteSession(workerData.dataDir, { template: workerData.template });
/** Open transactions: id → the queue of statements posted for it and a wake-up for the loop. */
const txs = new Map();

function reply(id, ok, value) {
  parentPort.postMessage(ok ? { id, ok, value } : { id, ok, error: errorOf(value) });
}

async function run(runner, m) {
  if (m.op === 'query') return await runner.query(m.sql, m.params);
  await runner.exec(m.sql);
  return null;
}

/** A transaction stays open while the main thread's callback runs, taking its statements in order. */
function begin(m) {
  const tx = { queue: [], wake: null, began: false, endId: null };
  txs.set(m.tx, tx);
  db.transaction(async (t) => {
    tx.began = true;
    reply(m.id, true, null);
    for (;;) {
      const next = tx.queue.shift() ?? (await new Promise((r) => (tx.wake = r)));
      tx.wake = null;
      if (next.op === 'end') {
        tx.endId = next.id;
        if (next.commit) return;
        throw Object.assign(new Error('rolled back'), { rollback: true });
      }
      try {
        reply(next.id, true, await run(t, next));
      } catch (err) {
        reply(next.id, false, err);
      }
    }
  }).then(
    () => {
      txs.delete(m.tx);
      reply(tx.endId, true, null);
    },
    (err) => {
      txs.delete(m.tx);
      if (!tx.began)
        reply(m.id, false, err); // BEGIN itself failed
      else if (err?.rollback)
        reply(tx.endId, true, null); // the rollback the main thread asked for
      else reply(tx.endId, false, err); // COMMIT failed
    },
  );
}

parentPort.on('message', (m) => {
  if (m.op === 'begin') return begin(m);
  if (m.tx !== undefined) {
    const tx = txs.get(m.tx);
    if (!tx) return reply(m.id, false, new Error(`no open transaction ${m.tx}`));
    tx.queue.push(m);
    tx.wake?.(tx.queue.shift());
    return;
  }
  if (m.op === 'close') {
    db.close().then(
      () => reply(m.id, true, null),
      (err) => reply(m.id, false, err),
    );
    return;
  }
  run(db, m).then(
    (v) => reply(m.id, true, v),
    (err) => reply(m.id, false, err),
  );
});

parentPort.postMessage({ ready: true });
