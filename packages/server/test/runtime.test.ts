import {
  entryLeafHashHex,
  fromHex,
  openNote,
  PublicEntrySchema,
  parseVerifierKey,
  publicForm,
  redactEntry,
  rootOf,
  sha256Hex,
  toHex,
  verifyCheckpoint,
  verifyInclusion,
  verifyReveal,
} from '@db8/core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Runtime, RuntimeError } from '../src/runtime/index.ts';
import { loadMemo } from '../src/runtime/load.ts';
import { stateHash } from '../src/runtime/room.ts';
import { openStore, Store } from '../src/store/index.ts';
import { counterRegistry } from './fixtures/counter.ts';
import { fakeClock, makeRuntime, recordingBus, TEST_KEY } from './runtime.helpers.ts';
import { counting } from './store.helpers.ts';

const ADMIN = { kind: 'admin' } as const;
const OBSERVER = { kind: 'observer' } as const;
const seat = (s: string) => ({ kind: 'seat', seat: s }) as const;

async function rejects(p: Promise<unknown>, code: string): Promise<RuntimeError> {
  const err = await p.then(
    () => null,
    (e) => e,
  );
  expect(err).toBeInstanceOf(RuntimeError);
  expect((err as RuntimeError).code).toBe(code);
  return err as RuntimeError;
}

