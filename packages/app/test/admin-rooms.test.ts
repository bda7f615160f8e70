import {
  createProtocolRegistry,
  journalEntries,
  parseJournalText,
  refoldLog,
  verifyBundleText,
} from '@db8/core';
import { adminToken, auctionWithBidders, call, routeApps } from '@db8/server/test/routes-fixtures.ts';
import { describe, expect, it } from 'vitest';
import { builtinCasts, builtinProtocols } from '../src/protocols.ts';

const apps = routeApps();

describe('GET /v1/admin/rooms (the room monitor)', () => {
  it('lists live rooms of every protocol with who holds each seat, for the admin only', async () => {
    const h = await apps.make();
    const { admin, roomId, seats } = await auctionWithBidders(h);
    const r = await call(h, 'GET', '/v1/admin/rooms', { token: admin });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const room = r.body.rooms.find((x: { room_id: string }) => x.room_id === roomId);
    expect(room).toMatchObject({ protocol: 'sealed-bid', status: 'open', title: 'Lamp', endable: true });
    const holders = Object.fromEntries(
      room.seats.map((s: { seat: string; holder: string | null }) => [s.seat, s.holder]),
    );
    expect(holders).toMatchObject({ bidder_1: seats.bidder_1.agent, bidder_2: seats.bidder_2.agent });
    expect(room.seq).toBeGreaterThanOrEqual(2);
    expect(room.last_activity_at).toBeGreaterThanOrEqual(room.created_at);
    expect(typeof r.body.now).toBe('number');

    // Seat holders are sealed until the room closes: nobody else reads this list.
    expect((await call(h, 'GET', '/v1/admin/rooms')).status).toBe(401);
    const seat = await call(h, 'GET', '/v1/admin/rooms', { token: seats.bidder_1.token });
    expect(seat.status).toBe(403);
    expect(seat.body.error.code).toBe('FORBIDDEN');
  });

  it('refuses a bad query with a 400 naming the field', async () => {
    const h = await apps.make();
    const admin = await adminToken(h);
    for (const q of ['status=bogus', 'limit=0', 'limit=x', 'nope=1']) {
      const r = await call(h, 'GET', `/v1/admin/rooms?${q}`, { token: admin });
      expect(r.status, q).toBe(400);
      expect(r.body.error.code, q).toBeTypeOf('string');
    }
  });
});

