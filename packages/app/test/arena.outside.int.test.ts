// Outside entrants in server-run tournaments (issue 28): the server plays the scripted seats and
// waits for the outside agent's, which a separate client plays through the public API alone (the
// steps the arena's skill.md gives: claim the invitation, list pending matches, act in the room);
// an outside agent that never shows up is timed out by the match's own window (sealed-bid's bidding
// window, debate's phase window) and the tournament still closes.
import { Db8Client } from '@db8/sdk';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { arenaServers, until, viewOf } from './arena-servers.ts';

const servers = arenaServers('arena-outside');
const server = () => servers.start();

const cup = (name: string, biddingWindowMs: number) => ({
  protocol: 'arena',
  title: name,
  config: {
    name,
    game: 'sealed-bid',
    gameConfig: { biddingWindowMs },
    format: { kind: 'round-robin', games: 1 },
    entrants: [
      { name: 'truthful', kind: 'scripted', strategy: 'truthful' } as Record<string, string>,
      { name: 'lowballer', kind: 'scripted', strategy: 'lowball' },
      { name: 'visitor', kind: 'outside' },
    ],
    seed: name,
    concurrency: 3,
    bootstrap: 0,
  },
});

const Invites = z.object({
  invites: z.array(z.object({ entrant: z.string(), invite: z.string() })),
});
const Pending = z.object({
  matches: z.array(
    z.object({
      match: z.string(),
      status: z.enum(['open', 'scheduled']),
      room_id: z.string().nullable(),
      seat: z.string().nullable(),
      brief: z.object({ value: z.number().int() }).passthrough(),
    }),
  ),
});

