import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SqlDriver } from './driver.ts';

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: WireError };
interface WireError {
  message: string;
  code?: string;
  constraint?: string;
}

/** A Postgres error from the store's thread, with the fields callers test (isUniqueViolation). */
export class PgliteThreadError extends Error {
  readonly code?: string;
  readonly constraint?: string;
  constructor(e: WireError) {
    super(e.message);
    Object.assign(this, e);
    this.name = 'PgliteThreadError';
  }
}

/**
 * The on-disk embedded store in a worker thread (pglite-worker.mjs): every statement runs off the
 * server's event loop, so the wasm Postgres and the server's own work use both cores as with a
 * Postgres server. Same contract as the in-process driver: one connection whose statements and
 * transactions run one at a time (pglite-session.mjs); a transaction stays open in the worker while
 * `fn` runs here.
 */
export async function pgliteThreadDriver(dataDir: string): Promise<SqlDriver> {
  // DB8_PGLITE_TEMPLATE names a dump a new database starts from instead of initdb (the test suites
  // set it to a migrated one, test/pglite-template.ts: a second or more of CPU saved per server).
  const template = process.env.DB8_PGLITE_TEMPLATE || undefined;
  // Creating the database (initdb) leaves ~400 MB of the thread's memory in use for good: a thread
  // of its own creates it and exits, and the store's thread opens what it made.
  if (!template && !existsSync(join(dataDir, 'PG_VERSION'))) await closeWorker(await startWorker(dataDir));
  const worker = await startWorker(dataDir, template);
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let nextTx = 1;
  let failed: Error | null = null;

  const failAll = (err: Error) => {
    failed = err;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  worker.on('message', (r: Reply) => {
    const p = pending.get(r.id);
    if (!p) return;
    pending.delete(r.id);
    if (r.ok) p.resolve(r.value);
    else p.reject(new PgliteThreadError(r.error));
  });
  worker.on('error', (err) => failAll(err));
  worker.on('exit', (code) => failAll(new Error(`the embedded store's thread exited (${code})`)));

  const call = <T>(msg: Record<string, unknown>): Promise<T> => {
    if (failed) return Promise.reject(failed);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      worker.postMessage({ ...msg, id });
    });
  };

  const runner = (tx?: number): SqlDriver => {
    const self: SqlDriver = {
      kind: 'pglite',
      query: <T>(sql: string, params: readonly unknown[] = []) =>
        call<T[]>({ op: 'query', sql, params, ...(tx !== undefined ? { tx } : {}) }),
      exec: async (sql: string) => {
        await call({ op: 'exec', sql, ...(tx !== undefined ? { tx } : {}) });
      },
      async tx<T>(fn: (q: SqlDriver) => Promise<T>): Promise<T> {
        if (tx !== undefined) return fn(self);
        const id = nextTx++;
        await call({ op: 'begin', tx: id });
        let out: T;
        try {
          out = await fn(runner(id));
        } catch (err) {
          await call({ op: 'end', tx: id, commit: false }).catch(() => {});
          throw err;
        }
        await call({ op: 'end', tx: id, commit: true });
        return out;
      },
      async close() {
        if (tx !== undefined) return;
        try {
          await call({ op: 'close' });
        } finally {
          await worker.terminate();
        }
      },
    };
    return self;
  };
  return runner();
}

/** The store's thread, once it has opened the database in `dataDir` (creating it if absent). */
async function startWorker(dataDir: string, template?: string): Promise<Worker> {
  const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), {
    workerData: { dataDir, template },
    // The thread's JavaScript is a thin relay (the database lives in WebAssembly memory): it needs no
    // young generation as large as the server's (`npm start` raises the main thread's for load).
    resourceLimits: { maxYoungGenerationSizeMb: 8 },
  });
  await new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', () => {
      worker.off('error', reject);
      resolve();
    });
  });
  return worker;
}

/** Closes the thread's database (a clean shutdown: nothing to recover at the next open), then the thread. */
async function closeWorker(worker: Worker): Promise<void> {
  try {
    await new Promise<void>((resolve, reject) => {
      worker.once('message', (r: Reply) => (r.ok ? resolve() : reject(new PgliteThreadError(r.error))));
      worker.once('error', reject);
      worker.postMessage({ op: 'close', id: 0 });
    });
  } finally {
    await worker.terminate();
  }
}
