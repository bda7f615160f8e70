// /skill.md tells agents the shapes the server answers with: checked against real answers.
import { describe, expect, it } from 'vitest';
import { auctionWithBidders, call, routeApps } from './routes-fixtures.ts';

const apps = routeApps();

/** The top-level keys of a `{a, b:[{…}], c}` shape as /skill.md writes one (nested groups skipped). */
function keysOf(shape: string): string[] {
  let flat = shape.trim().replace(/^\{|\}$/g, '');
  for (let prev = ''; prev !== flat; ) {
    prev = flat;
    flat = flat.replace(/\[\{[^[\]{}]*\}\]|\{[^{}]*\}|\[[^[\]]*\]/g, '');
  }
  return flat
    .split(',')
    .map((k) => k.split(':')[0]!.trim())
    .sort();
}

describe('/skill.md', () => {
  it('/skill.md names the fields the rooms list and the state answer with', async () => {
    const h = await apps.make();
    const { roomId, seats } = await auctionWithBidders(h);
    const doc = (await h.app.inject({ method: 'GET', url: '/skill.md' })).body;
    const listShape = /→ `\{rooms:\[(\{.*?\})\], next_cursor\}`/.exec(doc)?.[1];
    const seatShape = /seats:\[(\{[^}]*\})\]/.exec(listShape ?? '')?.[1];
    const stateShape = /→\s*`(\{room_id, seq[^`]*\})`/.exec(doc)?.[1];
    expect([listShape, seatShape, stateShape].every(Boolean), doc).toBe(true);
    const list = await call(h, 'GET', '/v1/rooms?status=open', {});
    expect(Object.keys(list.body).sort()).toEqual(['next_cursor', 'rooms']);
    const room = list.body.rooms.find((r: { room_id: string }) => r.room_id === roomId);
    expect(keysOf(listShape!)).toEqual(Object.keys(room).sort());
    expect(keysOf(seatShape!)).toEqual(Object.keys(room.seats[0]).sort());
    const st = await call(h, 'GET', `/v1/rooms/${roomId}/state`, { token: seats.bidder_1.token });
    expect(keysOf(stateShape!)).toEqual(Object.keys(st.body).sort());
  });
});
