import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RuntimeError } from '../src/runtime/index.ts';
import { openStore } from '../src/store/index.ts';
import { fakeClock, makeRuntime } from './runtime.helpers.ts';

// A runtime on a PGlite data directory, closed and opened again: the e2e suite (a restart on disk).

const OBSERVER = { kind: 'observer' } as const;
const seat = (s: string) => ({ kind: 'seat', seat: s }) as const;

async function rejects(p: Promise<unknown>, code: string): Promise<void> {
  const err = await p.then(
    () => null,
    (e) => e,
  );
  expect(err).toBeInstanceOf(RuntimeError);
  expect((err as RuntimeError).code).toBe(code);
}

// Two on-disk PGlite starts: seconds alone, much more on a busy machine.
describe('runtime restart (PGlite data directory)', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'db8-rt-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('state, seats and deadlines survive closing and reopening the store', async () => {
    const clock = fakeClock(1_800_000_000_000);
    let store = await openStore({ dataDir: dir });
    let rt = makeRuntime(store, { clock, snapshotEvery: 4 });
    const { id } = await rt.createRoom({ protocol: 'counter', config: { turnMs: 5000, target: 100 } });
    await rt.join(id, { principal: 'alice' });
    await rt.join(id, { principal: 'bob' });
    for (let i = 0; i < 9; i++)
      await rt.act(id, { seat: i % 2 ? 'p2' : 'p1', action: { type: 'inc', by: 1 } });
    await rt.act(id, { seat: 'p1', action: { type: 'secret', value: 'kept' }, clientNonce: 'k1' });
    const before = await rt.stateFor(id, seat('p1'));
    await rt.drain();
    await store.close();

    store = await openStore({ dataDir: dir });
    rt = makeRuntime(store, { clock });
    expect(await rt.stateFor(id, seat('p1'))).toEqual(before);
    expect((await rt.getRoom(id)).deadlineUnix).toBe(before.deadlineUnix);
    expect(await rt.seatOf(id, 'bob')).toBe('p2');
    expect(
      (await rt.act(id, { seat: 'p1', action: { type: 'secret', value: 'kept' }, clientNonce: 'k1' }))
        .duplicate,
    ).toBe(true);
    await rejects(rt.act(id, { seat: 'p1', action: { type: 'inc', by: 1 } }), 'NOT_YOUR_TURN');
    clock.set(before.deadlineUnix as number);
    expect(await rt.tickDue()).toBe(1);
    expect((await rt.stateFor(id, OBSERVER)).view).toMatchObject({ turn: 'p1' });
    expect((await rt.replay(id)).ok).toBe(true);
    await rt.drain();
    await store.close();
  });
});
