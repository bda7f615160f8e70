import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalBus } from '../src/bus/local.ts';
import { NatsBus } from '../src/bus/nats.ts';
import type { Runtime } from '../src/runtime/index.ts';
import { Store } from '../src/store/index.ts';
import { fakeClock, makeRuntime } from './runtime.helpers.ts';
import { counting, createPgSchema, pgStoreIn } from './store.helpers.ts';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

const READS = 20;
const observer = { kind: 'observer' } as const;

/** Issue 13: a Postgres node re-reads a room's tail only when another node wrote (the bus says so). */
describe('runtime on PostgreSQL: tail checks follow the bus', () => {
  let schema: string;
  let drop: () => Promise<void>;
  const closers: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    ({ schema, drop } = await createPgSchema());
  });
  afterAll(async () => {
    for (const c of closers.reverse()) await c();
    await drop?.();
  });

  async function node(bus: LocalBus | NatsBus) {
    const store = await pgStoreIn(schema, 3);
    const c = counting(store.db);
    const clock = fakeClock(Date.now());
    const rt: Runtime = makeRuntime(new Store(c.db), { bus, announcements: bus, clock });
    closers.push(async () => {
      await rt.drain();
      await store.close();
    });
    return { rt, count: c.count, clock };
  }

  it('state reads on one node run no statement while nothing new was announced', async () => {
    const bus = new LocalBus();
    const { rt, count } = await node(bus);
    const { id } = await rt.createRoom({ protocol: 'counter', config: { target: 10 ** 6 } });
    await rt.act(id, { seat: 'p1', action: { type: 'inc', by: 1 } });
    const before = count();
    for (let i = 0; i < READS; i++) {
      expect((await rt.stateFor(id, observer)).view).toMatchObject({ count: 1 });
    }
    // Without the bus heard, each read re-read the tail: READS statements.
    expect(count() - before).toBe(0);
  });

  it('the same reads without announcements check the tail each time (other writers unseen)', async () => {
    const store = await pgStoreIn(schema, 3);
    const c = counting(store.db);
    const rt = makeRuntime(new Store(c.db));
    closers.push(() => store.close());
    const { id } = await rt.createRoom({ protocol: 'counter', config: { target: 10 ** 6 } });
    const before = c.count();
    for (let i = 0; i < READS; i++) await rt.stateFor(id, observer);
    expect(c.count() - before).toBe(READS);
  });

  it('a stale check still runs after tailStaleMs, in case a bus message was lost', async () => {
    const bus = new LocalBus();
    const { rt, count, clock } = await node(bus);
    const { id } = await rt.createRoom({ protocol: 'counter', config: { target: 10 ** 6 } });
    const before = count();
    await rt.stateFor(id, observer);
    clock.advance(1000);
    await rt.stateFor(id, observer);
    await rt.stateFor(id, observer);
    expect(count() - before).toBe(1);
  });

  it('a seq read from the store elsewhere (realtime) is folded in before the next state', async () => {
    const silent = { subscribe: () => () => {} }; // hears nothing: as if the message were late
    const a = await node(new LocalBus());
    const storeB = await pgStoreIn(schema, 3);
    closers.push(() => storeB.close());
    const b = makeRuntime(storeB, { announcements: silent, clock: fakeClock(Date.now()) });
    const { id } = await a.rt.createRoom({ protocol: 'counter', config: { target: 10 ** 6 } });
    expect((await b.stateFor(id, observer)).seq).toBe(0);
    const ack = await a.rt.act(id, { seat: 'p1', action: { type: 'inc', by: 1 } });
    expect((await b.stateFor(id, observer)).seq).toBe(0); // trusted for tailStaleMs: nothing heard
    b.expectSeq(id, ack.seq);
    expect((await b.stateFor(id, observer)).seq).toBe(ack.seq);
  });

  it('two nodes on NATS: node B reads node A’s writes, re-reading the tail once per announcement', async () => {
    const busA = await NatsBus.connect(NATS_URL);
    const busB = await NatsBus.connect(NATS_URL);
    closers.push(
      () => busA.close(),
      () => busB.close(),
    );
    const a = await node(busA);
    const b = await node(busB);
    const { id } = await a.rt.createRoom({ protocol: 'counter', config: { target: 10 ** 6 } });
    expect((await b.rt.stateFor(id, observer)).view).toMatchObject({ count: 0 }); // B caches the room
    for (let round = 1; round <= 3; round++) {
      const ack = await a.rt.act(id, { seat: round % 2 ? 'p1' : 'p2', action: { type: 'inc', by: 1 } });
      // A's publish reached the server, then B's round trip: B has been handed the message.
      await busA.flush();
      await busB.flush();
      const before = b.count();
      for (let i = 0; i < READS; i++) {
        const s = await b.rt.stateFor(id, observer);
        expect(s.seq).toBe(ack.seq);
        expect(s.view).toMatchObject({ count: round });
      }
      expect(b.count() - before).toBe(1); // one tail read for the announced entry, then none
    }
    // B writes on top of what it heard without losing a race.
    const conflicts = b.rt.stats.conflicts;
    const ack = await b.rt.act(id, { seat: 'p2', action: { type: 'inc', by: 1 } });
    expect(ack.seq).toBe(4);
    expect(b.rt.stats.conflicts).toBe(conflicts);
    await busB.flush();
    await busA.flush();
    expect((await a.rt.stateFor(id, observer)).view).toMatchObject({ count: 4 });
  });
});
