import { describe, expect, it } from 'vitest';
import { AUCTION, adminToken, call, routeApps } from './routes-fixtures.ts';

const apps = routeApps();

describe('reserved seats (Protocol.reservedRoles)', () => {
  it("the generic join never seats a client in poker's house seat", async () => {
    const h = await apps.make();
    const admin = await adminToken(h);
    // A table made through the generic room route: nobody holds the house seat yet.
    const room = await call(h, 'POST', '/v1/rooms', {
      token: admin,
      body: { protocol: 'poker', config: { seats: 2, smallBlind: 1, bigBlind: 2, startingStack: 100 } },
    });
    expect(room.status, JSON.stringify(room.body)).toBe(201);
    const roomId: string = room.body.room_id;
    const agent = async () => (await call(h, 'POST', '/v1/agents', { body: {} })).body.api_key as string;

    const named = await call(h, 'POST', `/v1/rooms/${roomId}/join`, {
      token: await agent(),
      body: { seat: 'house' },
    });
    expect(named.status).toBe(403);
    expect(named.body.error.code).toBe('SEAT_RESERVED');

    // Without a seat, agents get the player seats, then the room is full: the house is never handed out.
    const seats: string[] = [];
    for (let i = 0; i < 2; i++) {
      const j = await call(h, 'POST', `/v1/rooms/${roomId}/join`, { token: await agent(), body: {} });
      expect(j.status, JSON.stringify(j.body)).toBe(200);
      seats.push(j.body.seat);
    }
    expect(seats).toEqual(['seat_0', 'seat_1']);
    const third = await call(h, 'POST', `/v1/rooms/${roomId}/join`, { token: await agent(), body: {} });
    expect(third.status).toBe(409);
    expect(third.body.error.code).toBe('ROOM_FULL');

    // An invite cannot be made for the house seat either.
    const inv = await call(h, 'POST', `/v1/rooms/${roomId}/invites`, {
      token: admin,
      body: { seat: 'house' },
    });
    expect(inv.status).toBe(403);
    expect(inv.body.error.code).toBe('SEAT_RESERVED');

    // The server still takes it by naming it (what the poker service does at creation).
    expect(await h.runtime.join(roomId, { seat: 'house', principal: 'server:house' })).toMatchObject({
      seat: 'house',
    });
  });

  it('the player seats of a table stay joinable by name', async () => {
    const h = await apps.make();
    const admin = await adminToken(h);
    const room = await call(h, 'POST', '/v1/rooms', {
      token: admin,
      body: { protocol: 'poker', config: { seats: 2, smallBlind: 1, bigBlind: 2, startingStack: 100 } },
    });
    const key = (await call(h, 'POST', '/v1/agents', { body: {} })).body.api_key as string;
    const j = await call(h, 'POST', `/v1/rooms/${room.body.room_id}/join`, {
      token: key,
      body: { seat: 'seat_1' },
    });
    expect(j.status).toBe(200);
    expect(j.body.seat).toBe('seat_1');
  });
});

describe('privileged seats (Protocol.privilegedRoles) are given, not taken', () => {
  it("an agent's plain join of a debate's moderator or fact-checker, or an auction's auctioneer, is refused; an invite or an admin takes it", async () => {
    const h = await apps.make();
    const admin = await adminToken(h);
    const agent = async () => (await call(h, 'POST', '/v1/agents', { body: {} })).body.api_key as string;
    const debate = await call(h, 'POST', '/v1/rooms', {
      token: admin,
      body: { protocol: 'debate', config: { topic: 'Seats', debaters: 2, judges: 1, viewers: 0 } },
    });
    expect(debate.status, JSON.stringify(debate.body)).toBe(201);
    const roomId: string = debate.body.room_id;
    const entries = async () => (await h.runtime.entries(roomId, { kind: 'admin' }, 0, 1000)).length;
    const before = await entries();
    for (const seat of ['moderator', 'fact_checker']) {
      const j = await call(h, 'POST', `/v1/rooms/${roomId}/join`, { token: await agent(), body: { seat } });
      expect(j.status, seat).toBe(403);
      expect(j.body.error.code).toBe('SEAT_PRIVILEGED');
    }
    expect(await entries()).toBe(before); // nothing written

    // Auto-assignment hands out the debaters' and the judge's seats, never a privileged one.
    const got: string[] = [];
    for (let i = 0; i < 3; i++) {
      const j = await call(h, 'POST', `/v1/rooms/${roomId}/join`, { token: await agent(), body: {} });
      expect(j.status, JSON.stringify(j.body)).toBe(200);
      got.push(j.body.seat);
    }
    expect(got.sort()).toEqual(['anon_1', 'anon_2', 'judge_1']);
    const full = await call(h, 'POST', `/v1/rooms/${roomId}/join`, { token: await agent(), body: {} });
    expect(full.body.error.code).toBe('ROOM_FULL');

    // An invite for the seat gives it to an agent, who keeps its own identity.
    const key = await agent();
    const inv = await call(h, 'POST', `/v1/rooms/${roomId}/invites`, {
      token: admin,
      body: { seat: 'fact_checker' },
    });
    const j = await call(h, 'POST', `/v1/rooms/${roomId}/join`, {
      token: key,
      body: { seat: 'fact_checker', invite: inv.body.invite },
    });
    expect(j.status, JSON.stringify(j.body)).toBe(200);
    expect(j.body.principal).toMatch(/^agt_/);
    // A seatless invite does not open a privileged seat.
    const open = await call(h, 'POST', `/v1/rooms/${roomId}/invites`, { token: admin, body: {} });
    const m = await call(h, 'POST', `/v1/rooms/${roomId}/join`, {
      body: { seat: 'moderator', invite: open.body.invite },
    });
    expect(m.body.error.code).toBe('SEAT_PRIVILEGED');
    // An admin takes it by naming it.
    const a = await call(h, 'POST', `/v1/rooms/${roomId}/join`, {
      token: admin,
      body: { seat: 'moderator' },
    });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(a.body.seat).toBe('moderator');
  });
});

describe('one seat per principal', () => {
  it('a second seat in the same room is refused (SEAT_ALREADY_HELD), nothing written; joining again returns the seat held', async () => {
    const h = await apps.make();
    const admin = await adminToken(h);
    const room = await call(h, 'POST', '/v1/rooms', {
      token: admin,
      body: { protocol: 'sealed-bid', config: AUCTION },
    });
    const roomId: string = room.body.room_id;
    const key = (await call(h, 'POST', '/v1/agents', { body: {} })).body.api_key as string;
    const first = await call(h, 'POST', `/v1/rooms/${roomId}/join`, {
      token: key,
      body: { seat: 'bidder_1' },
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const before = (await h.runtime.entries(roomId, { kind: 'admin' }, 0, 1000)).length;
    // A shill bid needs a second seat: refused.
    const second = await call(h, 'POST', `/v1/rooms/${roomId}/join`, {
      token: key,
      body: { seat: 'bidder_2' },
    });
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('SEAT_ALREADY_HELD');
    expect((await h.runtime.entries(roomId, { kind: 'admin' }, 0, 1000)).length).toBe(before);
    const again = await call(h, 'POST', `/v1/rooms/${roomId}/join`, { token: key, body: {} });
    expect(again.body.seat).toBe('bidder_1');
  });
});