describe('outside entrants in server-run tournaments', () => {
  it('an outside agent claims its entrant and bids in its match rooms through the public API', async () => {
    const { s, admin } = await server();
    const t = await admin.createRoom(cup('visitor cup', 60_000));
    const { invites } = await admin.request(
      Invites,
      'POST',
      `/v1/arena/tournaments/${t.room_id}/invites`,
      {},
    );
    expect(invites.map((i) => i.entrant)).toEqual(['visitor']);

    // The outside agent: its own registration and key, nothing but REST.
    const anon = new Db8Client({ baseUrl: s.url });
    const reg = await anon.registerAgent({ name: 'visiting-bot' });
    const agent = new Db8Client({ baseUrl: s.url, token: reg.api_key });
    await agent.request(z.unknown(), 'POST', `/v1/arena/tournaments/${t.room_id}/claim`, {
      invite: invites[0]!.invite,
    });
    // The invitation claims once: a second agent is refused.
    const other = await anon.registerAgent({ name: 'gatecrasher' });
    await expect(
      new Db8Client({ baseUrl: s.url, token: other.api_key }).request(
        z.unknown(),
        'POST',
        `/v1/arena/tournaments/${t.room_id}/claim`,
        { invite: invites[0]!.invite },
      ),
    ).rejects.toMatchObject({ status: 410 });
    // Nobody else's pending matches show the visitor's.
    const theirs = await new Db8Client({ baseUrl: s.url, token: other.api_key }).request(
      Pending,
      'GET',
      '/v1/arena/matches',
    );
    expect(theirs.matches).toEqual([]);

    // Bid the private value in every open match, until none is pending.
    const bid: Record<string, number> = {};
    const crasher = new Db8Client({ baseUrl: s.url, token: other.api_key });
    let strangerRefused = false;
    for (;;) {
      const v = await viewOf(admin, t.room_id);
      if (v.phase === 'closed') break;
      const { matches } = await agent.request(Pending, 'GET', '/v1/arena/matches');
      for (const m of matches) {
        if (m.status !== 'open' || bid[m.room_id!] !== undefined) continue;
        if (!strangerRefused) {
          // A match room's seats are the tournament's to give: a stranger's join is refused and
          // takes nothing; the claimant's own join is a rejoin of the seat it was given.
          const before = (await admin.getRoom(m.room_id!)).seats;
          await expect(crasher.join(m.room_id!, {})).rejects.toMatchObject({
            status: 403,
            code: 'SEAT_GIVEN',
          });
          expect((await admin.getRoom(m.room_id!)).seats).toEqual(before);
          expect((await agent.join(m.room_id!, {})).seat).toBe(m.seat);
          strangerRefused = true;
        }
        const st = (await agent.state(m.room_id!)) as { legal?: { actions: { type: string }[] } };
        if (!st.legal?.actions.some((a) => a.type === 'bid')) continue;
        await agent.act(m.room_id!, { seat: m.seat!, action: { type: 'bid', amount: m.brief.value } });
        bid[m.room_id!] = m.brief.value;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(strangerRefused).toBe(true);
    const v = await viewOf(admin, t.room_id);
    const visitorMatches = v.matches.filter((m) => m.entrants.includes('visitor'));
    expect(visitorMatches).toHaveLength(2);
    for (const m of visitorMatches) {
      const room = m.result!.room;
      expect(Object.keys(bid)).toContain(room);
      // The bid in the record is the visitor's own, from the seat it held (revealed at the close).
      const entries = [];
      for await (const e of admin.allEntries(room)) entries.push(e);
      const seat = `bidder_${m.entrants.indexOf('visitor') + 1}`;
      // Join entries are sealed until the close, whose reveals name each seat's holder.
      const close = entries.find((e) => e.kind === 'close') as { reveals?: { payload: unknown }[] };
      const holders = (close.reveals ?? []).map((r) => r.payload as { seat?: string; principal?: string });
      expect(holders.find((h) => h.seat === seat)?.principal).toBe(reg.agent_id);
      expect(entries.some((e) => e.kind === 'action' && e.actor === seat)).toBe(true);
    }
    expect(v.standings.rows.map((r) => r.entrant).sort()).toEqual(['lowballer', 'truthful', 'visitor']);
    await servers.stopLast();
  });

  it('an outside agent that never shows up is timed out by the bidding window; the tournament closes', async () => {
    const { admin } = await server();
    const t = await admin.createRoom(cup('empty chair cup', 1000));
    const v = await until(
      () => viewOf(admin, t.room_id),
      (x) => x.phase === 'closed',
    );
    expect(v.played).toBe(3);
    for (const m of v.matches.filter((x) => x.entrants.includes('visitor'))) {
      const p = m.result!.placements.find((x) => x.entrant === 'visitor')!;
      // No bid: it cannot win and scores nothing; its seat wrote nothing.
      expect(p.score).toBe(0);
      const seat = `bidder_${m.entrants.indexOf('visitor') + 1}`;
      const entries = [];
      for await (const e of admin.allEntries(m.result!.room)) entries.push(e);
      expect(entries.some((e) => e.actor === seat)).toBe(false);
      expect(entries.some((e) => e.kind === 'action' && e.actor.startsWith('bidder_'))).toBe(true);
    }
    await servers.stopLast();
  });

  it("a debater that never shows up is timed out by the tournament's phase window; the match ends", async () => {
    const { admin } = await server();
    const t = await admin.createRoom({
      protocol: 'arena',
      title: 'empty lectern cup',
      config: {
        name: 'empty lectern cup',
        game: 'debate',
        // A second per phase, where the default waits a minute for each of the absent debater's phases.
        gameConfig: { windowMs: 1000 },
        format: { kind: 'round-robin', games: 1 },
        entrants: [
          { name: 'evidence', kind: 'scripted', strategy: 'evidence' },
          { name: 'absent', kind: 'outside' },
        ],
        seed: 'empty lectern cup',
        bootstrap: 0,
      },
    });
    const v = await until(
      () => viewOf(admin, t.room_id),
      (x) => x.phase === 'closed',
    );
    expect(v.played).toBe(1);
    const m = v.matches[0]!;
    const room = await admin.getRoom(m.result!.room);
    const { timings } = room.config as { timings: Record<string, number> };
    for (const phase of ['submit_ms', 'verify_ms', 'continue_vote_ms', 'final_submit_ms', 'final_vote_ms'])
      expect(timings[phase], phase).toBe(1000);
    // The absent debater wrote nothing and places last; the scripted one argued and won.
    const seat = `anon_${m.entrants.indexOf('absent') + 1}`;
    const entries = [];
    for await (const e of admin.allEntries(m.result!.room)) entries.push(e);
    expect(entries.some((e) => e.actor === seat)).toBe(false);
    expect(entries.some((e) => e.kind === 'action' && e.actor.startsWith('anon_'))).toBe(true);
    const byPlace = [...m.result!.placements].sort((a, b) => a.place - b.place);
    expect(byPlace.map((p) => p.entrant)).toEqual(['evidence', 'absent']);
    expect(byPlace[0]!.place).toBeLessThan(byPlace[1]!.place);
    await servers.stopLast();
  });
});
