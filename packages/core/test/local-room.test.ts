import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toHex } from '../src/crypto/bytes.ts';
import { verifyBundle } from '../src/journal/index.ts';
import { canonicalize } from '../src/json/index.ts';
import { entryLeafHashHex, redactEntry, type StoredEntry, verifyReveal } from '../src/log/index.ts';
import type { Protocol } from '../src/protocol/index.ts';
import {
  FoldedRoom,
  foldEntry,
  journalEntries,
  LocalRoom,
  LocalRoomError,
  localJournal,
  refoldLog,
} from '../src/room/index.ts';

// A small commit–reveal game: each player seals a number (visible to that seat only); `open` (or
// the deadline) reveals every sealed entry at once and ends the room with the sum.
type State = {
  sealed: Record<string, { seq: number; value: number }>;
  opened: boolean;
  deadline: number;
  sum: number;
};
const Config = z.object({ players: z.number().int().min(1).max(4), window: z.number().int().positive() });
const Action = z.discriminatedUnion('type', [
  z.object({ type: z.literal('seal'), value: z.number().int() }),
  z.object({ type: z.literal('open') }),
  z.object({ type: z.literal('reveal'), seq: z.number().int() }),
  z.object({ type: z.literal('mutate') }),
]);
type A = z.infer<typeof Action>;

const opened = (s: State) => {
  const sum = Object.values(s.sealed).reduce((n, x) => n + x.value, 0);
  return {
    state: { ...s, opened: true, sum },
    reveal: Object.values(s.sealed).map((x) => x.seq),
    note: { sum },
  };
};

const game: Protocol<z.infer<typeof Config>, State, A, State, { sum: number }> = {
  name: 'sum-game',
  version: 1,
  configSchema: Config,
  actionSchema: Action,
  seats: (c) => Array.from({ length: c.players }, (_, i) => ({ id: `p${i}`, role: 'player' })),
  setup: (c, { now }) => ({ sealed: {}, opened: false, deadline: now + c.window, sum: 0 }),
  apply: (s, { seat, action, seq }) => {
    if (s.opened && action.type !== 'reveal')
      return { ok: false, error: { code: 'PHASE_CLOSED', message: 'opened' } };
    if (action.type === 'seal')
      return {
        ok: true,
        state: { ...s, sealed: { ...s.sealed, [seat]: { seq, value: action.value } } },
        visibility: { kind: 'seat', seat },
      };
    if (action.type === 'open') return { ok: true, ...opened(s) };
    if (action.type === 'reveal') return { ok: true, state: s, reveal: [action.seq] };
    (s as { sum: number }).sum += 1; // a protocol bug: mutating the state it was given
    return { ok: true, state: s };
  },
  tick: (s, now) => (!s.opened && now >= s.deadline ? opened(s) : null),
  deadline: (s) => (s.opened ? null : s.deadline),
  view: (s) => s,
  legal: () => ({ actions: [] }),
  result: (s) => (s.opened ? { sum: s.sum } : null),
  isOver: (s) => s.opened,
};

const SEED = '5e'.repeat(32);
const make = () =>
  new LocalRoom({ protocol: game, config: { players: 3, window: 1000 }, seed: SEED, now: 100 });
const registry = new Map([[game.name, game]]);

