import type { StoredEntry, Viewer } from '@db8/core';
import { createProtocolRegistry } from '@db8/core';
import { builtinProtocols } from 'db8/src/protocols.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PATIENCE_MS } from '../../../test/patience.ts';
import { LocalBus } from '../src/bus/local.ts';
import type { Bus } from '../src/bus/types.ts';
import type { FeedRuntime } from '../src/kit/runtime.ts';
import { envelope, envelopeJson } from '../src/realtime/envelope.ts';
import type { Subscription } from '../src/realtime/feed.ts';
import type { Frame } from '../src/realtime/frame.ts';
import { RealtimeHub } from '../src/realtime/hub.ts';
import { Runtime } from '../src/runtime/index.ts';
import type { State } from '../src/schemas/rest.ts';
import type { Store } from '../src/store/index.ts';
import { LossyBus, sharedStore } from './app-harness.ts';
import { AUCTION } from './routes-fixtures.ts';
import { TEST_KEY } from './runtime.helpers.ts';

let store: Store;
beforeAll(async () => {
  store = await sharedStore();
});
afterAll(async () => {
  await store.close();
});

/** Counts the store-backed reads realtime makes through the runtime. */
function counting(rt: Runtime) {
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
  });
  return { api, calls };
}

/** What one subscriber was sent. */
class Client {
  readonly entries: Frame[] = [];
  readonly states: Frame[] = [];
  readonly log: Array<['entry' | 'state', number]> = [];
  failed: unknown = null;
  sub!: Subscription;
  constructor(readonly viewer: Viewer) {}
  readonly sink = {
    entry: (f: Frame) => {
      this.entries.push(f);
      this.log.push(['entry', f.seq]);
    },
    state: (f: Frame) => {
      this.states.push(f);
      this.log.push(['state', f.seq]);
    },
    fail: (err: unknown) => {
      this.failed = err;
    },
  };
  get seqs(): number[] {
    return this.entries.map((f) => f.seq);
  }
  get lastState(): State | undefined {
    return this.states.at(-1)?.body as State | undefined;
  }
}

interface Setup {
  rt: Runtime;
  hub: RealtimeHub;
  roomId: string;
  calls: { entries: number; stateFor: number };
  bid(seat: 'bidder_1' | 'bidder_2', amount: number): Promise<number>;
}

const hubs: RealtimeHub[] = [];
afterEach(() => {
  for (const h of hubs.splice(0)) h.close();
});

async function setup(opts: { bus?: Bus; pollMs?: number; buffer?: number } = {}): Promise<Setup> {
  const bus = opts.bus ?? new LocalBus();
  const rt = new Runtime({
    store,
    protocols: createProtocolRegistry(builtinProtocols),
    serverKey: TEST_KEY,
    bus,
  });
  const room = await rt.createRoom({ protocol: 'sealed-bid', config: AUCTION });
  await rt.join(room.id, { seat: 'bidder_1', principal: 'p1' });
  await rt.join(room.id, { seat: 'bidder_2', principal: 'p2' });
  const { api, calls } = counting(rt);
  const hub = new RealtimeHub(
    { runtime: api, store, bus, clock: Date.now },
    opts.pollMs ?? 60_000,
    opts.buffer,
  );
  hubs.push(hub);
  return {
    rt,
    hub,
    roomId: room.id,
    calls,
    bid: async (seat, amount) => (await rt.act(room.id, { seat, action: { type: 'bid', amount } })).seq,
  };
}

function watch(s: Setup, viewer: Viewer, since: number): Client {
  const c = new Client(viewer);
  c.sub = s.hub.subscribe(s.roomId, viewer, since, c.sink);
  void c.sub.start();
  return c;
}

async function until(cond: () => boolean, what: string, ms = PATIENCE_MS): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const sealedPayload = (f: Frame) => (f.body as StoredEntry).sealed?.payload;

