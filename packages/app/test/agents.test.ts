import { createCastRegistry } from '@db8/core';
import { DriverStore } from '@db8/server/src/drivers/store.ts';
import { type Harness, makeApp, sharedStore } from '@db8/server/test/app-harness.ts';
import { AUCTION, adminToken, call } from '@db8/server/test/routes-fixtures.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinCasts } from '../src/protocols.ts';
import { type KitRoom, playCast } from './privacy-kit/drive.ts';

/**
 * Agent profiles (GET /v1/agents, GET /v1/agents/:id) over real rooms: each protocol's scripted
 * cast is played to its end on one server with the modules mounted, and each seat's holder is
 * looked up while the room runs (sealed: only the admin finds it) and after it closes (public, with
 * the protocol's section: places, wins, chips).
 */

let h: Harness;
let admin: string;
const casts = createCastRegistry(builtinCasts);

beforeAll(async () => {
  h = await makeApp({
    store: await sharedStore(),
    mountModules: true,
    env: {},
    config: { logLevel: 'silent' },
  });
  admin = await adminToken(h);
});
afterAll(async () => {
  await h?.close();
  await h?.store.close();
});

type Section = {
  protocol: string;
  rooms: number;
  wins: number | null;
  stats: Array<{ label: string; value: number | string }>;
  matches: Array<{
    room_id: string;
    status: string;
    outcome: string;
    won: boolean | null;
    place: number | null;
  }>;
  detail?: { ratings: Array<{ scope: string; rating: number }>; history: unknown[] };
};

const profile = (id: string, token?: string) =>
  call(h, 'GET', `/v1/agents/${encodeURIComponent(id)}`, token ? { token } : {});
const listed = async (token?: string) => {
  const r = await call(h, 'GET', '/v1/agents?limit=500', token ? { token } : {});
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return (r.body.agents as Array<{ id: string; name: string; kind: string; rooms: number }>).map((a) => a.id);
};
const sectionOf = (body: { sections: Section[] }, protocol: string) =>
  body.sections.find((s) => s.protocol === protocol);

/** Plays `protocol`'s cast; at its first checkpoint, checks the holders are sealed from the public. */
async function play(protocol: string): Promise<KitRoom> {
  let checked = false;
  return playCast(
    h,
    admin,
    casts.get(protocol)!,
    h.runtime.protocols!.get(protocol)!,
    async (room, checkpoint) => {
      if (checked || checkpoint === 'closed') return;
      checked = true;
      const seated = room.viewers.filter((v) => v.viewer.kind === 'seat' && v.principal?.startsWith('agt_'));
      expect(seated.length).toBeGreaterThan(0);
      const pub = await listed();
      const other = room.viewers.find((v) => v.name === 'agent without a seat')!;
      for (const v of seated) {
        // Not unmasked before the room unmasks: not found for the public and for another agent.
        for (const token of [undefined, other.token!]) {
          const r = await profile(v.principal!, token);
          expect(r.status, `${protocol} ${v.name}: ${JSON.stringify(r.body)}`).toBe(404);
          expect(JSON.stringify(r.body)).not.toContain(v.principal!);
        }
        expect(pub).not.toContain(v.principal);
        // The admin sees the running room in the profile.
        const a = await profile(v.principal!, admin);
        expect(a.status, JSON.stringify(a.body)).toBe(200);
        expect(a.body.includes_open).toBe(true);
        const s = sectionOf(a.body, protocol);
        expect(s?.matches.find((m) => m.room_id === room.roomId)?.status).toBe('open');
      }
    },
  );
}

