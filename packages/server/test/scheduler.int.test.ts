import type { PublicEntry } from '@db8/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalBus } from '../src/bus/local.ts';
import { DeadlineScheduler, type Runtime } from '../src/runtime/index.ts';
import type { Store } from '../src/store/index.ts';
import { makeRuntime } from './runtime.helpers.ts';
import { createPgSchema, pgStoreIn } from './store.helpers.ts';

/**
 * Two nodes on one PostgreSQL (separate pools, separate runtimes, one bus between them), each with
 * its own deadline scheduler armed for the same room: the tick lock lets one node tick each deadline.
 */
describe('deadline scheduler on PostgreSQL: a cluster ticks each deadline once', () => {
  let drop: () => Promise<void>;
  const stores: Store[] = [];
  const runtimes: Runtime[] = [];
  const schedulers: DeadlineScheduler[] = [];
  const bus = new LocalBus();

  beforeAll(async () => {
    const s = await createPgSchema();
    drop = s.drop;
    for (let i = 0; i < 2; i++) {
      const store = await pgStoreIn(s.schema, 4);
      const rt = makeRuntime(store, { bus });
      const sched = new DeadlineScheduler(rt, { bus, resyncMs: 0 });
      stores.push(store);
      runtimes.push(rt);
      schedulers.push(sched);
    }
    for (const s of schedulers) await s.start();
  });
  afterAll(async () => {
    for (const s of schedulers) await s.stop();
    for (const r of runtimes) await r.drain();
    for (const s of stores) await s.close();
    await drop?.();
  });

  it('both nodes arm the room; each of its deadlines gets exactly one tick entry', async () => {
    const [a] = runtimes;
    const { id } = await a!.createRoom({ protocol: 'counter', config: { turnMs: 150, target: 1000 } });
    const ticks: PublicEntry[] = [];
    await new Promise<void>((resolve) => {
      const off = bus.subscribe(id, (e) => {
        if (e.kind !== 'tick') return;
        ticks.push(e);
        if (ticks.length === 4) {
          off();
          resolve();
        }
      });
    });
    for (const s of schedulers) await expect.poll(() => s.deadlineOf(id)).not.toBeNull();
    const rows = (await stores[0]!.entries.range(id, 0)).filter((r) => r.kind === 'tick');
    const deadlines = rows.map(
      (r) => (JSON.parse(r.publicJson) as { payload: { deadline: number } }).payload.deadline,
    );
    expect(rows.length).toBeGreaterThanOrEqual(4);
    expect(new Set(deadlines).size).toBe(deadlines.length);
    for (const r of rows) {
      const e = JSON.parse(r.publicJson) as { ts: number; payload: { deadline: number } };
      expect(e.ts).toBeGreaterThanOrEqual(e.payload.deadline);
    }
  });
});
