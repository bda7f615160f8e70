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
