import {
  type AnyProtocol,
  createProtocolRegistry,
  type Protocol,
  type StoredEntry,
  verifyBundle,
} from '@db8/core';
import { entriesOfJournal, type HandNote, verifyDeckNotes } from '@db8/poker';
import { builtinProtocols } from 'db8/src/protocols.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Runtime, RuntimeError } from '../src/runtime/index.ts';
import { openStore, type Store } from '../src/store/index.ts';
import { type CounterAction, type CounterConfig, type CounterState, counter } from './fixtures/counter.ts';
import { fakeClock, makeRuntime } from './runtime.helpers.ts';

const ADMIN = { kind: 'admin' } as const;
const OBSERVER = { kind: 'observer' } as const;

/** The counter fixture plus notes: every action notes the count, every tick the skips. */
const noted: Protocol<CounterConfig, CounterState, CounterAction, unknown, unknown> = {
  ...counter,
  name: 'noted',
  apply(state, input) {
    const r = counter.apply(state, input);
    return r.ok ? { ...r, note: { count: r.state.count, seq: input.seq } } : r;
  },
  tick(state, now, seq) {
    const t = counter.tick(state, now, seq);
    return t && { ...t, note: { skipped: t.state.skipped } };
  },
};

async function collect(it: AsyncIterable<object>): Promise<object[]> {
  const out: object[] = [];
  for await (const r of it) out.push(r);
  return out;
}