describe('LocalRoom', () => {
  it('assigns seqs from the genesis (0), one per accepted input; a refusal takes none', () => {
    const room = make();
    expect(room.entries.map((e) => [e.seq, e.kind])).toEqual([[0, 'genesis']]);
    expect(room.must('p0', { type: 'seal', value: 4 }, 200).seq).toBe(1);
    expect(room.act('p9', { type: 'seal', value: 1 }, 210)).toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_SEAT' },
    });
    expect(room.act('p1', { type: 'seal', value: 'x' }, 210)).toMatchObject({
      ok: false,
      error: { code: 'BAD_ACTION' },
    });
    expect(room.must('p1', { type: 'seal', value: 5 }, 220).seq).toBe(2);
    expect(room.entries.map((e) => e.seq)).toEqual([0, 1, 2]);
    expect(room.leaves).toEqual(room.entries.map(entryLeafHashHex));
    expect(room.nextSeq).toBe(3);
  });

  it('keeps time monotonic: an input at an earlier instant is written (and applied) at the last time', () => {
    const room = make();
    room.must('p0', { type: 'seal', value: 1 }, 500);
    const late = room.must('p1', { type: 'seal', value: 2 }, 300);
    expect(room.entries[late.seq]!.ts).toBe(500);
    expect(room.tick(400)).toBeNull(); // the deadline (1100) is not due at 500
    expect(room.entries.map((e) => e.ts)).toEqual([100, 500, 500]);
  });

  it('freezes every state: a protocol that mutates its input throws instead of corrupting the room', () => {
    const room = make();
    room.must('p0', { type: 'seal', value: 1 }, 200);
    expect(Object.isFrozen(room.state)).toBe(true);
    expect(Object.isFrozen(room.state.sealed.p0)).toBe(true);
    const before = canonicalize(room.state);
    expect(() => room.act('p1', { type: 'mutate' }, 300)).toThrow(TypeError);
    expect(canonicalize(room.state)).toBe(before);
    expect(room.seq).toBe(1);
  });

  it('seals non-public entries and reveals them against their commitments; a bad reveal is refused and writes nothing', () => {
    const room = make();
    const a = room.must('p0', { type: 'seal', value: 4 }, 200);
    const b = room.must('p1', { type: 'seal', value: 5 }, 210);
    const sealed = room.entries[a.seq]!;
    expect(sealed.payload).toBeUndefined();
    expect(sealed.commit).toMatch(/^[0-9a-f]{64}$/);
    expect(sealed.sealed?.payload).toEqual({ type: 'seal', value: 4 });

    // Asking to reveal an entry that does not exist: refused, nothing written.
    expect(() => room.act('p2', { type: 'reveal', seq: 99 }, 220)).toThrow(LocalRoomError);
    expect(room.seq).toBe(b.seq);

    // A sealed payload that no longer matches its commitment (a corrupted store) is never revealed.
    const good = structuredClone(sealed.sealed!);
    room.entries[a.seq]!.sealed = { ...good, payload: { type: 'seal', value: 40 } };
    expect(() => room.act('p2', { type: 'open' }, 230)).toThrow(/does not match its commitment/);
    expect(room.seq).toBe(b.seq);
    expect(room.state.opened).toBe(false);
    room.entries[a.seq]!.sealed = good;

    const open = room.must('p2', { type: 'open' }, 240);
    const reveals = room.entries[open.seq]!.reveals!;
    expect(reveals.map((r) => r.seq)).toEqual([a.seq, b.seq]);
    for (const r of reveals) expect(verifyReveal(room.entries[r.seq]!, r)).toBe(true);
    expect(room.entries[open.seq]!.note).toEqual({ sum: 9 });
  });

  it('closes when the protocol is over: seed and result on the close entry, nothing after', () => {
    const room = make();
    room.must('p0', { type: 'seal', value: 4 }, 200);
    const t = room.advance(); // the deadline opens everything
    expect(t?.seq).toBe(2);
    expect(room.closed).toBe(true);
    expect(room.entries.at(-1)).toMatchObject({
      seq: 3,
      kind: 'close',
      payload: { seed: SEED, result: { sum: 4 } },
    });
    // The protocol's own refusal when it has one, else ROOM_CLOSED; never an entry.
    expect(room.act('p1', { type: 'seal', value: 1 }, 2000)).toMatchObject({
      ok: false,
      error: { code: 'PHASE_CLOSED' },
    });
    expect(room.act('p1', { type: 'reveal', seq: 0 }, 2000)).toMatchObject({
      ok: false,
      error: { code: 'ROOM_CLOSED' },
    });
    expect(room.tick(5000)).toBeNull();
    expect(room.seq).toBe(3);
  });

  it('writes what the server fold reads: foldEntry over its entries reaches its state and tree root', () => {
    const room = make();
    room.must('p0', { type: 'seal', value: 4 }, 200);
    room.join('alice', 'p1', 210);
    room.must('p1', { type: 'seal', value: 6 }, 220);
    room.must('p2', { type: 'open' }, 230);
    const memo = FoldedRoom.empty({ ...room.memo.core });
    for (const e of room.entries) foldEntry(memo, e, entryLeafHashHex(e));
    expect(canonicalize(memo.state)).toBe(canonicalize(room.state));
    expect(memo.holders).toEqual({ p1: { principal: 'alice', seq: 2 } });
    expect(toHex(memo.frontier.root())).toBe(toHex(room.memo.frontier.root()));
    expect(memo.closed).toBe(true);
  });
});

