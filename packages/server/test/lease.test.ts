// Issue 23: work a cluster does once runs in the process holding its lease in the store.
import { afterEach, describe, expect, it } from 'vitest';
import { keepLease, type LeaseKeeper } from '../src/runtime/lease.ts';
import { pgliteMemoryStore, type TestStore } from './store.helpers.ts';

let t: TestStore | undefined;
const keepers: LeaseKeeper[] = [];
afterEach(async () => {
  for (const k of keepers.splice(0)) await k.stop();
  await t?.cleanup();
});

describe('keepLease', () => {
  it('one of two keepers leads; when it stops, the other takes over', async () => {
    t = await pgliteMemoryStore();
    const log: string[] = [];
    const keeper = async (name: string) => {
      const k = await keepLease(t!.store, 'work', {
        ttlMs: 60_000,
        retryMs: 100,
        lead: async () => void log.push(`${name} leads`),
        follow: async () => void log.push(`${name} follows`),
      });
      keepers.push(k);
      return k;
    };
    const a = await keeper('a');
    const b = await keeper('b');
    expect([a.held, b.held]).toEqual([true, false]);
    expect(await t.store.leases.holderOf('work')).toBe(a.holder);
    // A renewal by the holder keeps it; the other cannot take a lease that has not expired.
    expect(await t.store.leases.take('work', a.holder, 60_000)).toBe(true);
    expect(await t.store.leases.take('work', b.holder, 60_000)).toBe(false);

    await a.stop(); // a clean stop releases at once: b need not wait 60 s for the expiry
    await expect.poll(() => b.held).toBe(true);
    expect(log).toEqual(['a leads', 'a follows', 'b leads']);
    expect(await t.store.leases.holderOf('work')).toBe(b.holder);
  });

  it('an expired lease goes to whoever asks next', async () => {
    t = await pgliteMemoryStore();
    expect(await t.store.leases.take('w', 'one', 0)).toBe(true);
    // A lease of 0 ms expired at once (now() moves on between statements).
    await expect.poll(() => t!.store.leases.take('w', 'two', 60_000)).toBe(true);
    expect(await t.store.leases.holderOf('w')).toBe('two');
  });

  it('lists the unexpired leases under a plain prefix (no LIKE wildcards)', async () => {
    t = await pgliteMemoryStore();
    await t.store.leases.take('cup_1:slot:0', 'a', 60_000);
    await t.store.leases.take('cup_1:slot:1', 'b', 60_000);
    await t.store.leases.take('cupx1:slot:0', 'c', 60_000); // `_` is a wildcard to LIKE, not here
    await t.store.leases.take('cup_1:slot:2', 'd', 0); // expired
    await expect.poll(async () => (await t!.store.leases.live('cup_1:slot:')).length).toBe(2);
    expect(await t.store.leases.live('cup_1:slot:')).toEqual([
      { name: 'cup_1:slot:0', holder: 'a' },
      { name: 'cup_1:slot:1', holder: 'b' },
    ]);
  });
});