describe('Transition.note through the runtime (PGlite)', () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore({ memory: true });
  });
  afterAll(async () => {
    await store.close();
  });

  it('records notes on action and tick entries (payload untouched), replay recomputes them', async () => {
    const clock = fakeClock(1_600_000_000_000);
    const protocols = new Map<string, AnyProtocol>([[noted.name, noted]]);
    const rt = makeRuntime(store, { clock, protocols });
    const { id } = await rt.createRoom({ protocol: 'noted', config: { turnMs: 1000 }, title: 'n' });
    await rt.join(id, { principal: 'a' });
    await rt.join(id, { principal: 'b' });
    await rt.act(id, { seat: 'p1', action: { type: 'inc', by: 2 } });
    await rt.act(id, { seat: 'p1', action: { type: 'secret', value: 'x' } });
    clock.advance(1000);
    const tickSeq = await rt.tick(id);
    const entries = await rt.entries(id, OBSERVER, 0, 100);
    const inc = entries.find((e) => e.kind === 'action');
    expect(inc).toMatchObject({ payload: { type: 'inc', by: 2 }, note: { count: 2, seq: inc?.seq } });
    // A sealed action keeps its payload hidden but its note public.
    const sealed = entries.find((e) => e.kind === 'action' && e.commit !== undefined) as StoredEntry;
    expect(sealed.payload).toBeUndefined();
    expect(sealed.note).toEqual({ count: 2, seq: sealed.seq });
    const tick = entries.find((e) => e.seq === tickSeq);
    expect(tick?.payload).toEqual({ deadline: expect.any(Number) });
    expect(tick?.note).toEqual({ skipped: 1 });
    expect((await rt.replay(id)).ok).toBe(true);
    const records = await collect(rt.export(id, OBSERVER));
    expect(verifyBundle(records).ok).toBe(true);

    // A stored note the protocol would not produce: replay names the entry.
    await store.db.query(
      `UPDATE entries SET public_json = replace(public_json, '"note":{"skipped":1}', '"note":{"skipped":9}') WHERE room_id = $1 AND seq = $2`,
      [id, tickSeq],
    );
    rt.forget(id);
    const report = await rt.replay(id);
    expect(report.ok).toBe(false);
    expect(report.problems.join('\n')).toContain('stored note differs');
    expect(report.firstDivergence).toBe(tickSeq);
  });

  it('poker: the log commits each deck at the deal and reveals it at the end; the export verifies', async () => {
    const clock = fakeClock(1_650_000_000_000);
    const rt: Runtime = makeRuntime(store, { clock, protocols: createProtocolRegistry(builtinProtocols) });
    const config = {
      seats: 2,
      smallBlind: 1,
      bigBlind: 2,
      startingStack: 100,
      maxHands: 4,
      handIntervalMs: 5,
    };
    const { id } = await rt.createRoom({ protocol: 'poker', config, title: 'table' });
    await rt.join(id, { principal: 'a', seat: 'seat_0' });
    await rt.join(id, { principal: 'b', seat: 'seat_1' });
    for (const seat of ['seat_0', 'seat_1']) await rt.act(id, { seat, action: { kind: 'sitIn' } });
    for (let step = 0; step < 400; step++) {
      const s = await rt.stateFor(id, ADMIN);
      if (s.status === 'closed') break;
      const hand = (s.view as { hand: { number: number; toAct: number | null } | null }).hand;
      const toAct = hand?.toAct ?? null;
      // Even hands end by timeouts (the tick carries the reveal); odd ones by the players.
      if (toAct === null || (hand?.number ?? 0) % 2 === 0) {
        if (s.deadlineUnix !== null) clock.set(Math.max(clock(), s.deadlineUnix));
        await rt.tick(id);
        continue;
      }
      const seat = `seat_${toAct}`;
      try {
        await rt.act(id, { seat, action: { kind: 'call' } });
      } catch (err) {
        if (!(err instanceof RuntimeError)) throw err;
        await rt.act(id, { seat, action: { kind: 'check' } });
      }
    }
    expect((await rt.getRoom(id)).status).toBe('closed');
    expect((await rt.replay(id)).ok).toBe(true);

    const records = await collect(rt.export(id, OBSERVER));
    expect(verifyBundle(records).ok).toBe(true);
    const entries = entriesOfJournal(records);
    const notes = entries.filter((e) => e.note !== undefined);
    const deals = notes.filter((e) => (e.note as HandNote).deck_commitment !== undefined);
    const ends = notes.filter((e) => (e.note as HandNote).deck !== undefined);
    expect(deals.map((e) => (e.note as HandNote).hand)).toEqual([1, 2, 3, 4]);
    expect(ends.map((e) => (e.note as HandNote).hand)).toEqual([1, 2, 3, 4]);
    expect(deals.every((e) => e.kind === 'tick')).toBe(true);
    expect(new Set(ends.map((e) => e.kind))).toEqual(new Set(['action', 'tick']));
    const report = verifyDeckNotes(entries);
    expect(report).toMatchObject({ ok: true, committed: 4, verified: 4, problems: [] });
    expect(report.seed).toMatch(/^[0-9a-f]+$/);

    // A forged commitment: the reveal no longer matches it.
    const forged = structuredClone(records) as Array<{ type: string; entry?: { note?: HandNote } }>;
    const deal = forged.find(
      (r) => r.type === 'entry' && r.entry?.note?.hand === 2 && r.entry.note.deck_commitment,
    );
    deal!.entry!.note!.deck_commitment = '0'.repeat(64);
    const bad = verifyDeckNotes(entriesOfJournal(forged));
    expect(bad.ok).toBe(false);
    expect(bad.problems.join('\n')).toContain("hand 2's revealed deck does not hash to the commitment");
    // …and the bundle's own leaf hashes catch the edit too.
    expect(verifyBundle(forged).ok).toBe(false);

    // A deck swapped for another valid commitment+reveal pair still is not the seed's shuffle.
    const swapped = structuredClone(records) as typeof forged;
    const n1 = swapped
      .filter((r) => r.type === 'entry' && r.entry?.note?.hand === 1)
      .map((r) => r.entry!.note!);
    const n3 = swapped
      .filter((r) => r.type === 'entry' && r.entry?.note?.hand === 3)
      .map((r) => r.entry!.note!);
    for (const n of [...n1, ...n3]) n.hand = n.hand === 1 ? 3 : 1;
    const swappedReport = verifyDeckNotes(entriesOfJournal(swapped));
    expect(swappedReport.ok).toBe(false);
    expect(swappedReport.problems.join('\n')).toContain("deck is not the room seed's shuffle");
  });
});
