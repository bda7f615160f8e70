// Outside entrants at poker (issue 28): in a server-run poker round robin the server plays
// the scripted seat and waits for the outside agent's, which a separate client plays through the
// public REST API alone (claim, list pending tables, read its own view, act); it never sees the
// other seat's hole cards. An outside entrant that never shows up is timed out by the table's own
// rule (check if free, else fold; sat out after three in a row), and the tournament still closes.
import { verifyArenaBundles } from '@db8/arena/rules/verify-bundles.ts';
import type { TableView } from '@db8/poker';
import { Db8Client } from '@db8/sdk';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { arenaGames } from '../src/arena-games.ts';
import { arenaServers, until, viewOf } from './arena-servers.ts';

const servers = arenaServers('arena-poker-outside');
const server = () => servers.start();

// A heads-up round robin of two games, the seat order rotated (a duplicate is refused for an entrant
// that plays its own seat: it would see the same decks again, arena.config.test.ts).
const cup = (name: string, actionWindowMs: number, hands: number) => ({
  protocol: 'arena',
  title: name,
  config: {
    name,
    game: 'poker',
    gameConfig: { hands, actionWindowMs },
    format: { kind: 'round-robin', games: 2 },
    entrants: [
      { name: 'tight', kind: 'scripted', strategy: 'tight' } as Record<string, string>,
      { name: 'visitor', kind: 'outside' },
    ],
    seed: name,
    concurrency: 2,
    bootstrap: 0,
  },
});

const entriesOf = async (c: Db8Client, room: string) => {
  const out = [];
  for await (const e of c.allEntries(room)) out.push(e);
  return out;
};

const Invites = z.object({ invites: z.array(z.object({ entrant: z.string(), invite: z.string() })) });
const Pending = z.object({
  matches: z.array(
    z.object({
      match: z.string(),
      game: z.string(),
      status: z.enum(['open', 'scheduled']),
      room_id: z.string().nullable(),
      seat: z.string().nullable(),
      brief: z.record(z.string(), z.unknown()),
    }),
  ),
});
const CARD = /^[2-9TJQKA][cdhs]$/;