describe('agent profiles over real rooms', () => {
  it('debate: sealed while running; after the unmask, each holder has its place and rating', async () => {
    const room = await play('debate');
    const seated = room.viewers.filter((v) => v.viewer.kind === 'seat' && v.principal?.startsWith('agt_'));
    const pub = await listed();
    const places: number[] = [];
    for (const v of seated) {
      expect(pub).toContain(v.principal);
      const r = await profile(v.principal!);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.agent).toMatchObject({
        id: v.principal,
        kind: 'outside',
        name: `kit ${v.viewer.kind === 'seat' ? v.viewer.seat : ''}`,
      });
      expect(r.body.includes_open).toBe(false);
      const s = sectionOf(r.body, 'debate')!;
      const m = s.matches.find((x) => x.room_id === room.roomId)!;
      expect(m.status).toBe('closed');
      if (v.viewer.kind === 'seat' && !v.viewer.seat.startsWith('anon_'))
        expect(m.outcome).toMatch(/^took part as /);
      if (v.viewer.kind === 'seat' && v.viewer.seat.startsWith('anon_')) {
        expect(m.outcome).toMatch(/^\d+(st|nd|rd|th) of \d+$/);
        places.push(m.place!);
        expect(s.detail?.ratings.find((x) => x.scope === 'global')?.rating).toBeTypeOf('number');
      }
    }
    // The places are a ranking: one first place among the debaters.
    expect(places.length).toBe(2);
    expect(places.filter((p) => p === 1).length).toBeGreaterThanOrEqual(1);
  }, 300_000);

  it('sealed-bid: the winner won, the others placed', async () => {
    const room = await play('sealed-bid');
    const records = [];
    for (const v of room.viewers.filter((x) => x.viewer.kind === 'seat' && x.principal?.startsWith('agt_'))) {
      const r = await profile(v.principal!);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const s = sectionOf(r.body, 'sealed-bid')!;
      records.push(s.matches.find((m) => m.room_id === room.roomId)!);
    }
    const winners = records.filter((m) => m.won === true);
    expect(winners.length).toBe(1);
    expect(winners[0]!.outcome).toMatch(/^won at \d+$/);
  }, 300_000);

  it('poker: each seat has its hands and chips, and the chips sum to zero', async () => {
    const room = await play('poker');
    let total = 0;
    for (const v of room.viewers.filter((x) => x.viewer.kind === 'seat' && x.principal?.startsWith('agt_'))) {
      const r = await profile(v.principal!);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const s = sectionOf(r.body, 'poker')!;
      total += Number(s.stats.find((x) => x.label === 'net chips')!.value);
      expect(s.matches[0]!.outcome).toMatch(/^[+-]?\d+ chips over \d+ hands$/);
    }
    expect(total).toBe(0);
  }, 300_000);

  it('model usage: summed per holder over its driven seats, open rooms for the admin only', async () => {
    const agent = await call(h, 'POST', '/v1/agents', { body: { name: 'usage probe' } });
    const id: string = agent.body.agent_id;
    const drivers = new DriverStore(h.store);
    const rooms: string[] = [];
    for (const title of ['closed one', 'open one']) {
      const r = await call(h, 'POST', '/v1/rooms', {
        token: admin,
        body: { protocol: 'sealed-bid', title, config: AUCTION },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      rooms.push(r.body.room_id);
      await h.runtime.join(r.body.room_id, { seat: 'bidder_1', principal: id });
      const record = (input: number, output: number, cost: number | null) =>
        ({
          provider: 'openai',
          model: 'm',
          usage: { inputTokens: input, outputTokens: output },
          costUsd: cost,
        }) as never;
      await drivers.record({
        roomId: r.body.room_id,
        seat: 'bidder_1',
        decision: 'bid',
        ok: true,
        record: record(100, 20, 0.5),
        now: 1,
      });
      await drivers.record({
        roomId: r.body.room_id,
        seat: 'bidder_1',
        decision: 'bid',
        ok: true,
        record: record(7, 3, null),
        now: 2,
      });
    }
    const end = await call(h, 'POST', `/v1/admin/rooms/${rooms[0]}/end`, {
      token: admin,
      body: { reason: 'test' },
    });
    expect(end.status, JSON.stringify(end.body)).toBe(200);
    const pub = await profile(id);
    expect(pub.status, JSON.stringify(pub.body)).toBe(200);
    expect(pub.body.usage).toEqual({
      calls: 2,
      input_tokens: 107,
      output_tokens: 23,
      cost_usd: 0.5,
      calls_without_cost: 1,
    });
    const all = await profile(id, admin);
    expect(all.body.usage).toEqual({
      calls: 4,
      input_tokens: 214,
      output_tokens: 46,
      cost_usd: 1,
      calls_without_cost: 2,
    });
  });

  it('hostile ids and queries are refused with a 4xx, unknown ids are not found', async () => {
    for (const bad of ['a%2Fb', '..', `${'x'.repeat(201)}`, 'a%00b', 'a%20b', '%F0%9F%92%A5']) {
      const r = await call(h, 'GET', `/v1/agents/${bad}`);
      expect(r.status, bad).toBeGreaterThanOrEqual(400);
      expect(r.status, bad).toBeLessThan(500);
      expect(r.body.error.code, bad).toBeTypeOf('string');
    }
    const unknown = await call(h, 'GET', '/v1/agents/agt_nobody');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('AGENT_NOT_FOUND');
    for (const q of ['limit=0', 'limit=x', 'limit=501', 'nope=1']) {
      const r = await call(h, 'GET', `/v1/agents?${q}`);
      expect(r.status, q).toBe(400);
    }
  });
});
