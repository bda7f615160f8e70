import { canonicalize, LocalRoom, type StoredEntry } from '@db8/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../src/store/index.ts';
import { counter } from './fixtures/counter.ts';
import { fakeClock, makeRuntime } from './runtime.helpers.ts';

// The claim LocalRoom makes: fed the same inputs at the same instants (and, for sealed entries, the
// same salts), it writes exactly the entries a server room writes — byte for byte, so one verifier
// and one replay read both.

const ADMIN = { kind: 'admin' } as const;

describe('LocalRoom writes the server runtime’s entries', () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore({ memory: true });
  });
  afterAll(async () => {
    await store.close();
  });

  it('same genesis, joins, sealed and public actions, reveals, ticks and close; same leaves', async () => {
    const clock = fakeClock();
    const rt = makeRuntime(store, { clock });
    const info = await rt.createRoom({ protocol: 'counter', config: { target: 4 }, title: 'T' });
    const step = async (ms: number, run: () => Promise<unknown>) => {
      clock.advance(ms);
      await run();
    };
    await step(5, () => rt.join(info.id, { principal: 'alice' }));
    await step(5, () => rt.join(info.id, { principal: 'bob', seat: 'p2' }));
    await step(10, () => rt.act(info.id, { seat: 'p2', action: { type: 'secret', value: 'hidden' } }));
    await step(10, () => rt.act(info.id, { seat: 'p1', action: { type: 'inc', by: 2 } }));
    await step(20_000, () => rt.tick(info.id)); // p2 is silent: the turn passes
    await step(10, () => rt.act(info.id, { seat: 'p2', action: { type: 'reveal' } }));
    await step(10, () => rt.act(info.id, { seat: 'p1', action: { type: 'inc', by: 3 } })); // 5 ≥ 4: over
    await rt.drain();
    const server = await rt.entries(info.id, ADMIN, 0, 100);
    expect(server.at(-1)?.kind).toBe('close');

    // The same inputs into a LocalRoom with the room's id, seed, genesis time and the server's salts.
    const row = await store.rooms.get(info.id);
    const salts = server.filter((e) => e.sealed).map((e) => e.sealed!.salt);
    const local = new LocalRoom({
      protocol: counter,
      config: JSON.parse(row!.configJson),
      seed: row!.seed,
      now: server[0]!.ts,
      id: info.id,
      title: 'T',
      salt: () => salts.shift()!,
    });
    local.join('alice', undefined, server[1]!.ts);
    local.join('bob', 'p2', server[2]!.ts);
    local.must('p2', { type: 'secret', value: 'hidden' }, server[3]!.ts);
    local.must('p1', { type: 'inc', by: 2 }, server[4]!.ts);
    expect(local.tick(server[5]!.ts)).not.toBeNull();
    local.must('p2', { type: 'reveal' }, server[6]!.ts);
    local.must('p1', { type: 'inc', by: 3 }, server[7]!.ts);

    const canon = (es: readonly StoredEntry[]) => es.map((e) => canonicalize(e));
    expect(canon(local.entries)).toEqual(canon(server));
    const leaves = (await store.entries.range(info.id, 0, 100)).map((r) => r.leafHash);
    expect(local.leaves).toEqual(leaves);
  });
});
