import type { Viewer } from '@db8/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PATIENCE_MS } from '../../../test/patience.ts';
import { LocalBus } from '../src/bus/local.ts';
import type { FeedRuntime } from '../src/kit/runtime.ts';
import type { Frame } from '../src/realtime/frame.ts';
import { RealtimeHub } from '../src/realtime/hub.ts';
import type { Runtime } from '../src/runtime/index.ts';
import type { State } from '../src/schemas/rest.ts';
import type { Store } from '../src/store/index.ts';
import { sharedStore } from './app-harness.ts';
import { makeRuntime } from './runtime.helpers.ts';

let store: Store;
beforeAll(async () => {
  store = await sharedStore();
});
afterAll(async () => {
  await store.close();
});
const hubs: RealtimeHub[] = [];
afterEach(() => {
  for (const h of hubs.splice(0)) h.close();
});

/** What one subscriber's transport was handed, batch by batch (a batch is one socket write). */
class Client {
  readonly batches: Array<Array<['entry' | 'state', number]>> = [];
  private open: Array<['entry' | 'state', number]> | null = null;
  constructor(
    readonly viewer: Viewer,
    private readonly order: string[],
    readonly name: string,
  ) {}
  private push(kind: 'entry' | 'state', f: Frame) {
    if (this.open) this.open.push([kind, f.seq]);
    else this.batches.push([[kind, f.seq]]);
  }
  readonly sink = {
    entry: (f: Frame) => this.push('entry', f),
    state: (f: Frame) => {
      this.push('state', f);
      this.lastState = f.body as State;
    },
    fail: (err: unknown) => {
      throw err;
    },
    batch: (fn: () => void) => {
      this.open = [];
      fn();
      if (this.open.length > 0) {
        this.batches.push(this.open);
        this.order.push(this.name);
      }
      this.open = null;
    },
  };
  lastState: State | null = null;
}

/** A hub over `api` (a runtime with counting wrappers), closed after the test. */
function hubOver(api: FeedRuntime, bus: LocalBus): RealtimeHub {
  const hub = new RealtimeHub({ runtime: api, store, bus, clock: Date.now }, 60_000);
  hubs.push(hub);
  return hub;
}

