import { describe, expect, it } from 'vitest';
import { adminToken, call, routeApps } from './routes-fixtures.ts';

const apps = routeApps();
const DEBATE = { topic: 'Seats', debaters: 2, judges: 1, viewers: 0 };

describe('identity binding is the server’s (Protocol.serverActions)', () => {
  it('a moderator seat sending bind_identity is refused (403 ACTION_RESERVED), nothing written; a debater’s join still binds', async () => {
    const h = await apps.make();
    const admin = await adminToken(h);
    const room = await call(h, 'POST', '/v1/rooms', {
      token: admin,
      body: { protocol: 'debate', config: DEBATE },
    });
    const roomId: string = room.body.room_id;
    const agent = async () => (await call(h, 'POST', '/v1/agents', { body: {} })).body.api_key as string;
    // The moderator seat, given by the admin's invite for it.
    const inv = await call(h, 'POST', `/v1/rooms/${roomId}/invites`, {
      token: admin,
      body: { seat: 'moderator' },
    });
    const mod = await call(h, 'POST', `/v1/rooms/${roomId}/join`, {
      token: await agent(),
      body: { seat: 'moderator', invite: inv.body.invite },
    });
    expect(mod.status, JSON.stringify(mod.body)).toBe(200);
    const deb = await call(h, 'POST', `/v1/rooms/${roomId}/join`, {
      token: await agent(),
      body: { seat: 'anon_1' },
    });
    expect(deb.status).toBe(200);

    // The join wrote the server's binding (moderator's sealed action, in the join's own commit).
    const entries = async () => h.runtime.entries(roomId, { kind: 'admin' }, 0, 1000);
    // Sealed to the moderator seat: the admin's view of the log carries the sealed payload.
    type Act = { type?: string; identity?: string };
    const bindings = (await entries())
      .map((e) => (e as { sealed?: { payload?: Act } }).sealed?.payload)
      .filter((p) => p?.type === 'bind_identity');
    expect(bindings.map((p) => p?.identity)).toEqual([deb.body.principal]);

    // The moderator claiming the seat for itself: refused, and the log does not move.
    const before = (await entries()).length;
    const act = await call(h, 'POST', `/v1/rooms/${roomId}/actions`, {
      token: mod.body.session_token,
      body: {
        seat: 'moderator',
        action: { type: 'bind_identity', seat: 'anon_1', identity: mod.body.principal },
      },
    });
    expect(act.status, JSON.stringify(act.body)).toBe(403);
    expect(act.body.error.code).toBe('ACTION_RESERVED');
    expect((await entries()).length).toBe(before);
    // …even as the admin acting for the seat.
    const asAdmin = await call(h, 'POST', `/v1/rooms/${roomId}/actions`, {
      token: admin,
      body: { seat: 'moderator', action: { type: 'bind_identity', seat: 'anon_2', identity: 'x' } },
    });
    expect(asAdmin.body.error.code).toBe('ACTION_RESERVED');
    // And it is not offered as a legal action.
    const state = await call(h, 'GET', `/v1/rooms/${roomId}/state`, { token: mod.body.session_token });
    const types = (state.body.legal?.actions ?? []).map((a: { type: string }) => a.type);
    expect(types).not.toContain('bind_identity');
  });
});