describe('runtime (PGlite)', () => {
  let store: Store;
  let clock: ReturnType<typeof fakeClock>;
  let bus: ReturnType<typeof recordingBus>;
  let rt: Runtime;

  // One embedded database for the file (starting PGlite is the slow part); rooms keep tests apart.
  beforeAll(async () => {
    store = await openStore({ memory: true });
  });
  afterAll(async () => {
    await store.close();
  });
  beforeEach(() => {
    clock = fakeClock();
    bus = recordingBus();
    rt = makeRuntime(store, { clock, bus, snapshotEvery: 5, checkpointEvery: 8 });
  });
  afterEach(async () => {
    await rt.drain();
  });

  async function room(config: Record<string, unknown> = {}) {
    const info = await rt.createRoom({ protocol: 'counter', config, title: 'T' });
    await rt.join(info.id, { principal: 'alice' });
    await rt.join(info.id, { principal: 'bob' });
    return info.id;
  }
  const all = (id: string) => rt.entries(id, ADMIN, 0, 1000);

  it('creates a room with a genesis entry committing to the seed', async () => {
    const info = await rt.createRoom({ protocol: 'counter', config: { players: 3 }, title: 'First' });
    expect(info).toMatchObject({
      protocol: 'counter',
      protocolVersion: 1,
      title: 'First',
      status: 'open',
      seq: 0,
      deadlineUnix: clock() + 10_000,
      config: { players: 3, turnMs: 10_000, target: 10 },
    });
    expect(info.seats).toEqual([
      { id: 'p1', role: 'player', held: false },
      { id: 'p2', role: 'player', held: false },
      { id: 'p3', role: 'player', held: false },
    ]);
    const [genesis] = await rt.entries(info.id, OBSERVER, 0, 10);
    expect(PublicEntrySchema.parse(genesis)).toBeTruthy();
    expect(genesis).toMatchObject({ kind: 'genesis', seq: 0, actor: 'system', vis: { kind: 'public' } });
    const payload = genesis?.payload as { seedCommit: string; protocol: string; version: number };
    expect(payload.protocol).toBe('counter');
    const seed = (await store.rooms.get(info.id))?.seed as string;
    expect(payload.seedCommit).toBe(sha256Hex(fromHex(seed)));
    expect(JSON.stringify(genesis)).not.toContain(seed);
    expect(bus.published.map((p) => p.entry.kind)).toEqual(['genesis']);
  });

  it('refuses unknown protocols and bad configs', async () => {
    await rejects(rt.createRoom({ protocol: 'chess', config: {} }), 'UNKNOWN_PROTOCOL');
    await rejects(rt.createRoom({ protocol: 'counter', config: { players: 99 } }), 'BAD_CONFIG');
    await rejects(rt.getRoom('room_nope'), 'ROOM_NOT_FOUND');
    await rejects(rt.act('room_nope', { seat: 'p1', action: { type: 'note', text: 'x' } }), 'ROOM_NOT_FOUND');
  });

  it('stores the canonical public form and its leaf hash for every entry', async () => {
    const id = await room();
    await rt.act(id, { seat: 'p1', action: { type: 'inc', by: 2 } });
    await rt.act(id, { seat: 'p2', action: { type: 'secret', value: 'x' } });
    const rows = await store.entries.range(id, 0);
    expect(rows).toHaveLength(5);
    for (const row of rows) {
      const pub = JSON.parse(row.publicJson);
      expect(PublicEntrySchema.safeParse(pub).success).toBe(true);
      expect(row.leafHash).toBe(entryLeafHashHex(pub));
    }
  });

  it('joins: seats in order, a seated principal keeps its seat, full rooms refuse', async () => {
    const info = await rt.createRoom({ protocol: 'counter', config: {} });
    const a = await rt.join(info.id, { principal: 'alice' });
    expect(a).toEqual({ seat: 'p1', entrySeq: 1 });
    expect(await rt.join(info.id, { principal: 'alice' })).toEqual(a);
    await rejects(rt.join(info.id, { principal: 'bob', seat: 'p1' }), 'SEAT_TAKEN');
    await rejects(rt.join(info.id, { principal: 'bob', seat: 'p9' }), 'UNKNOWN_SEAT');
    expect(await rt.join(info.id, { principal: 'bob' })).toEqual({ seat: 'p2', entrySeq: 2 });
    await rejects(rt.join(info.id, { principal: 'carol' }), 'ROOM_FULL');
    expect((await rt.getRoom(info.id)).seats.map((s) => s.held)).toEqual([true, true]);
    expect(await rt.seatOf(info.id, 'bob')).toBe('p2');
    // Who sits where is admin-only while the room runs.
    const [join] = await rt.entries(info.id, OBSERVER, 1, 1);
    expect(join).toMatchObject({ kind: 'join', actor: 'p1', vis: { kind: 'admin' } });
    expect(join?.payload).toBeUndefined();
    expect(JSON.stringify(join)).not.toContain('alice');
    const [adminJoin] = await rt.entries(info.id, ADMIN, 1, 1);
    expect(adminJoin?.sealed?.payload).toEqual({ seat: 'p1', principal: 'alice' });
  });

  it('appends actions in seq order and folds them', async () => {
    const id = await room();
    clock.advance(5);
    const ack = await rt.act(id, { seat: 'p1', action: { type: 'inc', by: 3 } });
    expect(ack).toEqual({ seq: 3, duplicate: false, ts: clock() });
    const st = await rt.stateFor(id, seat('p2'));
    expect(st).toMatchObject({ seq: 3, status: 'open', protocol: 'counter', view: { count: 3, turn: 'p2' } });
    expect(st.legal?.turnToken).toBe('v1');
    expect(st.deadlineUnix).toBe(clock() + 10_000);
    expect((await rt.getRoom(id)).deadlineUnix).toBe(clock() + 10_000);
    expect((await rt.stateFor(id, OBSERVER)).legal).toBeUndefined();
    expect(bus.published.map((p) => p.entry.seq)).toEqual([0, 1, 2, 3]);
  });

  it('a rejection writes nothing', async () => {
    const id = await room();
    const before = await all(id);
    const err = await rejects(rt.act(id, { seat: 'p2', action: { type: 'inc', by: 1 } }), 'NOT_YOUR_TURN');
    expect(err.status).toBe(409);
    await rejects(rt.act(id, { seat: 'p1', action: { type: 'inc', by: 7 } }), 'BAD_ACTION');
    await rejects(
      rt.act(id, { seat: 'p1', action: { type: 'inc', by: 1 }, principal: 'bob' }),
      'SEAT_NOT_HELD',
    );
    await rejects(rt.act(id, { seat: 'p1', action: { type: 'inc', by: 1 }, expectedSeq: 0 }), 'STALE_SEQ');
    await rejects(
      rt.act(id, { seat: 'p1', action: { type: 'inc', by: 1 }, turnToken: 'v9' }),
      'STALE_TURN_TOKEN',
    );
    await rejects(rt.act(id, { seat: 'p7', action: { type: 'note', text: '' } }), 'UNKNOWN_SEAT');
    await rejects(rt.act(id, { seat: 'p1', action: { type: 'boom' } }), 'PROTOCOL_ERROR');
    expect(await all(id)).toEqual(before);
    expect((await rt.getRoom(id)).seq).toBe(2);
    expect(bus.published).toHaveLength(3);
    // and the room still works
    const ok = await rt.act(id, {
      seat: 'p1',
      action: { type: 'inc', by: 1 },
      principal: 'alice',
      expectedSeq: 2,
      turnToken: 'v0',
    });
    expect(ok.seq).toBe(3);
  });

  it('a rejected action inside a busy batch does not disturb its neighbours', async () => {
    const id = await room();
    const results = await Promise.allSettled([
      rt.act(id, { seat: 'p1', action: { type: 'note', text: 'a' } }),
      rt.act(id, { seat: 'p2', action: { type: 'inc', by: 1 } }),
      rt.act(id, { seat: 'p1', action: { type: 'inc', by: 1 } }),
      rt.act(id, { seat: 'p2', action: { type: 'inc', by: 1 } }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((await all(id)).map((e) => e.seq)).toEqual([0, 1, 2, 3, 4, 5]);
    expect((await rt.stateFor(id, OBSERVER)).view).toMatchObject({ count: 2, notes: 1 });
  });

  it('many concurrent actions get distinct, contiguous seqs', async () => {
    const id = await room();
    const acks = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        rt.act(id, { seat: i % 2 ? 'p1' : 'p2', action: { type: 'note', text: `${i}` } }),
      ),
    );
    expect(acks.map((a) => a.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i + 3));
    expect((await rt.replay(id)).ok).toBe(true);
  });

  it('idempotency: a retried client nonce or turn token returns the first ack and writes nothing', async () => {
    const id = await room();
    const first = await rt.act(id, { seat: 'p1', action: { type: 'note', text: 'hi' }, clientNonce: 'n-1' });
    clock.advance(1000);
    const again = await rt.act(id, { seat: 'p1', action: { type: 'note', text: 'hi' }, clientNonce: 'n-1' });
    expect(again).toEqual({ ...first, duplicate: true });
    await rejects(
      rt.act(id, { seat: 'p1', action: { type: 'note', text: 'other' }, clientNonce: 'n-1' }),
      'IDEMPOTENCY_KEY_REUSED',
    );
    // The same nonce from another seat is another request.
    expect(
      (await rt.act(id, { seat: 'p2', action: { type: 'note', text: 'hi' }, clientNonce: 'n-1' })).duplicate,
    ).toBe(false);
    // A turn token retried after the turn moved on still gets its ack back, not STALE_TURN_TOKEN.
    const inc = await rt.act(id, { seat: 'p1', action: { type: 'inc', by: 1 }, turnToken: 'v0' });
    const incAgain = await rt.act(id, { seat: 'p1', action: { type: 'inc', by: 1 }, turnToken: 'v0' });
    expect(incAgain).toEqual({ ...inc, duplicate: true });
    // Duplicates inside one batch.
    const twins = await Promise.all([
      rt.act(id, { seat: 'p2', action: { type: 'note', text: 't' }, clientNonce: 'twin' }),
      rt.act(id, { seat: 'p2', action: { type: 'note', text: 't' }, clientNonce: 'twin' }),
    ]);
    expect(twins[1]).toEqual({ ...twins[0], duplicate: true });
    expect((await all(id)).length).toBe(7);
    expect((await rt.stateFor(id, OBSERVER)).view).toMatchObject({ count: 1, notes: 3 });
  });

  it('a new client nonce costs no lookup: the append is the one statement; a reuse is still caught', async () => {
    const c = counting(store.db);
    const rt2 = makeRuntime(new Store(c.db), { clock, maxRetries: 0 });
    const info = await rt2.createRoom({ protocol: 'counter', config: { target: 10 ** 6 }, title: 'N' });
    await rt2.join(info.id, { principal: 'alice' });
    const before = c.count();
    const first = await rt2.act(info.id, {
      seat: 'p1',
      action: { type: 'note', text: 'a' },
      clientNonce: 'k',
    });
    expect(c.count() - before).toBe(1);
    // Planned as new, refused by the key's primary key at commit, planned again with the lookup:
    // the first ack, even with no retries allowed for seq races.
    const again = await rt2.act(info.id, {
      seat: 'p1',
      action: { type: 'note', text: 'a' },
      clientNonce: 'k',
    });
    expect(again).toEqual({ ...first, duplicate: true });
    await rejects(
      rt2.act(info.id, { seat: 'p1', action: { type: 'note', text: 'b' }, clientNonce: 'k' }),
      'IDEMPOTENCY_KEY_REUSED',
    );
    // Refused now (stale) but taken the first time: the first ack again.
    const stale = { seat: 'p1', action: { type: 'note', text: 'a' }, clientNonce: 'k', expectedSeq: 0 };
    expect(await rt2.act(info.id, stale)).toEqual({ ...first, duplicate: true });
    expect((await rt2.entries(info.id, ADMIN, 0, 100)).length).toBe(first.seq + 1);
    await rt2.drain();
  });

  it('a protocol that offers a used turn token again is refused (PROTOCOL_ERROR), nothing written', async () => {
    // Legal's contract lets the runtime skip the idempotency lookup for the offered token: a
    // protocol breaking it would let a retry apply twice, so the runtime stops it at the first use.
    const counter = counterRegistry.get('counter')!;
    const sticky = {
      ...counter,
      name: 'sticky',
      legal: (st: Parameters<typeof counter.legal>[0], s: string) => {
        const l = counter.legal(st, s);
        return l.turnToken ? { ...l, turnToken: 'same' } : l;
      },
    };
    const rt2 = makeRuntime(store, { clock, protocols: new Map([['sticky', sticky]]) as never });
    const info = await rt2.createRoom({ protocol: 'sticky', config: { players: 1 }, title: 'S' });
    await rt2.join(info.id, { principal: 'alice' });
    const before = (await rt2.entries(info.id, ADMIN, 0, 100)).length;
    await rejects(
      rt2.act(info.id, { seat: 'p1', action: { type: 'inc', by: 1 }, turnToken: 'same' }),
      'PROTOCOL_ERROR',
    );
    expect((await rt2.entries(info.id, ADMIN, 0, 100)).length).toBe(before);
    await rt2.drain();
  });

  it('tickWithAction: a deadline the action made due is ticked in its append; without it, left to the scheduler', async () => {
    // `hasty`: an inc leaves the next seat no time at all (its deadline is the action's own time).
    const counter = counterRegistry.get('counter')!;
    const apply = (st: Parameters<typeof counter.apply>[0], a: Parameters<typeof counter.apply>[1]) => {
      const r = counter.apply(st, a);
      return r.ok && a.action.type === 'inc' ? { ...r, state: { ...r.state, turnDeadline: a.now } } : r;
    };
    const hasty = { ...counter, name: 'hasty', apply, tickWithAction: true };
    const patient = { ...counter, name: 'patient', apply };
    const protocols = new Map([
      ['hasty', hasty],
      ['patient', patient],
    ]);
    const rt2 = makeRuntime(store, { clock, bus, protocols: protocols as never });
    for (const name of ['hasty', 'patient']) {
      const info = await rt2.createRoom({ protocol: name, config: { players: 2 }, title: 'H' });
      await rt2.join(info.id, { principal: 'alice' });
      await rt2.join(info.id, { principal: 'bob' });
      const published = bus.published.length;
      const ack = await rt2.act(info.id, { seat: 'p1', action: { type: 'inc', by: 1 } });
      // No scheduler runs here: a tick that skipped p2 came with the action, in its append.
      const kinds = (await rt2.entries(info.id, ADMIN, ack.seq, 10)).map((e) => [e.seq, e.kind]);
      const seqs = bus.published.slice(published).map((p) => p.entry.seq);
      const st = await rt2.stateFor(info.id, seat('p1'));
      if (name === 'hasty') {
        expect(kinds).toEqual([
          [ack.seq, 'action'],
          [ack.seq + 1, 'tick'],
        ]);
        expect(seqs).toEqual([ack.seq, ack.seq + 1]);
        expect(st.view).toMatchObject({ count: 1, turn: 'p1' });
        expect(st.legal?.turnToken).toEqual(expect.any(String));
      } else {
        expect(kinds).toEqual([[ack.seq, 'action']]);
        expect(seqs).toEqual([ack.seq]);
        expect(st.view).toMatchObject({ count: 1, turn: 'p2' });
        expect(await rt2.tick(info.id)).toBe(ack.seq + 1); // the scheduler's tick, due already
      }
    }
    await rt2.drain();
  });

  it('sealed entries: committed publicly, readable by their seat, revealed later against the commitment', async () => {
    const id = await room();
    const { seq } = await rt.act(id, { seat: 'p2', action: { type: 'secret', value: 'rosebud' } });
    const [asObserver] = await rt.entries(id, OBSERVER, seq, 1);
    const [asOther] = await rt.entries(id, seat('p1'), seq, 1);
    const [asOwner] = await rt.entries(id, seat('p2'), seq, 1);
    for (const e of [asObserver, asOther]) {
      expect(e?.commit).toMatch(/^[0-9a-f]{64}$/);
      expect(e?.payload).toBeUndefined();
      expect(e?.sealed).toBeUndefined();
      expect(JSON.stringify(e)).not.toContain('rosebud');
    }
    expect(asOwner?.sealed?.payload).toEqual({ type: 'secret', value: 'rosebud' });
    expect(asOwner?.sealed?.salt).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(bus.published)).not.toContain('rosebud');
    expect((await rt.stateFor(id, seat('p2'))).view).toMatchObject({ mySecret: seq });

    const r = await rt.act(id, { seat: 'p2', action: { type: 'reveal' } });
    const [revealEntry] = await rt.entries(id, OBSERVER, r.seq, 1);
    expect(revealEntry?.reveals).toHaveLength(1);
    const reveal = revealEntry?.reveals?.[0];
    expect(reveal).toMatchObject({ seq, payload: { type: 'secret', value: 'rosebud' } });
    expect(verifyReveal(asObserver!, reveal!)).toBe(true);
    expect(verifyReveal(asObserver!, { ...reveal!, payload: { type: 'secret', value: 'other' } })).toBe(
      false,
    );
  });

  it('refuses to write a reveal that does not match its commitment', async () => {
    const id = await room();
    const { seq } = await rt.act(id, { seat: 'p2', action: { type: 'secret', value: 'a' } });
    await store.db.query(
      `UPDATE entries SET sealed_json = replace(sealed_json, '"value":"a"', '"value":"b"') WHERE room_id = $1 AND seq = $2`,
      [id, seq],
    );
    await rejects(rt.act(id, { seat: 'p2', action: { type: 'reveal' } }), 'BAD_REVEAL');
    expect((await rt.getRoom(id)).seq).toBe(seq);
  });

  it('the end: a close entry reveals the seed and the seats; the room refuses input but answers retries', async () => {
    const id = await room({ target: 3 });
    const ack = await rt.act(id, { seat: 'p1', action: { type: 'inc', by: 3 }, clientNonce: 'last' });
    const entries = await rt.entries(id, OBSERVER, 0, 100);
    const close = entries.at(-1);
    const seedRow = (await store.rooms.get(id))?.seed;
    expect(close).toMatchObject({
      kind: 'close',
      seq: ack.seq + 1,
      payload: { seed: seedRow, result: { winner: 'p1', count: 3 } },
    });
    const revealed = (close?.payload as { seed: string } | undefined)?.seed as string;
    const committed = (entries[0]?.payload as { seedCommit: string } | undefined)?.seedCommit;
    expect(sha256Hex(fromHex(revealed))).toBe(committed);
    expect(close?.reveals?.map((r) => r.payload)).toEqual([
      { seat: 'p1', principal: 'alice' },
      { seat: 'p2', principal: 'bob' },
    ]);
    for (const r of close?.reveals ?? []) expect(verifyReveal(entries[r.seq]!, r)).toBe(true);
    const info = await rt.getRoom(id);
    expect(info).toMatchObject({ status: 'closed', deadlineUnix: null });
    expect((await rt.stateFor(id, OBSERVER)).status).toBe('closed');
    await rejects(rt.act(id, { seat: 'p2', action: { type: 'note', text: 'late' } }), 'ROOM_CLOSED');
    expect(await rt.act(id, { seat: 'p1', action: { type: 'inc', by: 3 }, clientNonce: 'last' })).toEqual({
      ...ack,
      duplicate: true,
    });
    expect((await store.rooms.due(clock() + 10 ** 9)).map((r) => r.id)).not.toContain(id);
  });

  it('snapshot + tail load equals a full refold; replay reproduces the stored state', async () => {
    const id = await room({ target: 1000 });
    for (let i = 0; i < 23; i++) {
      clock.advance(7);
      await rt.act(id, { seat: i % 2 ? 'p2' : 'p1', action: { type: 'inc', by: 1 + (i % 3) } });
      if (i % 4 === 0) await rt.act(id, { seat: 'p1', action: { type: 'secret', value: `s${i}` } });
    }
    const snaps = await store.snapshots.hashes(id);
    expect(snaps.length).toBeGreaterThanOrEqual(5);
    const fromSnapshot = await loadMemo(store, counterRegistry, id);
    const refold = await loadMemo(store, counterRegistry, id, { fromScratch: true });
    expect(fromSnapshot.seq).toBe(refold.seq);
    expect(stateHash(fromSnapshot.state)).toBe(stateHash(refold.state));
    expect(toHex(fromSnapshot.frontier.root())).toBe(toHex(refold.frontier.root()));
    // A fresh runtime (no cache) serves the same state.
    const fresh = makeRuntime(store, { clock });
    expect(await fresh.stateFor(id, seat('p1'))).toEqual(await rt.stateFor(id, seat('p1')));
    const report = await rt.replay(id);
    expect(report).toMatchObject({ ok: true, seq: refold.seq, problems: [] });
    expect(report.stateHash).toBe(report.storedStateHash);
    expect(report.stateHash).toBe(stateHash(refold.state));
  });

  it('replay finds tampering: an edited entry, a wrong snapshot', async () => {
    const id = await room({ target: 1000 });
    for (let i = 0; i < 12; i++) await rt.act(id, { seat: 'p1', action: { type: 'note', text: `n${i}` } });
    await store.db.query(
      `UPDATE entries SET public_json = replace(public_json, '"text":"n4"', '"text":"N4"') WHERE room_id = $1 AND seq = 7`,
      [id],
    );
    const edited = await rt.replay(id);
    expect(edited.ok).toBe(false);
    expect(edited.firstDivergence).toBe(7);
    const [snap] = await store.snapshots.hashes(id);
    await store.db.query('UPDATE snapshots SET state_hash = $3 WHERE room_id = $1 AND seq = $2', [
      id,
      snap?.seq,
      '00',
    ]);
    await store.db.query(
      `UPDATE entries SET public_json = replace(public_json, '"text":"N4"', '"text":"n4"') WHERE room_id = $1 AND seq = 7`,
      [id],
    );
    const snapped = await rt.replay(id);
    expect(snapped.ok).toBe(false);
    expect(snapped.firstDivergence).toBe(snap?.seq);
  });

  it('checkpoints are C2SP notes signed by the server key over the log root', async () => {
    const id = await room({ target: 1000 });
    for (let i = 0; i < 2; i++) {
      await rt.act(id, { seat: 'p1', action: { type: 'inc', by: 3 } });
      await rt.act(id, { seat: 'p2', action: { type: 'inc', by: 3 } });
    }
    for (let i = 0; i < 12; i++) await rt.act(id, { seat: 'p1', action: { type: 'note', text: `${i}` } });
    const cps = await rt.checkpoints(id);
    expect(cps.find((c) => c.size === 1)?.milestone).toBe('genesis');
    // count 3 -> 6 crossed a multiple of 5 at the 2nd inc (size 5); 9 -> 12 at the 4th (size 7).
    expect(cps.filter((c) => c.milestone?.startsWith('count-')).map((c) => [c.size, c.milestone])).toEqual([
      [5, 'count-6'],
      [7, 'count-12'],
    ]);
    // every 8 entries, besides milestones
    expect(cps.filter((c) => c.milestone === undefined).map((c) => c.size)).toEqual([8, 16]);
    const leaves = (await store.entries.leafHashes(id)).map(fromHex);
    const verifier = parseVerifierKey(TEST_KEY.noteVerifierKey);
    for (const c of cps) {
      const { checkpoint } = verifyCheckpoint(c.note, [verifier], { origin: `db8.test/room/${id}` });
      expect(checkpoint.size).toBe(c.size);
      expect(toHex(checkpoint.rootHash)).toBe(c.rootHash);
      expect(c.rootHash).toBe(toHex(rootOf(leaves, c.size)));
      expect(openNote(c.note, [verifier]).sigs[0]?.name).toBe('db8.test');
    }
    const forged = cps[0]!.note.replace(/\n(\d+)\n/, (_m, n) => `\n${Number(n) + 1}\n`);
    expect(() => openNote(forged, [verifier])).toThrow();
  });

  it('inclusion proofs verify for every entry against the signed checkpoint', async () => {
    const id = await room({ target: 1000 });
    for (let i = 0; i < 10; i++) await rt.act(id, { seat: 'p1', action: { type: 'note', text: `${i}` } });
    const entries = await all(id);
    const verifier = parseVerifierKey(TEST_KEY.noteVerifierKey);
    for (const e of entries) {
      const p = await rt.proof(id, e.seq);
      expect(p.leafHash).toBe(entryLeafHashHex(e));
      const { checkpoint } = verifyCheckpoint(p.checkpoint, [verifier]);
      expect(checkpoint.size).toBe(p.treeSize);
      expect(p.treeSize).toBeGreaterThan(e.seq);
      const ok = verifyInclusion(
        fromHex(p.leafHash),
        p.index,
        p.treeSize,
        p.proof.map(fromHex),
        checkpoint.rootHash,
      );
      expect(ok).toBe(true);
      expect(
        verifyInclusion(fromHex(p.leafHash), p.index, p.treeSize, p.proof.map(fromHex), new Uint8Array(32)),
      ).toBe(false);
    }
    // The last entries were past every stored checkpoint: a checkpoint of the head was signed.
    expect((await rt.checkpoints(id)).at(-1)?.size).toBe(entries.length);
    await rejects(rt.proof(id, entries.length), 'ENTRY_NOT_FOUND');
  });

  it('timers: the deadline lives in the store and the watcher ticks due rooms', async () => {
    // Earlier than every other test's rooms, whose deadlines are thus never due here.
    clock.set(1_000_000_000_000);
    const id = await room({ turnMs: 1000 });
    const deadline = (await store.rooms.get(id))?.deadlineAt as number;
    expect(deadline).toBe(clock() + 1000);
    expect(await rt.tickDue()).toBe(0);
    expect(await rt.tick(id)).toBeNull();
    clock.set(deadline);
    expect(await rt.tickDue()).toBe(1);
    const tick = (await all(id)).at(-1);
    expect(tick).toMatchObject({ kind: 'tick', actor: 'system', ts: deadline, payload: { deadline } });
    expect((await rt.stateFor(id, OBSERVER)).view).toMatchObject({ turn: 'p2' });
    expect((await store.rooms.get(id))?.deadlineAt).toBe(deadline + 1000);
    expect(await rt.tickDue()).toBe(0);
    clock.advance(1000);
    expect(await rt.tickDue()).toBe(1);
    expect((await rt.replay(id)).ok).toBe(true);
  });

  it('export yields the room, every entry as the viewer may see it, and the checkpoints', async () => {
    const id = await room();
    await rt.act(id, { seat: 'p1', action: { type: 'secret', value: 'hidden' } });
    const records: Array<Record<string, unknown>> = [];
    for await (const r of rt.export(id, OBSERVER)) records.push(r as Record<string, unknown>);
    // The journal bundle format (packages/core/src/journal): header, key, entries, checkpoints, end.
    expect(records[0]).toMatchObject({
      type: 'db8-journal',
      origin: `db8.test/room/${id}`,
      viewer_class: 'public',
    });
    expect(records[1]).toMatchObject({ type: 'key', note_vkey: TEST_KEY.noteVerifierKey });
    expect(records.filter((r) => r.type === 'entry')).toHaveLength(4);
    expect(records.filter((r) => r.type === 'checkpoint').length).toBeGreaterThan(0);
    expect(records.at(-1)).toMatchObject({ type: 'end', entries: 4 });
    expect(JSON.stringify(records)).not.toContain('hidden');
  });

  it('bus gets public forms only', async () => {
    const id = await room();
    await rt.act(id, { seat: 'p1', action: { type: 'secret', value: 'zz' } });
    for (const { entry } of bus.published) {
      expect(PublicEntrySchema.safeParse(entry).success).toBe(true);
      expect('sealed' in entry).toBe(false);
    }
    const stored = await all(id);
    expect(bus.published.map((p) => p.entry)).toEqual(stored.map((e) => publicForm(e)));
    expect(redactEntry(stored[3]!, OBSERVER)).toEqual(bus.published[3]?.entry);
  });
});
