// Names beside a match room's seats (issue 28, "Names everywhere, never ids"): GET /v1/rooms/:id of a
// server-run tournament's match room names, per seat, the entrant the schedule put there, with its
// profile's id once the tournament has closed; an ordinary room and the tournament room name nobody; a debate match names its
// anonymous seats only once the room has closed (the debate unmasks them then), never while it runs.
import { entrantIdentity } from '@db8/arena/server';
import { describe, expect, it } from 'vitest';
import { Holds, modulesPacedBy } from './arena-holds.ts';
import { arenaServers, until, viewOf } from './arena-servers.ts';

const servers = arenaServers('arena-labels');

const scripted = (name: string, strategy: string) => ({ name, kind: 'scripted' as const, strategy });

describe('seat labels', () => {
  it("names a sealed-bid match room's bidders by their entrants, and nobody in other rooms", async () => {
    // The first match room is held at its second write, the tournament still running.
    const holds = Holds.first(2);
    const { admin } = await servers.start({}, { modules: modulesPacedBy(holds.pace) });
    const entrants = [scripted('Truthful Tess', 'truthful'), scripted('Shady Sam', 'shade')];
    const t = await admin.createRoom({
      protocol: 'arena',
      title: 'label cup',
      config: {
        name: 'label cup',
        game: 'sealed-bid',
        format: { kind: 'round-robin', games: 2 },
        entrants,
        seed: 'label-cup',
        bootstrap: 20,
      },
    });
    // While the tournament runs: names, and no profile (it shows the tournament only once closed).
    const held = await admin.getRoom(await holds.until((rooms) => rooms[0]));
    expect(held.seats.filter((s) => s.label).map((s) => s.label)).toEqual([
      { name: expect.any(String) },
      { name: expect.any(String) },
    ]);
    holds.open();
    const v = await until(
      () => viewOf(admin, t.room_id),
      (x) => x.phase === 'closed',
    );
    expect(v.matches).toHaveLength(2);
    const profile = (name: string) => entrantIdentity(entrants.find((e) => e.name === name)!)!.id;
    for (const m of v.matches) {
      const room = await admin.getRoom(m.result!.room);
      // The schedule's order is the seat order (bidder_1 is the match's first entrant).
      expect(room.seats.filter((s) => s.label).map((s) => [s.seat, s.label])).toEqual(
        m.entrants.map((name, i) => [`bidder_${i + 1}`, { name, agent_id: profile(name) }]),
      );
      // The house's auctioneer seat is no entrant's.
      expect(room.seats.find((s) => s.seat === 'auctioneer')?.label).toBeUndefined();
    }
    // Both seat orders were played: each entrant sat in bidder_1 once.
    expect(v.matches.map((m) => m.entrants[0]).sort()).toEqual(['Shady Sam', 'Truthful Tess']);

    const tournament = await admin.getRoom(t.room_id);
    expect(tournament.seats.every((s) => s.label === undefined)).toBe(true);
    const plain = await admin.createRoom({
      protocol: 'sealed-bid',
      config: {
        item: 'lamp',
        bidders: 2,
        reservePrice: 10,
        biddingWindowMs: 60_000,
        revealWindowMs: 60_000,
        rule: 'second-price',
      },
    });
    const read = await admin.getRoom(plain.room_id);
    expect(read.seats.length).toBeGreaterThan(0);
    expect(read.seats.every((s) => s.label === undefined)).toBe(true);
    await servers.stopLast();
  });

  it("names a debate match's anonymous seats only once its room has closed with its result", async () => {
    // The first match room is held at its third write, mid-debate.
    const holds = Holds.first(3);
    const { admin } = await servers.start({}, { modules: modulesPacedBy(holds.pace) });
    const entrants = [scripted('Evidence Eve', 'evidence'), scripted('Sloppy Sid', 'sloppy')];
    const t = await admin.createRoom({
      protocol: 'arena',
      title: 'masked cup',
      config: {
        name: 'masked cup',
        game: 'debate',
        gameConfig: { rounds: 1 },
        format: { kind: 'round-robin', games: 1 },
        entrants,
        seed: 'masked-cup',
        bootstrap: 20,
      },
    });
    const held = await holds.until((rooms) => rooms[0]);
    const open = await admin.getRoom(held);
    expect(open.status).toBe('open');
    expect(open.seats.map((s) => s.seat)).toContain('anon_1');
    expect(open.seats.every((s) => s.label === undefined)).toBe(true);
    // Ended mid-debate (abandoned: never unmasked), it stays unnamed: its match is replayed in
    // a new room with the same seat order.
    await admin.endRoom(held, { reason: 'the test abandons it' });
    const ended = await admin.getRoom(held);
    expect(ended.status).toBe('closed');
    expect(ended.seats.every((s) => s.label === undefined)).toBe(true);
    holds.open();

    const v = await until(
      () => viewOf(admin, t.room_id),
      (x) => x.phase === 'closed',
    );
    const m = v.matches[0]!;
    expect(m.result!.room).toBe(`${held}-r2`);
    expect((await admin.getRoom(held)).seats.every((s) => s.label === undefined)).toBe(true);
    const closed = await admin.getRoom(m.result!.room);
    expect(closed.status).toBe('closed');
    const named = closed.seats.filter((s) => s.label).map((s) => [s.seat, s.label!.name]);
    expect(named).toEqual(m.entrants.map((name, i) => [`anon_${i + 1}`, name]));
    await servers.stopLast();
  });
});