describe('offline refold and the local journal', () => {
  const played = () => {
    const room = make();
    room.must('p0', { type: 'seal', value: 4 }, 200);
    room.must('p1', { type: 'seal', value: 6 }, 220);
    room.must('p2', { type: 'open' }, 230);
    return room;
  };

  it('a LocalRoom bundle verifies, and its refold reaches the recorded result and the same state hash', () => {
    const room = played();
    const records = localJournal(room, {
      key: new Uint8Array(32).fill(7),
      exportedAt: '2026-01-01T00:00:00.000Z',
    });
    const v = verifyBundle(records);
    expect(v.failures).toEqual([]);
    expect(v).toMatchObject({ ok: true, entries: room.entries.length, treeSize: room.entries.length });
    const r = refoldLog(journalEntries(records), registry);
    expect(r).toMatchObject({
      ok: true,
      closed: true,
      protocol: 'sum-game',
      result: { sum: 10 },
      problems: [],
    });
    expect(r.stateHash).toBe(room.stateHash());
  });

  it('a public bundle (no sealed payloads) still refolds from the reveals', () => {
    const room = played();
    const records = localJournal(room, {
      key: new Uint8Array(32).fill(7),
      exportedAt: '2026-01-01T00:00:00.000Z',
      viewer: { kind: 'observer' },
    });
    expect(verifyBundle(records).ok).toBe(true);
    expect(journalEntries(records).some((e) => e.sealed)).toBe(false);
    expect(refoldLog(journalEntries(records), registry)).toMatchObject({
      ok: true,
      stateHash: room.stateHash(),
    });
  });

  it('a tampered entry fails: the bundle checks catch the leaf, the refold catches the log', () => {
    const room = played();
    const records = localJournal(room, {
      key: new Uint8Array(32).fill(7),
      exportedAt: '2026-01-01T00:00:00.000Z',
    });
    const open = records.findIndex(
      (r) => r.type === 'entry' && r.entry.payload !== undefined && r.entry.note,
    );
    const bad = structuredClone(records);
    const rec = bad[open] as { entry: StoredEntry };
    rec.entry.note = { sum: 11 };
    const v = verifyBundle(bad);
    expect(v.ok).toBe(false);
    expect(v.firstFailure).toMatchObject({ seq: rec.entry.seq, code: 'LEAF_MISMATCH' });
    // The log itself, folded: the recorded note is not what the protocol computes.
    const r = refoldLog(journalEntries(bad), registry);
    expect(r).toMatchObject({ ok: false, firstDivergence: rec.entry.seq });
    expect(r.problems[0]).toMatch(/stored note differs/);
    // A result that does not follow from the log is named at the close.
    const entries = structuredClone(room.entries);
    (entries.at(-1)!.payload as { result: { sum: number } }).result.sum = 99;
    expect(refoldLog(entries, registry)).toMatchObject({ ok: false, firstDivergence: entries.at(-1)!.seq });
  });

  it('an ended room (closed early, who and why recorded) verifies and refolds; an unexplained early close does not', () => {
    const room = make();
    room.join('alice', 'p0', 150);
    room.must('p0', { type: 'seal', value: 4 }, 200);
    const seq = room.end({ by: 'admin:ops', reason: 'stopped from the monitor' }, 300);
    expect(room.closed).toBe(true);
    expect(() => room.end({ by: 'admin:ops', reason: 'again' })).toThrow(LocalRoomError);
    const close = room.entries[seq]!;
    expect(close).toMatchObject({ kind: 'close', ts: 300 });
    expect(close.payload).toEqual({
      seed: SEED,
      result: null,
      ended: { by: 'admin:ops', reason: 'stopped from the monitor' },
    });
    // The close reveals who sat where, as a close at the end of the game does.
    expect(close.reveals?.map((r) => r.seq)).toEqual([1]);
    const records = localJournal(room, {
      key: new Uint8Array(32).fill(7),
      exportedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(verifyBundle(records).failures).toEqual([]);
    expect(refoldLog(journalEntries(records), registry)).toMatchObject({
      ok: true,
      closed: true,
      result: null,
      ended: { by: 'admin:ops', reason: 'stopped from the monitor' },
      problems: [],
    });
    // The same close without `ended` claims the protocol was over: the refold refuses it.
    const entries = structuredClone(room.entries);
    delete (entries[seq]!.payload as { ended?: unknown }).ended;
    const r = refoldLog(entries, registry);
    expect(r).toMatchObject({ ok: false, firstDivergence: seq });
    expect(r.problems[0]).toMatch(/closed but the protocol says it is not over/);
  });

  it('steps: onStep sees the state after every entry; an open room refolds with a stand-in seed only when setup never reads it', () => {
    const room = make();
    room.join('alice', 'p0', 150);
    room.must('p0', { type: 'seal', value: 4 }, 200);
    room.must('p1', { type: 'seal', value: 6 }, 220);
    const steps: Array<[number, unknown]> = [];
    const r = refoldLog(room.entries, registry, {
      standInSeed: true,
      onStep: (e, state) => steps.push([e.seq, state]),
    });
    expect(r).toMatchObject({ ok: true, closed: false, stateHash: room.stateHash() });
    expect(steps.map(([seq]) => seq)).toEqual([0, 1, 2, 3]);
    expect(steps[1]![1]).toBe(steps[0]![1]); // a join changes no protocol state
    expect(Object.keys((steps[3]![1] as State).sealed)).toEqual(['p0', 'p1']);
    // As an observer reads the log: the sealed join (who sits at p0) folds with its holder unknown,
    // the sealed move after it stops the refold, and says where.
    const observed = room.entries.map((e) => redactEntry(e, { kind: 'observer' }));
    expect(observed[1]!.payload).toBeUndefined();
    const o = refoldLog(observed, registry, { standInSeed: true });
    expect(o).toMatchObject({ ok: false, seq: 1 });
    expect(o.skipped).toMatch(/seq 2 is sealed and never revealed/);
    // A protocol whose setup reads the seed cannot be refolded while the seed is secret.
    const seeded = {
      ...game,
      setup: (c: never, ctx: { seed: string; now: number }) => ({
        ...game.setup(c, ctx as never),
        salt: ctx.seed.slice(0, 4),
      }),
    };
    const withSeed = new LocalRoom({
      protocol: seeded as typeof game,
      config: { players: 2, window: 1000 },
      seed: SEED,
      now: 100,
    });
    expect(
      refoldLog(withSeed.entries, new Map([[game.name, seeded as typeof game]]), { standInSeed: true })
        .skipped,
    ).toMatch(/seed is revealed only when it closes/);
  });

  it('an open room or an unknown protocol is not refolded, and says why', () => {
    const room = make();
    room.must('p0', { type: 'seal', value: 4 }, 200);
    expect(refoldLog(room.entries, registry).skipped).toMatch(/seed is revealed only when it closes/);
    expect(refoldLog(room.entries, registry, { seed: SEED })).toMatchObject({ ok: true, closed: false });
    expect(refoldLog(room.entries, new Map()).skipped).toMatch(/does not run protocol sum-game/);
  });
});