describe('POST /v1/admin/rooms/:id/end', () => {
  it('ends an open room: a close entry records who and why, the log still verifies and refolds', async () => {
    const h = await apps.make();
    const { admin, roomId, seats } = await auctionWithBidders(h);
    const bid = await call(h, 'POST', `/v1/rooms/${roomId}/actions`, {
      token: seats.bidder_1.token,
      body: { seat: 'bidder_1', action: { type: 'bid', amount: 61 } },
    });
    expect(bid.status).toBe(200);

    const end = await call(h, 'POST', `/v1/admin/rooms/${roomId}/end`, {
      token: admin,
      body: { reason: 'stuck in a demo' },
    });
    expect(end.status, JSON.stringify(end.body)).toBe(200);
    expect(end.body).toMatchObject({
      room_id: roomId,
      status: 'closed',
      ended: { reason: 'stuck in a demo' },
    });
    expect(end.body.ended.by).toMatch(/\S/);

    const state = await call(h, 'GET', `/v1/rooms/${roomId}/state`);
    expect(state.body).toMatchObject({ status: 'closed', seq: end.body.seq });
    const late = await call(h, 'POST', `/v1/rooms/${roomId}/actions`, {
      token: seats.bidder_2.token,
      body: { seat: 'bidder_2', action: { type: 'bid', amount: 47 } },
    });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('ROOM_CLOSED');

    // The record: the public close entry says who ended it; the bundle verifies and refolds (db8 verify).
    const entries = await call(h, 'GET', `/v1/rooms/${roomId}/entries?fromSeq=${end.body.seq}`);
    expect(entries.body.entries[0]).toMatchObject({
      kind: 'close',
      payload: { result: null, ended: end.body.ended },
    });
    const refold = async (token?: string) => {
      const text = (await call(h, 'GET', `/v1/rooms/${roomId}/export`, { token })).raw.body;
      expect(verifyBundleText(text, { pinnedKey: h.serverKey.sshPublicLine }).ok).toBe(true);
      const log = journalEntries(parseJournalText(text).records.map((x) => x.value));
      return refoldLog(log, createProtocolRegistry(builtinProtocols));
    };
    expect(await refold(admin)).toMatchObject({ ok: true, closed: true, result: null, problems: [] });
    // Ending reveals no sealed bid: the public bundle verifies but cannot be refolded past it.
    expect((await refold()).skipped).toMatch(/sealed and never revealed/);
    expect((await h.runtime.replay(roomId)).ok).toBe(true);

    // No longer live; listed with status=all, and not endable again.
    const live = await call(h, 'GET', '/v1/admin/rooms', { token: admin });
    expect(live.body.rooms.map((x: { room_id: string }) => x.room_id)).not.toContain(roomId);
    const all = await call(h, 'GET', '/v1/admin/rooms?status=all', { token: admin });
    expect(all.body.rooms.find((x: { room_id: string }) => x.room_id === roomId)).toMatchObject({
      status: 'closed',
      endable: false,
    });
    const again = await call(h, 'POST', `/v1/admin/rooms/${roomId}/end`, { token: admin });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('ROOM_CLOSED');
  });

  it('answers 4xx for a non-admin, an unknown room and a bad body, writing nothing', async () => {
    const h = await apps.make();
    const { admin, roomId, seats } = await auctionWithBidders(h);
    const before = (await call(h, 'GET', `/v1/rooms/${roomId}`)).body.seq;
    const url = `/v1/admin/rooms/${roomId}/end`;
    expect((await call(h, 'POST', url)).status).toBe(401);
    expect((await call(h, 'POST', url, { token: seats.bidder_1.token })).status).toBe(403);
    for (const body of [{ reason: 5 }, { reason: '' }, { reason: 'x', extra: 1 }, []]) {
      const r = await call(h, 'POST', url, { token: admin, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.code).toBeTypeOf('string');
    }
    const missing = await call(h, 'POST', '/v1/admin/rooms/no-such-room/end', { token: admin });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('ROOM_NOT_FOUND');
    expect((await call(h, 'GET', `/v1/rooms/${roomId}`)).body).toMatchObject({ seq: before, status: 'open' });
  });
});

describe('ending a room of every protocol', () => {
  // Each protocol's scripted cast opens its room; the admin ends it before anyone moves. The close
  // entry is the runtime's, not the protocol's, so every log still verifies and refolds to the end.
  let n = 0;
  const marks = {
    text: (label: string) => `mark-${label.replace(/[^a-z0-9]/gi, '')}`,
    int: (_label: string, min: number, max: number) => min + (n++ % (max - min + 1)),
  };
  for (const cast of builtinCasts) {
    it(`${cast.protocol}: ended from the monitor, the admin bundle refolds to its close`, async () => {
      const h = await apps.make();
      const admin = await adminToken(h);
      const room = cast.room({ marks, now: h.clock.fn() });
      let roomId: string;
      if (room.id !== undefined) {
        // A replicated room (opened from its stream): the monitor lists it but does not end it.
        roomId = (await h.runtime.createRoom({ protocol: cast.protocol, config: room.config, id: room.id }))
          .id;
        const r = await call(h, 'POST', `/v1/admin/rooms/${roomId}/end`, { token: admin });
        expect(r.status).toBe(409);
        expect(r.body.error.code).toBe('ROOM_REPLICATED');
        const listed = await call(h, 'GET', '/v1/admin/rooms', { token: admin });
        expect(listed.body.rooms.find((x: { room_id: string }) => x.room_id === roomId)?.endable).toBe(false);
        return;
      }
      const created = await call(h, 'POST', '/v1/rooms', {
        token: admin,
        body: { protocol: cast.protocol, config: room.config },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      roomId = created.body.room_id;
      const end = await call(h, 'POST', `/v1/admin/rooms/${roomId}/end`, {
        token: admin,
        body: { reason: 'test' },
      });
      expect(end.status, JSON.stringify(end.body)).toBe(200);
      const text = (await call(h, 'GET', `/v1/rooms/${roomId}/export`, { token: admin })).raw.body;
      expect(verifyBundleText(text, { pinnedKey: h.serverKey.sshPublicLine }).ok).toBe(true);
      const log = journalEntries(parseJournalText(text).records.map((x) => x.value));
      const { state: _state, ...report } = refoldLog(log, createProtocolRegistry(builtinProtocols));
      expect(report).toMatchObject({ ok: true, closed: true, seq: end.body.seq, problems: [] });
      expect((await h.runtime.replay(roomId)).ok).toBe(true);
    });
  }
});
