import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PublicEntry } from '@db8/core';
import { afterEach, describe, expect, it } from 'vitest';
import { PATIENCE_MS } from '../../../test/patience.ts';
import { LocalBus } from '../src/bus/local.ts';
import { DeadlineScheduler, type Runtime } from '../src/runtime/index.ts';
import type { SchedulerRuntime, SchedulerTimers } from '../src/runtime/scheduler.ts';
import { openStore, type Store } from '../src/store/index.ts';
import { makeRuntime } from './runtime.helpers.ts';

/** Real timers, recorded: what the scheduler armed (delay) and which of them fired. */
function recordingTimers() {
  const armed: Array<{ ms: number; fired: boolean }> = [];
  const timers: SchedulerTimers = {
    set(fn, ms) {
      const rec = { ms, fired: false };
      armed.push(rec);
      const t = setTimeout(() => {
        rec.fired = true;
        fn();
      }, ms);
      t.unref();
      return t;
    },
    clear: (h) => clearTimeout(h as NodeJS.Timeout),
  };
  return { armed, timers };
}

/**
 * Resolves with the first entry of `kind` that `roomId` publishes on the bus. `onEntry` runs as it
 * is published (before any later timer can fire), for what a test must read at that instant.
 */
function nextEntry(
  bus: LocalBus,
  roomId: string,
  kind: string,
  onEntry: () => void = () => {},
  timeoutMs = PATIENCE_MS,
): Promise<PublicEntry> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no ${kind} entry in ${timeoutMs} ms`));
    }, timeoutMs);
    const off = bus.subscribe(roomId, (e) => {
      if (e.kind !== kind) return;
      clearTimeout(timer);
      off();
      onEntry();
      resolve(e);
    });
  });
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function memoryStore(): Promise<Store> {
  const store = await openStore({ memory: true });
  cleanups.push(() => store.close());
  return store;
}

function scheduler(rt: Runtime, opts: ConstructorParameters<typeof DeadlineScheduler>[1]) {
  const s = new DeadlineScheduler(rt, opts);
  cleanups.push(() => s.stop());
  return s;
}

async function ticksOf(store: Store, roomId: string) {
  return (await store.entries.range(roomId, 0)).filter((r) => r.kind === 'tick');
}

describe('DeadlineScheduler: one exact-deadline scheduler for every room', () => {
  it('ticks a room whose deadline is 300 ms away at its time, from one timer armed for it (no poll)', async () => {
    const store = await memoryStore();
    const bus = new LocalBus();
    const rt = makeRuntime(store, { bus });
    cleanups.push(() => rt.drain());
    const { armed, timers } = recordingTimers();
    const s = scheduler(rt, { bus, timers, resyncMs: 0 });
    await s.start();
    expect(armed).toEqual([]); // nothing pending: nothing armed, nothing polling

    const { id } = await rt.createRoom({ protocol: 'counter', config: { turnMs: 300 } });
    const deadline = (await store.rooms.get(id))?.deadlineAt as number;
    // Which timers had fired when the tick was published: a slow machine may reach the next
    // deadline (300 ms on) before the test reads them.
    let fired: Array<{ ms: number; fired: boolean }> = [];
    const tick = nextEntry(bus, id, 'tick', () => {
      fired = armed.filter((a) => a.fired);
    });
    const t = await tick;
    expect(t.ts).toBeGreaterThanOrEqual(deadline);
    expect((t as { payload?: unknown }).payload).toEqual({ deadline });
    // The tick came from the one timer armed for that deadline, its delay the time left then (0 if a
    // loaded machine got there late): no pass over the rooms ran before it.
    expect(fired).toHaveLength(1);
    expect(fired[0]!.ms).toBeGreaterThanOrEqual(0);
    expect(fired[0]!.ms).toBeLessThanOrEqual(300);
    // The tick moved the deadline on; the scheduler re-armed for the new one.
    const next = (await store.rooms.get(id))?.deadlineAt as number;
    expect(next).toBeGreaterThan(deadline);
    await expect.poll(() => s.deadlineOf(id)).toBe(next);
  });

  it('re-arms when an append moves a room deadline, and forgets a room that closes', async () => {
    const store = await memoryStore();
    const bus = new LocalBus();
    const rt = makeRuntime(store, { bus });
    cleanups.push(() => rt.drain());
    const s = scheduler(rt, { bus, resyncMs: 0 });
    await s.start();
    const { id } = await rt.createRoom({ protocol: 'counter', config: { turnMs: 60_000, target: 2 } });
    const first = (await store.rooms.get(id))?.deadlineAt as number;
    await expect.poll(() => s.deadlineOf(id)).toBe(first);
    await rt.join(id, { principal: 'a' });
    await rt.join(id, { principal: 'b' });
    await rt.act(id, { seat: 'p1', action: { type: 'inc', by: 1 } });
    const moved = (await store.rooms.get(id))?.deadlineAt as number;
    expect(moved).toBeGreaterThan(first);
    await expect.poll(() => s.deadlineOf(id)).toBe(moved);
    await rt.act(id, { seat: 'p2', action: { type: 'inc', by: 1 } }); // reaches the target: no deadline
    await expect.poll(() => s.deadlineOf(id)).toBeNull();
  });

  it("re-arms from the runtime's memory after its own appends (no row read back); an older head arriving late is ignored", async () => {
    const store = await memoryStore();
    const bus = new LocalBus();
    const rt = makeRuntime(store, { bus });
    cleanups.push(() => rt.drain());
    // Every read of a room row the scheduler makes, counted after the room is set up.
    let reads = 0;
    const view: SchedulerRuntime = {
      store: {
        rooms: {
          get: (id) => {
            reads++;
            return store.rooms.get(id);
          },
          deadlines: (after, limit) => store.rooms.deadlines(after, limit),
        },
      },
      now: () => rt.now(),
      headOf: (id) => rt.headOf(id),
      tick: (id, now, o) => rt.tick(id, now, o),
    };
    const s = new DeadlineScheduler(view, { bus, resyncMs: 0 });
    cleanups.push(() => s.stop());
    await s.start();
    const { id } = await rt.createRoom({ protocol: 'counter', config: { turnMs: 60_000, target: 3 } });
    await rt.join(id, { principal: 'a' });
    await rt.join(id, { principal: 'b' });
    reads = 0;
    await rt.act(id, { seat: 'p1', action: { type: 'inc', by: 1 } });
    const moved = (await store.rooms.get(id))?.deadlineAt as number;
    await expect.poll(() => s.deadlineOf(id)).toBe(moved);
    expect(reads).toBe(0);
    // A bus message for an earlier seq, delivered late, does not move the deadline back.
    const head = (await store.rooms.get(id))?.headSeq as number;
    s.refresh(id, head - 1);
    expect(s.deadlineOf(id)).toBe(moved);
    // A room this runtime does not hold in memory (another node wrote it) is read from the store.
    const other = makeRuntime(store, { bus });
    cleanups.push(() => other.drain());
    await other.act(id, { seat: 'p2', action: { type: 'inc', by: 1 } });
    await expect.poll(() => reads).toBeGreaterThan(0);
    const later = (await store.rooms.get(id))?.deadlineAt as number;
    await expect.poll(() => s.deadlineOf(id)).toBe(later);
  });
  it('a restart picks up a pending deadline from the store', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'db8-sched-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    let store = await openStore({ dataDir: dir });
    let rt = makeRuntime(store);
    const { id } = await rt.createRoom({ protocol: 'counter', config: { turnMs: 300 } });
    const deadline = (await store.rooms.get(id))?.deadlineAt as number;
    await rt.drain();
    await store.close(); // the server stops before the deadline, with no scheduler running

    store = await openStore({ dataDir: dir });
    cleanups.push(() => store.close());
    const bus = new LocalBus();
    rt = makeRuntime(store, { bus });
    cleanups.push(() => rt.drain());
    const tick = nextEntry(bus, id, 'tick');
    const s = scheduler(rt, { bus, resyncMs: 0 });
    await s.start();
    expect(s.deadlineOf(id)).toBe(deadline);
    expect((await tick).ts).toBeGreaterThanOrEqual(deadline);
    expect((await ticksOf(store, id)).map((r) => r.seq)).toHaveLength(1);
  });

  it('two runtimes on one store, each with a scheduler, tick each deadline once', async () => {
    const store = await memoryStore();
    const bus = new LocalBus();
    const a = makeRuntime(store, { bus });
    const b = makeRuntime(store, { bus });
    cleanups.push(
      () => a.drain(),
      () => b.drain(),
    );
    await scheduler(a, { bus, resyncMs: 0 }).start();
    await scheduler(b, { bus, resyncMs: 0 }).start();
    const { id } = await a.createRoom({ protocol: 'counter', config: { turnMs: 150, target: 1000 } });
    // Three deadlines in a row, each armed on both nodes.
    for (let i = 0; i < 3; i++) await nextEntry(bus, id, 'tick');
    const ticks = await ticksOf(store, id);
    const deadlines = ticks.map(
      (r) => (JSON.parse(r.publicJson) as { payload: { deadline: number } }).payload.deadline,
    );
    expect(new Set(deadlines).size).toBe(deadlines.length);
    expect(ticks.map((r) => r.seq)).toEqual([...new Set(ticks.map((r) => r.seq))]);
  });

  it('bounded concurrency: many rooms due at once are all ticked, at most N at a time', async () => {
    let now = 1_000;
    let inFlight = 0;
    let most = 0;
    const ticked: string[] = [];
    const rooms = Array.from({ length: 25 }, (_, i) => ({
      id: `r${String(i).padStart(2, '0')}`,
      deadlineAt: 900,
    }));
    const open = new Map(rooms.map((r) => [r.id, r.deadlineAt as number | null]));
    const fake: SchedulerRuntime = {
      now: () => now,
      store: {
        rooms: {
          deadlines: async (after) => (after ? [] : rooms),
          get: async (id) => ({ status: 'open', deadlineAt: open.get(id) ?? null }) as never,
        },
      },
      async tick(id) {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 5));
        inFlight--;
        ticked.push(id);
        open.set(id, null); // its deadline is spent
        return 1;
      },
    };
    const s = new DeadlineScheduler(fake, { concurrency: 4, resyncMs: 0 });
    cleanups.push(() => s.stop());
    await s.start();
    await expect.poll(() => ticked.length).toBe(25);
    expect(most).toBeLessThanOrEqual(4);
    expect(new Set(ticked).size).toBe(25);
    now += 1;
  });
});