async function until(cond: () => boolean, what: string): Promise<void> {
  for (const end = Date.now() + PATIENCE_MS; !cond(); ) {
    if (Date.now() > end) throw new Error(`never: ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Issue 13: one delivery per append per subscriber, from the commit, the seat to act first. */
describe('realtime: an append goes out once, from the committed room', () => {
  it('entry and state in one batch per subscriber, no store read, no stateFor, the seat to act first', async () => {
    const bus = new LocalBus();
    const rt: Runtime = makeRuntime(store, { bus });
    const room = await rt.createRoom({ protocol: 'counter', config: { target: 10 ** 6 } });
    const calls = { entries: 0, stateFor: 0 };
    const api: FeedRuntime = Object.assign(Object.create(rt) as Runtime, {
      entries: (...a: Parameters<Runtime['entries']>) => {
        calls.entries++;
        return rt.entries(...a);
      },
      stateFor: (...a: Parameters<Runtime['stateFor']>) => {
        calls.stateFor++;
        return rt.stateFor(...a);
      },
      stateNow: (...a: Parameters<Runtime['stateNow']>) => {
        const v = a[1];
        order.push(`build:${v.kind === 'seat' ? v.seat : v.kind}`);
        return rt.stateNow(...a);
      },
    });
    const hub = hubOver(api, bus);
    const order: string[] = [];
    // Subscribed observer first, then p1, then p2: delivery order must not follow this.
    const clients = [
      new Client({ kind: 'observer' }, order, 'observer'),
      new Client({ kind: 'seat', seat: 'p1' }, order, 'p1'),
      new Client({ kind: 'seat', seat: 'p2' }, order, 'p2'),
    ];
    for (const c of clients) void hub.subscribe(room.id, c.viewer, room.seq, c.sink).start();
    await until(() => clients.every((c) => c.lastState !== null), 'initial states');
    for (const c of clients) c.batches.length = 0;
    order.length = 0;
    calls.entries = 0;
    calls.stateFor = 0;

    const appends = 6;
    let last = room.seq;
    for (let i = 0; i < appends; i++) {
      const seat = i % 2 === 0 ? 'p1' : 'p2';
      last = (await rt.act(room.id, { seat, action: { type: 'inc', by: 1 } })).seq;
      // The channel fans out in the loop turn after the commit (the writer's ack first).
      await new Promise((r) => setImmediate(r));
      const next = i % 2 === 0 ? 'p2' : 'p1';
      // States are built in subscription order; the seat whose turn it now is hears as soon as its
      // state is built, before the states after it are built, and before anyone else hears.
      expect(order.splice(0)).toEqual(
        next === 'p1'
          ? ['build:observer', 'build:p1', 'p1', 'build:p2', 'observer', 'p2']
          : ['build:observer', 'build:p1', 'build:p2', 'p2', 'observer', 'p1'],
      );
    }
    for (const c of clients) {
      // One batch per append: its entry, then the state after it (was: entry, then a later state).
      expect(c.batches).toEqual(
        Array.from({ length: appends }, (_, i) => [
          ['entry', room.seq + i + 1],
          ['state', room.seq + i + 1],
        ]),
      );
      expect(c.lastState?.seq).toBe(last);
    }
    expect(clients[2]?.lastState?.turn_token ?? null).toBeNull(); // p1's turn after 6 incs
    expect(clients[1]?.lastState?.turn_token).toEqual(expect.any(String));
    // This node committed every entry and holds the room: nothing read back, no queued state read.
    expect(calls.entries).toBe(0);
    expect(calls.stateFor).toBe(0);
  });
});

describe('realtime: a subscriber may follow entries only', () => {
  it('gets one frame per append and no state; a class nobody wants state for builds none', async () => {
    const bus = new LocalBus();
    const rt: Runtime = makeRuntime(store, { bus });
    const room = await rt.createRoom({ protocol: 'counter', config: { target: 10 ** 6 } });
    const built: string[] = [];
    const api: FeedRuntime = Object.assign(Object.create(rt) as Runtime, {
      stateNow: (...a: Parameters<NonNullable<Runtime['stateNow']>>) => {
        built.push(a[1].kind === 'seat' ? a[1].seat : a[1].kind);
        return rt.stateNow(...a);
      },
    });
    const hub = hubOver(api, bus);
    const order: string[] = [];
    const withState = new Client({ kind: 'observer' }, order, 'observer');
    const entriesOnly = new Client({ kind: 'observer' }, order, 'observer, entries only');
    const seatEntriesOnly = new Client({ kind: 'seat', seat: 'p1' }, order, 'p1, entries only');
    const { state: _a, ...onlyEntries } = entriesOnly.sink;
    const { state: _b, ...seatOnlyEntries } = seatEntriesOnly.sink;
    void hub.subscribe(room.id, withState.viewer, room.seq, withState.sink).start();
    void hub.subscribe(room.id, entriesOnly.viewer, room.seq, onlyEntries).start();
    void hub.subscribe(room.id, seatEntriesOnly.viewer, room.seq, seatOnlyEntries).start();
    await until(() => withState.lastState !== null, 'initial state');
    for (const c of [withState, entriesOnly, seatEntriesOnly]) c.batches.length = 0;
    built.length = 0;

    for (let i = 0; i < 3; i++) {
      await rt.act(room.id, { seat: i % 2 === 0 ? 'p1' : 'p2', action: { type: 'inc', by: 1 } });
      await new Promise((r) => setImmediate(r)); // fanned out in the loop turn after the commit
    }
    await until(() => entriesOnly.batches.length >= 3 && withState.batches.length >= 3, 'three appends');
    const seqs = [1, 2, 3].map((i) => room.seq + i);
    expect(withState.batches).toEqual(
      seqs.map((s) => [
        ['entry', s],
        ['state', s],
      ]),
    );
    expect(entriesOnly.batches).toEqual(seqs.map((s) => [['entry', s]]));
    expect(seatEntriesOnly.batches).toEqual(seqs.map((s) => [['entry', s]]));
    expect(entriesOnly.lastState).toBeNull();
    // States were built for the observers' class (one of them wants it), never for p1's.
    expect(built).toContain('observer');
    expect(built).not.toContain('p1');
  });
});