describe('realtime room channel', () => {
  it('reads each append once and builds state once per viewer class, however many subscribers', async () => {
    const s = await setup();
    const head = (await s.rt.getRoom(s.roomId)).seq;
    const viewers: Viewer[] = [
      ...Array.from({ length: 20 }, (): Viewer => ({ kind: 'observer' })),
      ...Array.from({ length: 20 }, (): Viewer => ({ kind: 'seat', seat: 'bidder_1' })),
      ...Array.from({ length: 19 }, (): Viewer => ({ kind: 'seat', seat: 'bidder_2' })),
      { kind: 'admin' },
    ];
    const clients = viewers.map((v) => watch(s, v, head));
    await until(() => clients.every((c) => c.states.length > 0), 'initial states');
    expect(s.hub.size).toEqual({ rooms: 1, feeds: 60 });
    // Joining at the head: the channel's one read, not one per subscriber.
    expect(s.calls.entries).toBeLessThanOrEqual(2);
    expect(s.calls.stateFor).toBeLessThanOrEqual(4);

    s.calls.entries = 0;
    s.calls.stateFor = 0;
    const appends = 6;
    let last = head;
    for (let i = 0; i < appends; i++) {
      // Only bidder_1 bids: once both have bid, bidding closes.
      last = await s.bid('bidder_1', 100 + i);
      await until(
        () => clients.every((c) => c.entries.at(-1)?.seq === last && (c.states.at(-1)?.seq ?? -1) >= last),
        `seq ${last} and its state everywhere`,
      );
    }
    // 60 subscribers, 4 viewer classes: per append one entries read and at most one stateFor per class.
    expect(s.calls.entries).toBeLessThanOrEqual(appends);
    expect(s.calls.stateFor).toBeLessThanOrEqual(appends * 4);

    for (const c of clients) expect(c.seqs).toEqual(range(head + 1, last));
    // Subscribers of one class are handed the very same frame (serialised once for all of them).
    const byClass = (pred: (c: Client) => boolean) => clients.filter(pred);
    for (const group of [
      byClass((c) => c.viewer.kind === 'observer'),
      byClass((c) => c.viewer.kind === 'seat' && c.viewer.seat === 'bidder_1'),
    ]) {
      for (let i = 0; i < appends; i++) {
        for (const c of group) expect(c.entries[i]).toBe(group[0]!.entries[i]);
      }
      expect(group[0]!.entries[0]!.ws).toBe(group[0]!.entries[0]!.ws);
    }
  });

  it('redacts per viewer: each seat sees its own sealed bids, observers none, admin all', async () => {
    const s = await setup();
    const head = (await s.rt.getRoom(s.roomId)).seq;
    const obs = watch(s, { kind: 'observer' }, head);
    const b1 = watch(s, { kind: 'seat', seat: 'bidder_1' }, head);
    const b2 = watch(s, { kind: 'seat', seat: 'bidder_2' }, head);
    const admin = watch(s, { kind: 'admin' }, head);
    await until(() => [obs, b1, b2, admin].every((c) => c.states.length > 0), 'initial states');
    const s1 = await s.bid('bidder_1', 41);
    const s2 = await s.bid('bidder_2', 42);
    await until(() => [obs, b1, b2, admin].every((c) => (c.lastState?.seq ?? -1) >= s2), 'states');

    const at = (c: Client, seq: number) => c.entries.find((f) => f.seq === seq)!;
    expect(sealedPayload(at(b1, s1))).toEqual({ type: 'bid', amount: 41 });
    expect(sealedPayload(at(b1, s2))).toBeUndefined();
    expect(sealedPayload(at(b2, s2))).toEqual({ type: 'bid', amount: 42 });
    expect(sealedPayload(at(b2, s1))).toBeUndefined();
    expect(sealedPayload(at(admin, s1))).toEqual({ type: 'bid', amount: 41 });
    expect(sealedPayload(at(admin, s2))).toEqual({ type: 'bid', amount: 42 });
    for (const seq of [s1, s2]) {
      expect(sealedPayload(at(obs, seq))).toBeUndefined();
      expect((at(obs, seq).body as StoredEntry).commit).toMatch(/^[0-9a-f]{64}$/);
      // The wire bytes say the same as the frame body: no sealed payload leaks into the bytes.
      expect(at(obs, seq).ws.toString()).not.toContain('"sealed"');
      expect(at(obs, seq).sse.toString()).not.toContain('"sealed"');
    }
    expect(at(b1, s1).ws.toString()).toContain('"amount":41');

    // State per class: the seat's view and turn data, the observer's without anyone's bid.
    expect(b1.lastState?.viewer).toEqual({ kind: 'seat', seat: 'bidder_1' });
    expect(b1.lastState?.legal).not.toBeNull();
    // Whole numbers only: timestamps in the view (…345412) must not count as a leaked bid of 41/42.
    expect(numbersIn(b1.lastState?.view)).toContain(41);
    expect(numbersIn(b1.lastState?.view)).not.toContain(42);
    expect(obs.lastState?.legal).toBeNull();
    expect(numbersIn(obs.lastState?.view)).not.toContain(41);
    expect(numbersIn(obs.lastState?.view)).not.toContain(42);
  });

  it('every subscriber gets exactly since+1..head, whenever it joins and however far back', async () => {
    // A small buffer so some subscribers join from memory and others must read the store first.
    const s = await setup({ buffer: 4 });
    const head0 = (await s.rt.getRoom(s.roomId)).seq;
    const clients: Array<{ c: Client; since: number }> = [];
    const join = (since: number) => {
      const kinds: Viewer[] = [{ kind: 'observer' }, { kind: 'seat', seat: 'bidder_1' }, { kind: 'admin' }];
      const c = watch(s, kinds[clients.length % kinds.length]!, since);
      clients.push({ c, since });
    };
    join(-1);
    join(head0);
    let last = head0;
    for (let i = 0; i < 24; i++) {
      // Appends race the joins: some land while a subscriber is still reading its backlog.
      const p = s.bid('bidder_1', 10 + i);
      join(-1);
      join(Math.max(-1, last - (i % 9)));
      last = await p;
      if (i % 5 === 0) join(last);
    }
    await until(
      () => clients.every(({ c }) => c.entries.at(-1)?.seq === last && (c.states.at(-1)?.seq ?? -1) >= last),
      'everyone at the head',
    );
    for (const { c, since } of clients) {
      expect(c.failed).toBeNull();
      expect(c.seqs).toEqual(range(since + 1, last));
      // The first state comes after the backlog that existed when it joined; states never go back.
      const stateSeqs = c.states.map((f) => f.seq);
      expect([...stateSeqs].sort((a, b) => a - b)).toEqual(stateSeqs);
    }
    expect(s.hub.size.rooms).toBe(1);
  });

  it('fills from the store when the bus loses messages (and the poll when it loses all)', async () => {
    const lossy = new LossyBus((seq) => seq % 3 !== 0);
    const s = await setup({ bus: lossy, pollMs: 50 });
    const head = (await s.rt.getRoom(s.roomId)).seq;
    const c = watch(s, { kind: 'seat', seat: 'bidder_2' }, head);
    await until(() => c.states.length > 0, 'initial state');
    let last = head;
    for (let i = 0; i < 7; i++) last = await s.bid('bidder_2', 60 + i);
    await until(() => c.entries.at(-1)?.seq === last, 'the last entry');
    expect(lossy.dropped).toBeGreaterThan(0);
    expect(c.seqs).toEqual(range(head + 1, last));
  });

  it('an append announced while the channel reads is read once that read is done (no poll needed)', async () => {
    const bus = new LocalBus();
    const rt = new Runtime({
      store,
      protocols: createProtocolRegistry(builtinProtocols),
      serverKey: TEST_KEY,
      bus,
    });
    const room = await rt.createRoom({ protocol: 'sealed-bid', config: AUCTION });
    await rt.join(room.id, { seat: 'bidder_1', principal: 'p1' });
    // As if another node wrote: nothing comes from this node's commits, every entry from the store.
    // The first read is held until released, and answers what the store held when it was made.
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let reads = 0;
    const api: FeedRuntime = Object.assign(Object.create(rt) as Runtime, {
      committedSince: () => [],
      entries: async (...a: Parameters<Runtime['entries']>) => {
        const page = await rt.entries(...a);
        if (reads++ === 0) await held;
        return page;
      },
    });
    const hub = new RealtimeHub({ runtime: api, store, bus, clock: Date.now }, 60_000);
    hubs.push(hub);
    const head = (await rt.getRoom(room.id)).seq;
    const c = new Client({ kind: 'observer' });
    c.sub = hub.subscribe(room.id, { kind: 'observer' }, head, c.sink);
    void c.sub.start();
    await until(() => reads === 1, 'the first read');
    const seq = (await rt.act(room.id, { seat: 'bidder_1', action: { type: 'bid', amount: 10 } })).seq;
    release();
    await until(() => c.seqs.includes(seq), 'the entry announced mid-read');
    expect(c.seqs).toEqual([seq]);
  });

  it('closing the last subscriber drops the room; a failing store read fails the subscriber', async () => {
    const s = await setup();
    const c = watch(s, { kind: 'observer' }, -1);
    await until(() => c.states.length > 0, 'state');
    c.sub.close();
    expect(s.hub.size).toEqual({ rooms: 0, feeds: 0 });

    const gone = new Client({ kind: 'observer' });
    gone.sub = s.hub.subscribe('room_missing', { kind: 'observer' }, -1, gone.sink);
    await gone.sub.start();
    await until(() => gone.failed !== null, 'the failure');
    expect(gone.failed).toMatchObject({ code: 'ROOM_NOT_FOUND' });
    expect(s.hub.size).toEqual({ rooms: 0, feeds: 0 });
  });
});

describe('envelopeJson', () => {
  it('is byte-identical to envelope() around the same payload', () => {
    for (const payload of [{ entry: { a: 1, b: [1, 'x'] } }, {}, { s: 'é"\\\n' }, [1, 2]]) {
      for (const roomId of ['room_1', null]) {
        expect(envelopeJson('entry', roomId, 7, JSON.stringify(payload), 1_700_000_000_123)).toBe(
          envelope('entry', roomId, 7, payload, 1_700_000_000_123),
        );
      }
    }
  });
});

/** Every number that appears as a whole JSON value anywhere in `v`. */
function numbersIn(v: unknown): number[] {
  if (typeof v === 'number') return [v];
  if (Array.isArray(v)) return v.flatMap(numbersIn);
  if (v && typeof v === 'object') return Object.values(v).flatMap(numbersIn);
  return [];
}
