import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime, RuntimeError } from '../src/runtime/index.ts';
import type { Store } from '../src/store/index.ts';
import { makeRuntime } from './runtime.helpers.ts';
import { createPgSchema, PG_URL, pgStoreIn } from './store.helpers.ts';

const here = dirname(fileURLToPath(import.meta.url));
const run = promisify(execFile);

/** Two server processes' worth of runtime on one real Postgres: separate pools, separate caches. */
describe('runtime on PostgreSQL: concurrent appenders', () => {
  let schema: string;
  let drop: () => Promise<void>;
  let storeA: Store;
  let storeB: Store;
  let a: Runtime;
  let b: Runtime;

  beforeAll(async () => {
    ({ schema, drop } = await createPgSchema());
    storeA = await pgStoreIn(schema, 5);
    storeB = await pgStoreIn(schema, 5);
    a = makeRuntime(storeA, { snapshotEvery: 50, checkpointEvery: 32 });
    b = makeRuntime(storeB, { snapshotEvery: 50, checkpointEvery: 32 });
  });
  afterAll(async () => {
    await a?.drain();
    await b?.drain();
    await storeA?.close();
    await storeB?.close();
    await drop?.();
  });

  async function entriesOf(id: string) {
    return storeA.entries.range(id, 0);
  }

  it('two runtimes appending to one room never share a seq and lose nothing', async () => {
    const { id } = await a.createRoom({ protocol: 'counter', config: { target: 10 ** 6 } });
    // b caches the room, then a appends: b's first plan is stale whatever the timing, so the race
    // (a lost seq, re-planned) happens on any machine, busy or idle.
    await b.stateFor(id, { kind: 'observer' });
    await a.act(id, { seat: 'p1', action: { type: 'note', text: 'first' } });
    const per = 150;
    const fire = (rt: Runtime, tag: string) =>
      Array.from({ length: per }, (_, i) =>
        rt.act(id, { seat: i % 2 ? 'p1' : 'p2', action: { type: 'note', text: `${tag}${i}` } }),
      );
    const conflictsBefore = a.stats.conflicts + b.stats.conflicts;
    const acks = await Promise.all([...fire(a, 'a'), ...fire(b, 'b')]);
    expect(a.stats.conflicts + b.stats.conflicts).toBeGreaterThan(conflictsBefore);
    const seqs = acks.map((x) => x.seq).sort((x, y) => x - y);
    expect(new Set(seqs).size).toBe(2 * per);
    expect(seqs).toEqual(Array.from({ length: 2 * per }, (_, i) => i + 2));
    const rows = await entriesOf(id);
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 2 * per + 2 }, (_, i) => i));
    const texts = rows.slice(1).map((r) => (JSON.parse(r.publicJson).payload as { text: string }).text);
    expect(new Set(texts).size).toBe(2 * per + 1);
    // Each runtime folds the other's entries before answering.
    expect((await a.stateFor(id, { kind: 'observer' })).view).toMatchObject({ notes: 2 * per + 1 });
    expect((await b.stateFor(id, { kind: 'observer' })).view).toMatchObject({ notes: 2 * per + 1 });
    const report = await b.replay(id);
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('turn-taking across runtimes: a stale plan is re-planned against the winner', async () => {
    const { id } = await a.createRoom({ protocol: 'counter', config: { target: 10 ** 6 } });
    // Both runtimes think it is p1's turn; only one inc by p1 can win, the other becomes NOT_YOUR_TURN.
    const results = await Promise.allSettled([
      a.act(id, { seat: 'p1', action: { type: 'inc', by: 1 } }),
      b.act(id, { seat: 'p1', action: { type: 'inc', by: 1 } }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const failed = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect((failed.reason as RuntimeError).code).toBe('NOT_YOUR_TURN');
    expect(await entriesOf(id)).toHaveLength(2);
  });

  it('a runtime with a stale cache does not reject what the fresh room allows', async () => {
    const { id } = await a.createRoom({ protocol: 'counter', config: { target: 10 ** 6 } });
    expect((await b.stateFor(id, { kind: 'observer' })).view).toMatchObject({ turn: 'p1' }); // b caches the room
    await a.act(id, { seat: 'p1', action: { type: 'inc', by: 1 } });
    // b's cache still says it is p1's turn; it must check the tail before answering NOT_YOUR_TURN.
    const ack = await b.act(id, { seat: 'p2', action: { type: 'inc', by: 2 }, expectedSeq: 1 });
    expect(ack.seq).toBe(2);
    expect((await a.stateFor(id, { kind: 'observer' })).view).toMatchObject({ count: 3, turn: 'p1' });
  });

  it('idempotency holds across runtimes', async () => {
    const { id } = await a.createRoom({ protocol: 'counter', config: {} });
    const action = { type: 'note', text: 'once' };
    const acks = await Promise.all([
      a.act(id, { seat: 'p1', action, clientNonce: 'same' }),
      b.act(id, { seat: 'p1', action, clientNonce: 'same' }),
      a.act(id, { seat: 'p1', action, clientNonce: 'same' }),
      b.act(id, { seat: 'p1', action, clientNonce: 'same' }),
    ]);
    expect(acks.filter((x) => !x.duplicate)).toHaveLength(1);
    expect(new Set(acks.map((x) => x.seq)).size).toBe(1);
    expect(await entriesOf(id)).toHaveLength(2);
  });

  it('seats are given once across runtimes', async () => {
    const { id } = await a.createRoom({ protocol: 'counter', config: { players: 2 } });
    const results = await Promise.allSettled([
      a.join(id, { principal: 'u1' }),
      b.join(id, { principal: 'u2' }),
      a.join(id, { principal: 'u3' }),
      b.join(id, { principal: 'u4' }),
    ]);
    const won = results.filter((r) => r.status === 'fulfilled').map((r) => r.value.seat);
    expect(won.sort()).toEqual(['p1', 'p2']);
    for (const r of results)
      if (r.status === 'rejected') expect((r.reason as RuntimeError).code).toBe('ROOM_FULL');
    const seats = await storeA.rooms.seats(id);
    expect(seats.every((s) => s.principalId !== null)).toBe(true);
    expect(new Set(seats.map((s) => s.principalId)).size).toBe(2);
  });

  it('a due room is ticked once even when both runtimes watch it', async () => {
    const { id } = await a.createRoom({ protocol: 'counter', config: { turnMs: 1 } });
    await new Promise((r) => setTimeout(r, 5));
    const now = Date.now();
    await Promise.all([
      a.tickDue(now),
      b.tickDue(now),
      a.tick(id, now, { exclusive: true }),
      b.tick(id, now),
    ]);
    const ticks = (await entriesOf(id)).filter((r) => r.kind === 'tick');
    expect(ticks).toHaveLength(1);
    expect((await storeA.rooms.get(id))?.deadlineAt).toBeGreaterThan(now);
  });

  it('two separate node processes append to one room without a gap or a duplicate', async () => {
    const { id } = await a.createRoom({ protocol: 'counter', config: { target: 10 ** 6 } });
    const n = 120;
    const tsx = join(here, '../../../node_modules/.bin/tsx');
    const script = join(here, 'fixtures/appender.ts');
    const outs = await Promise.all(
      ['x', 'y'].map((tag) => run(tsx, [script, PG_URL, schema, id, String(n), tag], { timeout: 90_000 })),
    );
    const seqs = outs.flatMap(
      (o) => (JSON.parse(o.stdout.trim().split('\n').at(-1) as string) as { seqs: number[] }).seqs,
    );
    expect(seqs).toHaveLength(2 * n);
    expect([...seqs].sort((x, y) => x - y)).toEqual(Array.from({ length: 2 * n }, (_, i) => i + 1));
    const rows = await entriesOf(id);
    expect(rows).toHaveLength(2 * n + 1);
    expect((await a.replay(id)).ok).toBe(true);
  });
});
