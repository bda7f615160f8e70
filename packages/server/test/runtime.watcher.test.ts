import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../src/runtime/index.ts';
import { openStore, type SqlDriver, Store } from '../src/store/index.ts';
import { fakeClock, makeRuntime } from './runtime.helpers.ts';

/** Records every statement and transaction the store runs. */
function recording(db: SqlDriver) {
  const log = { statements: [] as string[], txs: 0 };
  const wrap = (d: SqlDriver): SqlDriver => ({
    kind: d.kind,
    query: (sql, params) => {
      log.statements.push(sql);
      return d.query(sql, params);
    },
    exec: (sql) => {
      log.statements.push(sql);
      return d.exec(sql);
    },
    tx: (fn) => {
      log.txs++;
      return d.tx((q) => fn(wrap(q)));
    },
    close: () => d.close(),
  });
  return { db: wrap(db), log };
}

/** Issue 13: the deadline watcher on the embedded store. */
describe('deadline watcher, embedded store', () => {
  let base: Store;
  beforeAll(async () => {
    base = await openStore({ memory: true, env: false });
  });
  afterAll(async () => {
    await base.close();
  });

  it('a watcher tick on PGlite is one plain statement: no transaction, no advisory lock', async () => {
    const { db, log } = recording(base.db);
    const clock = fakeClock();
    const rt = makeRuntime(new Store(db), { clock, checkpointEvery: 1000, snapshotEvery: 1000 });
    const { id } = await rt.createRoom({ protocol: 'counter', config: { turnMs: 1000 } });
    clock.advance(1001);
    log.statements.length = 0;
    log.txs = 0;
    expect(await rt.tick(id, clock(), { exclusive: true })).toBe(1);
    expect(log.statements.filter((s) => /advisory/i.test(s))).toEqual([]);
    expect(log.txs).toBe(0); // was one transaction: lock + append
    expect(log.statements).toHaveLength(1);
  });

  it('a watcher pass ticks due rooms several at once, never more than its bound', async () => {
    const clock = fakeClock();
    const rt: Runtime = makeRuntime(base, { clock });
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      ids.push((await rt.createRoom({ protocol: 'counter', config: { turnMs: 1000 } })).id);
    }
    clock.advance(1001);
    let inFlight = 0;
    let most = 0;
    const tick = rt.tick.bind(rt);
    rt.tick = async (...a: Parameters<Runtime['tick']>) => {
      inFlight++;
      most = Math.max(most, inFlight);
      try {
        return await tick(...a);
      } finally {
        inFlight--;
      }
    };
    const written = await rt.tickDue(clock(), 100, 4);
    expect(written).toBeGreaterThanOrEqual(ids.length); // every room of this test (others may be due too)
    expect(most).toBe(4); // was 1: one room at a time
  });
});
