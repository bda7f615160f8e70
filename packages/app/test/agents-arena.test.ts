import { entrantIdentity } from '@db8/arena/server';
import type { Cast } from '@db8/core';
import { DriverStore } from '@db8/server/src/drivers/store.ts';
import { type Harness, makeApp, sharedStore } from '@db8/server/test/app-harness.ts';
import { AUCTION, adminToken, call } from '@db8/server/test/routes-fixtures.ts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { builtinCasts } from '../src/protocols.ts';
import { playCast } from './privacy-kit/drive.ts';

/**
 * Arena entrants on agent profiles (issue 28): a tournament links its model and scripted entrants
 * to principals (the model's own, the strategy's), whose profiles then carry the arena section —
 * place, rating with its interval, matches — once the tournament closes, and the model calls the
 * server recorded for a model entrant in its match rooms count in that model's usage.
 */

let h: Harness;
let admin: string;
const arenaCast = builtinCasts.find((c) => c.protocol === 'arena')!;

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

type Body = {
  agent: { id: string; name: string; kind: string; provider: string | null; model: string | null };
  sections: Array<{
    protocol: string;
    wins: number | null;
    stats: Array<{ label: string; value: number | string }>;
    matches: Array<{
      room_id: string;
      title: string | null;
      seat: string;
      status: string;
      outcome: string;
      won: boolean | null;
      place: number | null;
    }>;
    detail?: {
      tournaments: Array<{
        room_id: string;
        name: string;
        entrant: string;
        place: number;
        of: number;
        rating: number;
        ci: [number, number] | null;
        matches: number;
      }>;
    };
  }>;
  usage: { calls: number; input_tokens: number; output_tokens: number; cost_usd: number | null } | null;
};
const profile = (id: string, token?: string) =>
  call(h, 'GET', `/v1/agents/${encodeURIComponent(id)}`, token ? { token } : {});
const arenaOf = (b: Body) => b.sections.find((s) => s.protocol === 'arena');

/** The cast's tournament with other entrants (same names: its steps report results by name). */
function castWith(entrants: unknown[], name: string): Cast {
  return {
    ...arenaCast,
    room: (ctx) => {
      const plan = arenaCast.room(ctx);
      const config = plan.config as Record<string, unknown>;
      return { ...plan, title: undefined, config: { ...config, name, entrants } };
    },
  };
}

/** Plays a tournament; while it runs, its entrants' links are the admin's only. */
async function playTournament(cast: Cast, ids: string[]) {
  const room = await playCast(
    h,
    admin,
    cast,
    h.runtime.protocols!.get('arena')!,
    async (room, checkpoint) => {
      if (checkpoint !== 'reported') return;
      for (const id of ids) {
        // The link is written as the genesis passes on the bus: wait for it.
        await vi.waitFor(
          async () => {
            const a = await profile(id, admin);
            expect(a.status).toBe(200);
            expect(
              arenaOf(a.body)?.matches.some((m) => m.room_id === room.roomId && m.status === 'open'),
            ).toBe(true);
          },
          { timeout: 60_000, interval: 100 },
        );
        const pub = await profile(id);
        const rooms = pub.status === 200 ? (arenaOf(pub.body)?.matches ?? []).map((m) => m.room_id) : [];
        expect(rooms).not.toContain(room.roomId);
      }
    },
  );
  return room;
}

describe('arena entrants on profiles', () => {
  it('scripted entrants: place, rating with interval and matches, the winner won; named, never by id', async () => {
    const shade = entrantIdentity({ name: 'shader', kind: 'scripted', strategy: 'shade' })!;
    const truthful = entrantIdentity({ name: 'truthful', kind: 'scripted', strategy: 'truthful' })!;
    const room = await playTournament(arenaCast, [shade.id, truthful.id]);
    const won = await profile(shade.id);
    expect(won.status, JSON.stringify(won.body)).toBe(200);
    expect(won.body.agent).toMatchObject({ name: 'scripted · shade', kind: 'scripted' });
    const s = arenaOf(won.body)!;
    const m = s.matches.find((x) => x.room_id === room.roomId)!;
    expect(m).toMatchObject({ seat: 'shader', status: 'closed', won: true, place: 1 });
    expect(m.outcome).toMatch(/^1st of 2, rating \d+ \[\d+, \d+\], 1 match$/);
    const t = s.detail!.tournaments.find((x) => x.room_id === room.roomId)!;
    expect(t).toMatchObject({ name: 'privacy kit', entrant: 'shader', place: 1, of: 2, matches: 1 });
    expect(t.ci).not.toBeNull();
    const lost = await profile(truthful.id);
    const l = arenaOf(lost.body)!.matches.find((x) => x.room_id === room.roomId)!;
    expect(l).toMatchObject({ seat: 'truthful', won: false, place: 2 });
    expect(arenaOf(lost.body)!.detail!.tournaments[0]!.rating).toBeLessThan(t.rating);
    const list = await call(h, 'GET', '/v1/agents?limit=500');
    const row = (list.body.agents as Array<{ id: string; kind: string; protocols: string[] }>).find(
      (a) => a.id === shade.id,
    );
    expect(row).toMatchObject({ kind: 'scripted' });
    expect(row!.protocols).toContain('arena');
  }, 300_000);

  it("a model entrant: kind model with provider and model id, titled by the tournament's name, its match calls in its usage", async () => {
    const entrants = [
      { name: 'truthful', kind: 'model', provider: 'openai', model: 'gpt-profile-test' },
      { name: 'shader', kind: 'scripted', strategy: 'shade' },
    ];
    const model = entrantIdentity(entrants[0] as never)!;
    const room = await playTournament(castWith(entrants, 'model cup'), [model.id]);
    // Two match rooms the server played for the model (nobody holds their seats): one closed, one open.
    const drivers = new DriverStore(h.store);
    const matches: string[] = [];
    for (const title of ['match closed', 'match open']) {
      const r = await call(h, 'POST', '/v1/rooms', {
        token: admin,
        body: { protocol: 'sealed-bid', title, config: AUCTION },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      matches.push(r.body.room_id);
      await drivers.record({
        roomId: r.body.room_id,
        seat: 'bidder_1',
        decision: 'arena:truthful#1',
        ok: true,
        record: {
          provider: 'openai',
          model: 'gpt-profile-test',
          usage: { inputTokens: 40, outputTokens: 9 },
          costUsd: 0.25,
        } as never,
        now: 1,
        principal: model.id,
      });
    }
    const end = await call(h, 'POST', `/v1/admin/rooms/${matches[0]}/end`, {
      token: admin,
      body: { reason: 'test' },
    });
    expect(end.status, JSON.stringify(end.body)).toBe(200);
    const pub = await profile(model.id);
    expect(pub.status, JSON.stringify(pub.body)).toBe(200);
    expect(pub.body.agent).toEqual({
      id: model.id,
      name: 'gpt-profile-test',
      kind: 'model',
      provider: 'openai',
      model: 'gpt-profile-test',
    });
    const m = arenaOf(pub.body)!.matches.find((x) => x.room_id === room.roomId)!;
    // No room title was given: the record is titled by the tournament's name.
    expect(m).toMatchObject({ title: 'model cup', seat: 'truthful', place: 2, won: false });
    // The closed match's call counts publicly; the running one's for the admin only.
    expect(pub.body.usage).toMatchObject({ calls: 1, input_tokens: 40, output_tokens: 9, cost_usd: 0.25 });
    const all = await profile(model.id, admin);
    expect(all.body.usage).toMatchObject({ calls: 2, input_tokens: 80, output_tokens: 18, cost_usd: 0.5 });
  }, 300_000);
});
