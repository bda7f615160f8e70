// Replicated rooms: a trusted caller that folds one ordered source on several nodes chooses the
// room id, seed and each entry's instant, so every node writes the same log; an externally clocked
// protocol keeps no deadline for the local scheduler.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverKeyFromSeed } from '../src/keys/index.ts';
import type { Runtime } from '../src/runtime/index.ts';
import { openStore, type Store } from '../src/store/index.ts';
import { fakeClock, makeRuntime } from './runtime.helpers.ts';

const stores: Store[] = [];
afterAll(async () => {
  for (const s of stores.splice(0)) await s.close();
});

async function node(keyByte: number, clockStart: number, externalClock = false): Promise<Runtime> {
  const store = await openStore({ memory: true });
  stores.push(store);
  return makeRuntime(store, {
    serverKey: serverKeyFromSeed(new Uint8Array(32).fill(keyByte), 'db8.test'),
    clock: fakeClock(clockStart),
    ...(externalClock ? { externalClock: (p: string) => p === 'counter' } : {}),
  });
}

const SEED = 'ab'.repeat(32);
const T = 1_800_000_000_000;

describe('replicated rooms (chosen id, seed and instants)', () => {
  // Two nodes for the whole file (stores are slow to open): different keys and clocks; `a` treats
  // the counter protocol as externally clocked.
  let a: Runtime;
  let b: Runtime;
  beforeAll(async () => {
    a = await node(1, 1_000, true);
    b = await node(2, 9_999_999);
  });
  it('two nodes with different keys and clocks write the same log from the same inputs', async () => {
    for (const rt of [a, b]) {
      await rt.createRoom({
        protocol: 'counter',
        config: { players: 1, target: 2 },
        id: 'shared-1',
        seed: SEED,
        now: T,
      });
      await rt.act('shared-1', { seat: 'p1', action: { type: 'inc', by: 1 }, now: T + 10 });
      await rt.act('shared-1', { seat: 'p1', action: { type: 'inc', by: 1 }, now: T + 20 });
    }
    const logA = await a.entries('shared-1', { kind: 'observer' }, 0, 100);
    const logB = await b.entries('shared-1', { kind: 'observer' }, 0, 100);
    expect(logA.map((e) => e.ts)).toEqual([T, T + 10, T + 20, T + 20]);
    expect(logA).toEqual(logB);
    expect(logA.at(-1)?.kind).toBe('close');
  });

  it('an instant before the previous entry is raised to it (time stays monotonic)', async () => {
    await a.createRoom({ protocol: 'counter', config: { players: 1 }, id: 'mono', seed: SEED, now: T });
    const ack = await a.act('mono', { seat: 'p1', action: { type: 'note', text: 'x' }, now: T - 5 });
    expect(ack.ts).toBe(T);
  });

  it('refuses a taken id, a bad id and a bad seed, writing nothing', async () => {
    await a.createRoom({ protocol: 'counter', config: {}, id: 'taken', seed: SEED });
    await expect(a.createRoom({ protocol: 'counter', config: {}, id: 'taken' })).rejects.toMatchObject({
      code: 'ROOM_EXISTS',
      status: 409,
    });
    await expect(a.createRoom({ protocol: 'counter', config: {}, id: 'a.b' })).rejects.toMatchObject({
      code: 'BAD_CONFIG',
    });
    await expect(
      a.createRoom({ protocol: 'counter', config: {}, id: 'fine', seed: 'xyz' }),
    ).rejects.toMatchObject({
      code: 'BAD_CONFIG',
    });
    const ids = (await a.listRooms()).map((r) => r.id);
    expect(ids).toContain('taken');
    expect(ids).not.toContain('a.b');
    expect(ids).not.toContain('fine');
  });

  it('an externally clocked protocol stores no deadline, so no scheduler ticks it; an explicit tick still does', async () => {
    await a.createRoom({
      protocol: 'counter',
      config: { players: 2, turnMs: 1000 },
      id: 'ext',
      seed: SEED,
      now: T,
    });
    expect((await a.getRoom('ext')).deadlineUnix).toBeNull();
    expect(await a.tickDue(T + 5_000)).toBe(0);
    expect((await a.stateFor('ext', { kind: 'observer' })).deadlineUnix).toBe(T + 1000);
    expect(await a.tick('ext', T + 1000)).toBe(1);
  });
});
