import { describe, expect, it } from 'vitest';
import { AUCTION, auctionWithBidders, call, routeApps } from './routes-fixtures.ts';

const apps = routeApps();

describe('an admin holding a seat', () => {
  it('acts and sees as that seat in that room, and stays admin elsewhere', async () => {
    const h = await apps.make();
    const { admin, roomId, seats } = await auctionWithBidders(h);
    const j = await call(h, 'POST', `/v1/rooms/${roomId}/join`, {
      token: admin,
      body: { seat: 'auctioneer', client_protocol_version: '0.1' },
    });
    expect(j.status, JSON.stringify(j.body)).toBe(200);
    const seatToken: string = j.body.session_token;
    const me = await call(h, 'GET', '/v1/auth/me', { token: seatToken });
    expect(me.body).toMatchObject({ role: 'admin', room_id: roomId, seat: 'auctioneer' });

    await call(h, 'POST', `/v1/rooms/${roomId}/actions`, {
      token: seats.bidder_1.token,
      body: { seat: 'bidder_1', action: { type: 'bid', amount: 55 } },
    });
    // While bids are sealed the seat token sees the auctioneer's view, not the admin's.
    const sealedSeq = (await call(h, 'GET', `/v1/rooms/${roomId}`)).body.seq;
    const entry = async (token: string) =>
      (await call(h, 'GET', `/v1/rooms/${roomId}/entries?fromSeq=${sealedSeq}&limit=1`, { token })).body
        .entries[0];
    expect((await entry(seatToken)).sealed).toBeUndefined();
    expect((await entry(admin)).sealed.payload).toMatchObject({ amount: 55 });

    await call(h, 'POST', `/v1/rooms/${roomId}/actions`, {
      token: seats.bidder_2.token,
      body: { seat: 'bidder_2', action: { type: 'bid', amount: 30 } },
    });
    h.clock.advance(61_000);
    await h.runtime.tick(roomId);

    const st = await call(h, 'GET', `/v1/rooms/${roomId}/state`, { token: seatToken });
    expect(st.body.viewer).toEqual({ kind: 'seat', seat: 'auctioneer' });
    expect(st.body.turn_token).toEqual(expect.any(String));
    expect(st.body.legal.actions).toEqual([{ type: 'confirm' }, { type: 'withdraw' }]);
    // The unscoped admin session keeps the admin view (and no turn token: it holds no seat).
    const asAdmin = await call(h, 'GET', `/v1/rooms/${roomId}/state`, { token: admin });
    expect(asAdmin.body.viewer).toEqual({ kind: 'admin' });
    expect(asAdmin.body.turn_token).toBeNull();

    const ack = await call(h, 'POST', `/v1/rooms/${roomId}/actions`, {
      token: seatToken,
      body: { seat: 'auctioneer', action: { type: 'confirm' }, turn_token: st.body.turn_token },
    });
    expect(ack.status, JSON.stringify(ack.body)).toBe(200);
    expect((await call(h, 'GET', `/v1/rooms/${roomId}/state`)).body.status).toBe('closed');

    // Admin powers are otherwise unchanged: another room is seen whole, rooms can still be made.
    const other = await call(h, 'POST', '/v1/rooms', {
      token: seatToken,
      body: { protocol: 'sealed-bid', config: AUCTION },
    });
    expect(other.status).toBe(201);
    const os = await call(h, 'GET', `/v1/rooms/${other.body.room_id}/state`, { token: seatToken });
    expect(os.body.viewer).toEqual({ kind: 'admin' });
  });
});