describe('outside entrants at poker in server-run tournaments', () => {
  it('an outside agent plays its tables over REST, sees only its own hole cards, and the result verifies', async () => {
    const { s, admin } = await server();
    const t = await admin.createRoom(cup('visitor poker cup', 60_000, 3));
    const { invites } = await admin.request(
      Invites,
      'POST',
      `/v1/arena/tournaments/${t.room_id}/invites`,
      {},
    );
    const anon = new Db8Client({ baseUrl: s.url });
    const reg = await anon.registerAgent({ name: 'poker-visitor' });
    const agent = new Db8Client({ baseUrl: s.url, token: reg.api_key });
    await agent.request(z.unknown(), 'POST', `/v1/arena/tournaments/${t.room_id}/claim`, {
      invite: invites[0]!.invite,
    });

    // The visitor's strategy: check when free, else call (a calling station), from its own view.
    const acted = new Map<string, number>();
    let hiddenSeen = 0;
    for (;;) {
      if ((await viewOf(admin, t.room_id)).phase === 'closed') break;
      const { matches } = await agent.request(Pending, 'GET', '/v1/arena/matches');
      for (const m of matches) {
        expect(m.game).toBe('poker');
        // The brief: the table's window and length, never a card.
        expect(m.brief).toEqual({ hands: 3, action_window_ms: 60_000 });
        if (m.status !== 'open') continue;
        const st = (await agent.state(m.room_id!)) as {
          view: TableView;
          legal?: { actions: { kind: string }[] };
        };
        const me = Number(m.seat!.slice('seat_'.length));
        const street = st.view.hand?.street;
        for (const [i, row] of st.view.seats.entries()) {
          if (row.hole === null) continue;
          if (i === me) expect(row.hole.every((c) => CARD.test(c))).toBe(true);
          else if (street !== 'showdown' && street !== 'complete') {
            // The other seat's cards, mid-hand: hidden from the claimant.
            expect(row.hole.every((c) => c === '??')).toBe(true);
            hiddenSeen++;
          }
        }
        if (st.view.hand?.toAct !== me) continue;
        const kinds = (st.legal?.actions ?? []).map((a) => a.kind);
        const kind = ['check', 'call', 'fold'].find((k) => kinds.includes(k));
        if (!kind) continue;
        await agent.act(m.room_id!, { seat: m.seat!, action: { kind } }).catch((err) => {
          // The table moved between the read and the act (e.g. a hand ended): read again.
          if (!(err as { status?: number }).status) throw err;
        });
        acted.set(m.room_id!, (acted.get(m.room_id!) ?? 0) + 1);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(hiddenSeen).toBeGreaterThan(0);

    const v = await viewOf(admin, t.room_id);
    expect(v.matches.map((m) => m.id).sort()).toEqual(['m1', 'm2']);
    for (const m of v.matches) {
      const room = m.result!.room;
      const idx = m.entrants.indexOf('visitor');
      const seat = `seat_${idx}`;
      const entries = await entriesOf(admin, room);
      // The visitor's own bets are in the record, from the seat the close reveals it held.
      const bets = entries.filter(
        (e) =>
          e.kind === 'action' &&
          e.actor === seat &&
          ['check', 'call', 'fold'].includes((e.payload as { kind?: string }).kind ?? ''),
      );
      expect(bets.length).toBeGreaterThan(0);
      const close = entries.find((e) => e.kind === 'close') as { reveals?: { payload: unknown }[] };
      const holders = (close.reveals ?? []).map((r) => r.payload as { seat?: string; principal?: string });
      expect(holders.find((h) => h.seat === seat)?.principal).toBe(reg.agent_id);
      // Three hands each (the table's maxHands), and the placements are the table's nets.
      const table = ((await admin.state(room)) as { view: TableView }).view;
      expect(table.stopReason).toBe('maxHands');
      expect(m.result!.hands).toBe(3);
      const nets = table.seats.map((x) => x.stack - x.bought);
      expect(m.result!.placements.find((p) => p.entrant === 'visitor')!.score).toBe(nets[idx]);
    }
    expect(acted.size).toBe(2);

    // Every bundle, as anyone downloads it, verifies: signatures, heads, each table refolded.
    const exportOf = async (id: string) => (await anon.raw('GET', `/v1/rooms/${id}/export`)).text();
    const matchBundles = new Map<string, string>();
    for (const m of v.matches) matchBundles.set(m.id, await exportOf(m.result!.room));
    const { verdict } = verifyArenaBundles(
      { tournament: await exportOf(t.room_id), matches: matchBundles },
      arenaGames,
    );
    expect(verdict.problems).toEqual([]);
    expect(verdict).toMatchObject({ ok: true, checked: 2 });
    await servers.stopLast();
  });

  it('an outside poker entrant that never shows up is timed out by the table; the tournament closes', async () => {
    const { admin } = await server();
    const t = await admin.createRoom(cup('empty poker chair', 1000, 10));
    const v = await until(
      () => viewOf(admin, t.room_id),
      (x) => x.phase === 'closed',
    );
    expect(v.played).toBe(2);
    for (const m of v.matches) {
      const idx = m.entrants.indexOf('visitor');
      const seat = `seat_${idx}`;
      const entries = await entriesOf(admin, m.result!.room);
      // Its seat wrote nothing but the sit-in the arena makes for every entrant as the table opens.
      const own = entries.filter((e) => e.kind === 'action' && e.actor === seat);
      expect(own.map((e) => e.payload)).toEqual([{ kind: 'sitIn' }]);
      // Its decisions were the table's: each a timeout (a tick), and after three in a row it was sat
      // out (it is the small blind every other hand, so that comes within ten), ending the table.
      const table = ((await admin.state(m.result!.room)) as { view: TableView }).view;
      const decisions = table.recent
        .flatMap((h) => h.actions)
        .filter((a) => a.seat === idx && !['ante', 'smallBlind', 'bigBlind'].includes(a.kind));
      expect(decisions.length).toBeGreaterThan(0);
      expect(decisions.every((a) => a.auto === true)).toBe(true);
      expect(table.seats[idx]!.status).toBe('sittingOut');
      expect(table.stopReason).toBe('house');
      expect(entries.some((e) => e.kind === 'tick')).toBe(true);
      // Nobody held the seat.
      const close = entries.find((e) => e.kind === 'close') as { reveals?: { payload: unknown }[] };
      const holders = (close.reveals ?? []).map((r) => r.payload as { seat?: string });
      expect(holders.some((h) => h.seat === seat)).toBe(false);
    }
    expect(v.standings.rows.map((r) => r.entrant).sort()).toEqual(['tight', 'visitor']);
    await servers.stopLast();
  });
});
