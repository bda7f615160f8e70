import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey, isUniqueViolation, migrate, Store } from '../src/store/index.ts';
import type { EntryRow } from '../src/store/schemas.ts';
import { counting, type StoreFactory, type TestStore } from './store.helpers.ts';

/**
 * The storage contract, written once and run on every driver (store.test.ts: PGlite in memory;
 * store.int.test.ts: real PostgreSQL in a throwaway schema).
 */
export function storeContract(driverName: string, factory: StoreFactory): void {
  describe(`store contract (${driverName})`, () => {
    let t: TestStore;
    let store: Store;
    let n = 0;
    const rid = () => `room_${driverName}_${++n}`;

    beforeAll(async () => {
      t = await factory();
      store = t.store;
    });
    afterAll(async () => {
      await t?.cleanup();
    });

    async function makeRoom(
      id = rid(),
      over: Partial<{ protocol: string; createdAt: number; deadlineAt: number }> = {},
    ) {
      await store.rooms.create(
        {
          id,
          protocol: over.protocol ?? 'counter',
          protocolVersion: 1,
          configJson: '{"seats":2}',
          title: `Room ${id}`,
          createdBy: null,
          createdAt: over.createdAt ?? 1000,
          seed: 'ab'.repeat(32),
          deadlineAt: over.deadlineAt ?? null,
        },
        [
          { seat: 'p1', role: 'player' },
          { seat: 'p2', role: 'player' },
        ],
      );
      return id;
    }

    function entry(roomId: string, seq: number, over: Partial<EntryRow> = {}): EntryRow {
      return {
        roomId,
        seq,
        ts: 1_700_000_000_000 + seq,
        kind: 'action',
        actor: 'p1',
        publicJson: `{"seq":${seq},"text":"héllo ✓ \\"quoted\\""}`,
        sealedJson: null,
        leafHash: seq.toString(16).padStart(64, '0'),
        ...over,
      };
    }

    it('migrations are recorded and re-applying them is a no-op', async () => {
      expect(await migrate(store.db)).toEqual([]);
      const rows = await store.db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
      expect(rows.map((r) => r.name)).toContain('001_init.sql');
    });

    it('creates, reads and lists rooms with filters and keyset pagination', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++)
        ids.push(await makeRoom(`list_${driverName}_${i}`, { protocol: 'lister', createdAt: 5000 + i }));
      const room = await store.rooms.get(ids[0]!);
      expect(room).toMatchObject({
        id: ids[0],
        protocol: 'lister',
        protocolVersion: 1,
        configJson: '{"seats":2}',
        status: 'open',
        headSeq: -1,
        deadlineAt: null,
        createdAt: 5000,
        updatedAt: 5000,
      });
      expect(await store.rooms.get('nope')).toBeNull();
      const page1 = await store.rooms.list({ protocol: 'lister', limit: 2 });
      expect(page1.rooms.map((r) => r.id)).toEqual([ids[4], ids[3]]);
      expect(page1.nextCursor).not.toBeNull();
      const page2 = await store.rooms.list({ protocol: 'lister', limit: 2, cursor: page1.nextCursor! });
      expect(page2.rooms.map((r) => r.id)).toEqual([ids[2], ids[1]]);
      const page3 = await store.rooms.list({ protocol: 'lister', limit: 2, cursor: page2.nextCursor! });
      expect(page3.rooms.map((r) => r.id)).toEqual([ids[0]]);
      expect(page3.nextCursor).toBeNull();
      await store.rooms.setHead(ids[1]!, { headSeq: 3, deadlineAt: null, status: 'closed', updatedAt: 9000 });
      const closed = await store.rooms.list({ protocol: 'lister', status: 'closed' });
      expect(closed.rooms.map((r) => r.id)).toEqual([ids[1]]);
      expect(closed.rooms[0]).toMatchObject({ headSeq: 3, closedAt: 9000, status: 'closed' });
    });

    it('rejects a second room with the same id', async () => {
      const id = await makeRoom();
      await expect(makeRoom(id)).rejects.toSatisfy((e) => isUniqueViolation(e));
    });

    it('finds due rooms by deadline, skipping closed rooms and future deadlines', async () => {
      const a = await makeRoom(undefined, { protocol: 'due', deadlineAt: 10_000 });
      const b = await makeRoom(undefined, { protocol: 'due', deadlineAt: 20_000 });
      const c = await makeRoom(undefined, { protocol: 'due', deadlineAt: 5_000 });
      await store.rooms.setHead(c, { headSeq: 0, deadlineAt: 5_000, status: 'closed', updatedAt: 1 });
      const due = (await store.rooms.due(15_000)).map((r) => r.id);
      expect(due).toContain(a);
      expect(due).not.toContain(b);
      expect(due).not.toContain(c);
      await store.rooms.setHead(a, { headSeq: 1, deadlineAt: null, status: 'open', updatedAt: 2 });
      expect((await store.rooms.due(15_000)).map((r) => r.id)).not.toContain(a);
      expect((await store.rooms.due(25_000)).find((r) => r.id === b)?.deadlineAt).toBe(20_000);
    });

    it('seats: ordered, taken once, found by principal', async () => {
      const id = await makeRoom();
      expect((await store.rooms.seats(id)).map((s) => [s.seat, s.role, s.principalId])).toEqual([
        ['p1', 'player', null],
        ['p2', 'player', null],
      ]);
      expect(await store.rooms.takeSeat(id, 'p2', 'agent_x', 4, 77)).toBe(true);
      expect(await store.rooms.takeSeat(id, 'p2', 'agent_y', 5, 78)).toBe(false);
      expect(await store.rooms.takeSeat(id, 'zz', 'agent_y', 5, 78)).toBe(false);
      const mine = await store.rooms.seatsOf('agent_x', id);
      expect(mine).toEqual([
        {
          roomId: id,
          seat: 'p2',
          role: 'player',
          ord: 1,
          principalId: 'agent_x',
          joinedSeq: 4,
          joinedAt: 77,
        },
      ]);
      expect((await store.rooms.seatsOf('agent_x')).map((s) => s.roomId)).toContain(id);
    });

    it('appends entries and reads them back byte for byte', async () => {
      const id = await makeRoom();
      const rows = [0, 1, 2].map((s) => entry(id, s));
      rows[1] = { ...rows[1]!, sealedJson: '{"payload":{"bid":5},"salt":"00"}', kind: 'action', actor: 'p2' };
      await store.entries.append(rows);
      expect(await store.entries.range(id, 0)).toEqual(rows);
      expect(await store.entries.range(id, 1, 1)).toEqual([rows[1]]);
      expect(await store.entries.bySeqs(id, [2, 0])).toEqual([rows[0], rows[2]]);
      expect(await store.entries.leafHashes(id)).toEqual(rows.map((r) => r.leafHash));
      expect(await store.entries.leafHashes(id, 1, 2)).toEqual([rows[1]!.leafHash]);
      expect(await store.entries.head(id)).toBe(2);
      expect(await store.entries.head('no_room')).toBe(-1);
    });

    it('a duplicate seq is a unique violation and the whole batch writes nothing', async () => {
      const id = await makeRoom();
      await store.entries.append([entry(id, 0)]);
      const err = await store.entries.append([entry(id, 1), entry(id, 0, { actor: 'p2' })]).catch((e) => e);
      expect(isUniqueViolation(err)).toBe(true);
      expect(isUniqueViolation(err, 'entries_pkey')).toBe(true);
      expect((await store.entries.range(id, 0)).map((e) => [e.seq, e.actor])).toEqual([[0, 'p1']]);
    });

    it('concurrent writers of the same seq: exactly one wins', async () => {
      const id = await makeRoom();
      const results = await Promise.allSettled(
        ['p1', 'p2', 'p1', 'p2'].map((actor) =>
          store.tx(async (s) => {
            await s.entries.append([entry(id, 0, { actor })]);
            await s.rooms.setHead(id, { headSeq: 0, deadlineAt: null, status: 'open', updatedAt: 1 });
          }),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect(isUniqueViolation(r.reason)).toBe(true);
      expect(await store.entries.range(id, 0)).toHaveLength(1);
    });

    it('appendWithHead writes entries, idempotency records and the head in one atomic statement', async () => {
      const id = await makeRoom();
      const head = { roomId: id, headSeq: 1, deadlineAt: 500, status: 'open' as const, updatedAt: 42 };
      const rec = { roomId: id, seat: 'p1', key: 'n:1', requestHash: 'h', seq: 1, ts: 42 };
      await store.entries.appendWithHead([entry(id, 0), entry(id, 1)], [rec], head);
      expect((await store.entries.range(id, 0)).map((e) => e.seq)).toEqual([0, 1]);
      expect(await store.idempotency.get(id, 'p1', 'n:1')).toEqual(rec);
      expect(await store.rooms.get(id)).toMatchObject({ headSeq: 1, deadlineAt: 500, updatedAt: 42 });
      // A clash on the idempotency key undoes the entry insert and the head update too.
      const err = await store.entries
        .appendWithHead([entry(id, 2)], [{ ...rec, seq: 2 }], { ...head, headSeq: 2, status: 'closed' })
        .catch((e) => e);
      expect(isUniqueViolation(err)).toBe(true);
      // ... and a clash on the seq undoes the idempotency record.
      const err2 = await store.entries
        .appendWithHead([entry(id, 1)], [{ ...rec, key: 'n:2' }], { ...head, headSeq: 2 })
        .catch((e) => e);
      expect(isUniqueViolation(err2, 'entries_pkey')).toBe(true);
      expect((await store.entries.range(id, 0)).map((e) => e.seq)).toEqual([0, 1]);
      expect(await store.idempotency.get(id, 'p1', 'n:2')).toBeNull();
      expect(await store.rooms.get(id)).toMatchObject({ headSeq: 1, status: 'open', closedAt: null });
      // One entry with one record (an action: the plain-VALUES statement) writes all three.
      const rec3 = { ...rec, key: 'n:3', seq: 2 };
      await store.entries.appendWithHead([entry(id, 2)], [rec3], { ...head, headSeq: 2, deadlineAt: 700 });
      expect(await store.idempotency.get(id, 'p1', 'n:3')).toEqual(rec3);
      expect(await store.rooms.get(id)).toMatchObject({ headSeq: 2, deadlineAt: 700, status: 'open' });
      // With no idempotency records it still works, and closing stamps closed_at.
      await store.entries.appendWithHead([entry(id, 3)], [], {
        ...head,
        headSeq: 3,
        status: 'closed',
        updatedAt: 50,
      });
      expect(await store.rooms.get(id)).toMatchObject({ headSeq: 3, status: 'closed', closedAt: 50 });
    });

    it('appendWithHead writes signed checkpoints in the same statement: all of it, or none when the seq clashes', async () => {
      const id = await makeRoom();
      const head = { roomId: id, headSeq: 0, deadlineAt: null, status: 'open' as const, updatedAt: 7 };
      const cp = {
        roomId: id,
        size: 1,
        rootHash: 'ab'.repeat(32),
        note: 'note-1',
        milestone: 'hand',
        createdAt: 7,
      };
      await store.entries.appendWithHead([entry(id, 0)], [], head, [cp]);
      expect(await store.checkpoints.list(id)).toEqual([cp]);
      // A seq clash writes neither the entry nor its checkpoint.
      const clash = await store.entries
        .appendWithHead([entry(id, 0)], [], { ...head, headSeq: 1 }, [{ ...cp, size: 2, note: 'note-2' }])
        .catch((e) => e);
      expect(isUniqueViolation(clash, 'entries_pkey')).toBe(true);
      expect((await store.checkpoints.list(id)).map((c) => c.size)).toEqual([1]);
      // The first signed head for a size stays (idempotent per size, as checkpoints.put).
      await store.entries.appendWithHead([entry(id, 1)], [], { ...head, headSeq: 1 }, [
        { ...cp, note: 'other' },
        { ...cp, size: 2, note: 'note-2' },
      ]);
      expect((await store.checkpoints.list(id)).map((c) => [c.size, c.note])).toEqual([
        [1, 'note-1'],
        [2, 'note-2'],
      ]);
    });

    it('group commit: appends made while one is written share the next statement, a room once in each', async () => {
      const c = counting(store.db);
      const grouped = new Store(c.db);
      const [a, b, d] = [await makeRoom(), await makeRoom(), await makeRoom()];
      const head = (roomId: string, headSeq: number) => ({
        roomId,
        headSeq,
        deadlineAt: 100 + headSeq,
        status: 'open' as const,
        updatedAt: 10 + headSeq,
      });
      const rec = { roomId: b, seat: 'p1', key: 'n:g', requestHash: 'h', seq: 0, ts: 1 };
      const before = c.count();
      await Promise.all([
        grouped.entries.appendWithHead([entry(a, 0)], [], head(a, 0)), // written at once, alone
        grouped.entries.appendWithHead([entry(b, 0)], [rec], head(b, 0)),
        grouped.entries.appendWithHead([entry(d, 0), entry(d, 1)], [], head(d, 1)),
        grouped.entries.appendWithHead([entry(a, 1)], [], head(a, 1)),
        grouped.entries.appendWithHead([entry(a, 2)], [], head(a, 2)), // a again: the next statement
      ]);
      expect(c.count() - before).toBe(3);
      for (const [id, seqs] of [
        [a, [0, 1, 2]],
        [b, [0]],
        [d, [0, 1]],
      ] as const) {
        expect((await store.entries.range(id, 0)).map((e) => e.seq)).toEqual(seqs);
        const last = seqs.at(-1)!;
        expect(await store.rooms.get(id)).toMatchObject({ headSeq: last, deadlineAt: 100 + last });
      }
      expect(await store.idempotency.get(b, 'p1', 'n:g')).toEqual(rec);
    });

    it('group commit: when a group clashes, each append gets its own answer', async () => {
      const grouped = new Store(store.db);
      const [a, b, x, d] = [await makeRoom(), await makeRoom(), await makeRoom(), await makeRoom()];
      await store.entries.append([entry(x, 0)]);
      const head = (roomId: string) => ({
        roomId,
        headSeq: 0,
        deadlineAt: null,
        status: 'open' as const,
        updatedAt: 1,
      });
      const results = await Promise.allSettled([
        grouped.entries.appendWithHead([entry(a, 0)], [], head(a)),
        grouped.entries.appendWithHead([entry(b, 0)], [], head(b)),
        grouped.entries.appendWithHead([entry(x, 0, { kind: 'other' })], [], head(x)), // seq 0 is taken
        grouped.entries.appendWithHead([entry(d, 0)], [], head(d)),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
      expect(isUniqueViolation((results[2] as PromiseRejectedResult).reason, 'entries_pkey')).toBe(true);
      for (const id of [a, b, d]) expect((await store.entries.range(id, 0)).length).toBe(1);
      expect((await store.entries.range(x, 0))[0]?.kind).toBe('action');
      expect(await store.rooms.get(x)).toMatchObject({ headSeq: -1 });
    });

    it('a transaction that throws rolls back every write', async () => {
      const id = await makeRoom();
      await expect(
        store.tx(async (s) => {
          await s.entries.append([entry(id, 0)]);
          await s.rooms.setHead(id, { headSeq: 0, deadlineAt: 1, status: 'open', updatedAt: 1 });
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(await store.entries.range(id, 0)).toEqual([]);
      expect((await store.rooms.get(id))?.headSeq).toBe(-1);
    });

    it('snapshots: newest at or before a seq; duplicates ignored', async () => {
      const id = await makeRoom();
      await store.snapshots.put({ roomId: id, seq: 9, stateHash: 'h9', bodyJson: '{"a":9}', createdAt: 1 });
      await store.snapshots.put({
        roomId: id,
        seq: 19,
        stateHash: 'h19',
        bodyJson: '{"a":19}',
        createdAt: 2,
      });
      await store.snapshots.put({ roomId: id, seq: 19, stateHash: 'other', bodyJson: '{}', createdAt: 3 });
      expect((await store.snapshots.latest(id))?.bodyJson).toBe('{"a":19}');
      expect((await store.snapshots.latest(id, 18))?.seq).toBe(9);
      expect(await store.snapshots.latest(id, 8)).toBeNull();
      expect(await store.snapshots.hashes(id)).toEqual([
        { seq: 9, stateHash: 'h9' },
        { seq: 19, stateHash: 'h19' },
      ]);
    });

    it('checkpoints: latest by size, first write per size stays', async () => {
      const id = await makeRoom();
      expect(await store.checkpoints.latest(id)).toBeNull();
      await store.checkpoints.put({
        roomId: id,
        size: 4,
        rootHash: 'r4',
        note: 'n4',
        milestone: 'round-1',
        createdAt: 1,
      });
      await store.checkpoints.put({
        roomId: id,
        size: 8,
        rootHash: 'r8',
        note: 'n8',
        milestone: null,
        createdAt: 2,
      });
      await store.checkpoints.put({
        roomId: id,
        size: 8,
        rootHash: 'x',
        note: 'x',
        milestone: null,
        createdAt: 3,
      });
      expect(await store.checkpoints.latest(id)).toMatchObject({ size: 8, rootHash: 'r8', note: 'n8' });
      expect((await store.checkpoints.list(id)).map((c) => [c.size, c.milestone])).toEqual([
        [4, 'round-1'],
        [8, null],
      ]);
    });

    it('idempotency records: read back; a second record for a key is a unique violation', async () => {
      const id = await makeRoom();
      const rec = { roomId: id, seat: 'p1', key: 'n:abc', requestHash: 'h', seq: 3, ts: 99 };
      await store.idempotency.put([rec]);
      expect(await store.idempotency.get(id, 'p1', 'n:abc')).toEqual(rec);
      expect(await store.idempotency.get(id, 'p2', 'n:abc')).toBeNull();
      const err = await store.idempotency.put([{ ...rec, seq: 4 }]).catch((e) => e);
      expect(isUniqueViolation(err)).toBe(true);
    });

    it('principals and public keys', async () => {
      await store.principals.create({
        id: `ag_${driverName}`,
        kind: 'agent',
        displayName: 'Bot',
        meta: { model: 'x' },
        createdAt: 5,
      });
      await store.principals.create({
        id: `pp_${driverName}`,
        kind: 'person',
        displayName: 'Ann',
        createdAt: 6,
      });
      expect(await store.principals.get(`ag_${driverName}`)).toEqual({
        id: `ag_${driverName}`,
        kind: 'agent',
        displayName: 'Bot',
        meta: { model: 'x' },
        createdAt: 5,
        disabledAt: null,
      });
      expect((await store.principals.list('person')).map((p) => p.id)).toContain(`pp_${driverName}`);
      await expect(
        store.principals.create({ id: `ag_${driverName}`, kind: 'agent', displayName: 'dup', createdAt: 1 }),
      ).rejects.toSatisfy((e) => isUniqueViolation(e));
      await store.principals.setDisabled(`pp_${driverName}`, 77);
      expect((await store.principals.get(`pp_${driverName}`))?.disabledAt).toBe(77);

      const fp = `SHA256:${driverName}key`;
      await store.principals.addKey({
        fingerprint: fp,
        principalId: `ag_${driverName}`,
        keyType: 'ssh-ed25519',
        publicKey: 'ssh-ed25519 AAAA',
        createdAt: 7,
      });
      expect((await store.principals.keyByFingerprint(fp))?.principalId).toBe(`ag_${driverName}`);
      expect(await store.principals.keys(`ag_${driverName}`)).toHaveLength(1);
      expect(await store.principals.revokeKey(fp, 8)).toBe(true);
      expect(await store.principals.revokeKey(fp, 9)).toBe(false);
      expect(await store.principals.keyByFingerprint(fp)).toBeNull();
    });

    it('API keys are found by hash while live, not after revocation or expiry', async () => {
      const pid = `keyholder_${driverName}`;
      await store.principals.create({ id: pid, kind: 'agent', displayName: 'K', createdAt: 1 });
      const secret = 'db8_sk_supersecretvalue';
      await store.apiKeys.create({
        id: `k1_${driverName}`,
        principalId: pid,
        keyHash: hashApiKey(secret),
        prefix: 'db8_sk_s',
        scopes: ['rooms:write'],
        createdAt: 1,
      });
      await store.apiKeys.create({
        id: `k2_${driverName}`,
        principalId: pid,
        keyHash: hashApiKey('other'),
        prefix: 'x',
        createdAt: 2,
        expiresAt: 100,
      });
      const found = await store.apiKeys.findLive(hashApiKey(secret), 50);
      expect(found).toMatchObject({ id: `k1_${driverName}`, principalId: pid, scopes: ['rooms:write'] });
      expect(found?.keyHash).not.toContain('supersecret');
      expect(await store.apiKeys.findLive(hashApiKey('other'), 50)).not.toBeNull();
      expect(await store.apiKeys.findLive(hashApiKey('other'), 100)).toBeNull();
      expect(await store.apiKeys.findLive(hashApiKey('wrong'), 50)).toBeNull();
      await store.apiKeys.touch(`k1_${driverName}`, 60);
      expect((await store.apiKeys.list(pid)).map((k) => [k.id, k.lastUsedAt])).toEqual([
        [`k1_${driverName}`, 60],
        [`k2_${driverName}`, null],
      ]);
      expect(await store.apiKeys.revoke(`k1_${driverName}`, 70)).toBe(true);
      expect(await store.apiKeys.findLive(hashApiKey(secret), 71)).toBeNull();
      expect(await store.apiKeys.revoke(`k1_${driverName}`, 72)).toBe(false);
    });

    it('nonces are single-use, audience-bound and expire', async () => {
      const nonce = `nonce_${driverName}_1`;
      await store.nonces.create({ nonce, audience: 'login', createdAt: 0, expiresAt: 1000 });
      expect(await store.nonces.consume(nonce, 'other', 10)).toBeNull();
      const racers = await Promise.all([1, 2, 3, 4].map(() => store.nonces.consume(nonce, 'login', 10)));
      expect(racers.filter((r) => r !== null)).toHaveLength(1);
      expect(racers.find((r) => r)?.usedAt).toBe(10);
      const late = `nonce_${driverName}_2`;
      await store.nonces.create({ nonce: late, audience: 'login', createdAt: 0, expiresAt: 1000 });
      expect(await store.nonces.consume(late, 'login', 1000)).toBeNull();
      expect(await store.nonces.purge(1001)).toBeGreaterThanOrEqual(2);
      expect(await store.nonces.consume(late, 'login', 5)).toBeNull();
    });

    it('deleting a room cascades to its seats, entries and records', async () => {
      const id = await makeRoom();
      await store.entries.append([entry(id, 0)]);
      await store.idempotency.put([{ roomId: id, seat: 'p1', key: 'k', requestHash: 'h', seq: 0, ts: 1 }]);
      await store.db.query('DELETE FROM rooms WHERE id = $1', [id]);
      expect(await store.entries.range(id, 0)).toEqual([]);
      expect(await store.rooms.seats(id)).toEqual([]);
      expect(await store.idempotency.get(id, 'p1', 'k')).toBeNull();
    });
  });
}
