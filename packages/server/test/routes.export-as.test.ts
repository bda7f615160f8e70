import { verifyBundleText } from '@db8/core';
import { describe, expect, it } from 'vitest';
import { auctionWithBidders, call, routeApps } from './routes-fixtures.ts';

const apps = routeApps();

describe('GET /v1/rooms/:id/export?as=', () => {
  it('exports as the asked class, never more than the token grants (403)', async () => {
    const h = await apps.make();
    const { admin, roomId, seats } = await auctionWithBidders(h);
    for (const [seat, amount] of [
      ['bidder_1', 61],
      ['bidder_2', 47],
    ] as const) {
      const r = await call(h, 'POST', `/v1/rooms/${roomId}/actions`, {
        token: seats[seat].token,
        body: { seat, action: { type: 'bid', amount } },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    const exp = (as: string, token?: string) =>
      call(h, 'GET', `/v1/rooms/${roomId}/export?as=${encodeURIComponent(as)}`, { token });
    const bundle = (text: string) => {
      const report = verifyBundleText(text, { pinnedKey: h.serverKey.sshPublicLine });
      expect(report.ok, JSON.stringify(report.firstFailure)).toBe(true);
      return {
        cls: report.viewerClass,
        has61: text.includes('"amount":61'),
        has47: text.includes('"amount":47'),
      };
    };

    // anonymous: public only
    expect(bundle((await exp('public')).raw.body)).toEqual({ cls: 'public', has61: false, has47: false });
    for (const as of ['admin', 'seat:bidder_1']) {
      const r = await exp(as);
      expect(r.status, as).toBe(403);
      expect(r.body.error.code).toBe('FORBIDDEN');
    }

    // a seat: itself or public, not another seat or admin
    const b1 = seats.bidder_1.token;
    expect(bundle((await exp('seat:bidder_1', b1)).raw.body)).toEqual({
      cls: 'seat:bidder_1',
      has61: true,
      has47: false,
    });
    expect(bundle((await exp('public', b1)).raw.body)).toEqual({ cls: 'public', has61: false, has47: false });
    expect((await exp('seat:bidder_2', b1)).status).toBe(403);
    expect((await exp('admin', b1)).status).toBe(403);

    // admin: anything, including one seat's view
    expect(bundle((await exp('seat:bidder_2', admin)).raw.body)).toEqual({
      cls: 'seat:bidder_2',
      has61: false,
      has47: true,
    });
    expect(bundle((await exp('admin', admin)).raw.body)).toEqual({ cls: 'admin', has61: true, has47: true });
    // without ?as= the token's own class, as before
    expect(bundle((await call(h, 'GET', `/v1/rooms/${roomId}/export`, { token: b1 })).raw.body).cls).toBe(
      'seat:bidder_1',
    );

    expect((await exp('root', admin)).status).toBe(400);
    expect((await exp('seat:', admin)).status).toBe(400);
    expect((await call(h, 'GET', '/v1/rooms/room_missing/export?as=public')).status).toBe(404);
  });
});