describe('privileged seats: the creator gives them too', () => {
  it("the room's creator takes its moderator seat by naming it; another agent may not", async () => {
    const h = await apps.make();
    const reg = async () => (await call(h, 'POST', '/v1/agents', { body: {} })).body;
    const owner = await reg();
    const other = await reg();
    const room = await h.runtime.createRoom({
      protocol: 'debate',
      config: DEBATE,
      createdBy: owner.agent_id,
    });
    const refused = await call(h, 'POST', `/v1/rooms/${room.id}/join`, {
      token: other.api_key,
      body: { seat: 'moderator' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('SEAT_PRIVILEGED');
    const taken = await call(h, 'POST', `/v1/rooms/${room.id}/join`, {
      token: owner.api_key,
      body: { seat: 'moderator' },
    });
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    expect(taken.body.seat).toBe('moderator');
  });

  it("a council's operator seat is privileged: a plain join is refused", async () => {
    const h = await apps.make();
    const admin = await adminToken(h);
    const room = await call(h, 'POST', '/v1/rooms', {
      token: admin,
      body: { protocol: 'council', config: { question: 'Should we ship on Friday?' } },
    });
    expect(room.status, JSON.stringify(room.body)).toBe(201);
    const key = (await call(h, 'POST', '/v1/agents', { body: {} })).body.api_key;
    const j = await call(h, 'POST', `/v1/rooms/${room.body.room_id}/join`, {
      token: key,
      body: { seat: 'operator' },
    });
    expect(j.status).toBe(403);
    expect(j.body.error.code).toBe('SEAT_PRIVILEGED');
  });
});

describe('one seat lookup rule (store.rooms.seatOf)', () => {
  it('a principal holding two seats of a room has no implicit seat anywhere: runtime, token scoping and views agree', async () => {
    const h = await apps.make();
    const admin = await adminToken(h);
    const room = await call(h, 'POST', '/v1/rooms', {
      token: admin,
      body: { protocol: 'debate', config: DEBATE },
    });
    const roomId: string = room.body.room_id;
    const a = (await call(h, 'POST', '/v1/agents', { body: {} })).body;
    const j = await call(h, 'POST', `/v1/rooms/${roomId}/join`, {
      token: a.api_key,
      body: { seat: 'anon_1' },
    });
    expect(j.status).toBe(200);
    // One seat: every path finds it.
    expect(await h.runtime.seatOf(roomId, a.agent_id)).toBe('anon_1');
    const one = await call(h, 'POST', '/v1/auth/token', { body: { api_key: a.api_key, room_id: roomId } });
    expect(one.body.seat).toBe('anon_1');

    // A second seat, as a multi-seat protocol would allow (written to the store directly).
    expect(await h.store.rooms.takeSeat(roomId, 'anon_2', a.agent_id, 99, h.clock.now)).toBe(true);
    expect(await h.runtime.seatOf(roomId, a.agent_id)).toBeNull();
    const two = await call(h, 'POST', '/v1/auth/token', { body: { api_key: a.api_key, room_id: roomId } });
    expect(two.status).toBe(200);
    expect(two.body.seat).toBeNull();
    const state = await call(h, 'GET', `/v1/rooms/${roomId}/state`, { token: a.api_key });
    expect(state.body.viewer).toEqual({ kind: 'observer' });
    // Naming the seat still works.
    const named = await call(h, 'POST', '/v1/auth/token', {
      body: { api_key: a.api_key, room_id: roomId, seat: 'anon_2' },
    });
    expect(named.body.seat).toBe('anon_2');
  });
});

describe('invite links are bounded credentials (max_uses, expiry)', () => {
  it('a seatless invite admits one join by default; concurrent anonymous uses take one seat, the rest are INVITE_USED_UP', async () => {
    const h = await apps.make();
    const admin = await adminToken(h);
    const room = await call(h, 'POST', '/v1/rooms', {
      token: admin,
      body: { protocol: 'debate', config: { ...DEBATE, debaters: 4 } },
    });
    const roomId: string = room.body.room_id;
    const inv = await call(h, 'POST', `/v1/rooms/${roomId}/invites`, { token: admin, body: {} });
    expect(inv.status).toBe(201);
    expect(inv.body.max_uses).toBe(1);
    const entries = async () => (await h.runtime.entries(roomId, { kind: 'admin' }, 0, 1000)).length;
    const before = await entries();
    const tries = await Promise.all(
      [1, 2, 3, 4].map(() =>
        call(h, 'POST', `/v1/rooms/${roomId}/join`, { body: { invite: inv.body.invite } }),
      ),
    );
    const ok = tries.filter((t) => t.status === 200);
    expect(ok).toHaveLength(1);
    for (const t of tries.filter((x) => x.status !== 200)) {
      expect(t.status).toBe(410);
      expect(t.body.error.code).toBe('INVITE_USED_UP');
    }
    // One join and its identity binding: nothing from the refused uses.
    expect(await entries()).toBe(before + 2);
  });

  it('max_uses bounds the joins; a join that fails gives its use back; an expired invite is INVITE_EXPIRED', async () => {
    const h = await apps.make();
    const admin = await adminToken(h);
    const room = await call(h, 'POST', '/v1/rooms', {
      token: admin,
      body: { protocol: 'debate', config: { ...DEBATE, debaters: 3 } },
    });
    const roomId: string = room.body.room_id;
    const inv = await call(h, 'POST', `/v1/rooms/${roomId}/invites`, { token: admin, body: { max_uses: 2 } });
    expect(inv.body.max_uses).toBe(2);
    const join = (body: object) =>
      call(h, 'POST', `/v1/rooms/${roomId}/join`, { body: { invite: inv.body.invite, ...body } });
    expect((await join({ seat: 'anon_1' })).status).toBe(200);
    // A refused join (the seat is taken) does not spend a use…
    const taken = await join({ seat: 'anon_1' });
    expect(taken.body.error.code).toBe('SEAT_TAKEN');
    expect((await join({ seat: 'anon_2' })).status).toBe(200);
    // …and the third join is one too many.
    const third = await join({ seat: 'anon_3' });
    expect(third.status).toBe(410);
    expect(third.body.error.code).toBe('INVITE_USED_UP');

    const short = await call(h, 'POST', `/v1/rooms/${roomId}/invites`, {
      token: admin,
      body: { ttl_sec: 60, max_uses: 5 },
    });
    h.clock.advance(61_000);
    const late = await call(h, 'POST', `/v1/rooms/${roomId}/join`, { body: { invite: short.body.invite } });
    expect(late.status).toBe(401);
    expect(late.body.error.code).toBe('INVITE_EXPIRED');
    // max_uses is validated at the edge.
    const bad = await call(h, 'POST', `/v1/rooms/${roomId}/invites`, { token: admin, body: { max_uses: 0 } });
    expect(bad.status).toBe(400);
  });
});
