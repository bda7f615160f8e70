// Outside entrants in deliberation matches (issue 28): in a server-run deliberation round robin the
// server plays the scripted proposers and the house judge, and leaves the outside entrant's proposer
// seat to its claimant, a separate client that plays it through the public REST API alone (claim,
// list pending matches, read its own view, plan, propose). The judge places what it proposed by the
// same rule as everyone's; an outside proposer that never shows up is timed out by the room's own
// step deadline (PHASE_TIMEOUT, then it leaves as silent) and the tournament still closes.
import { verifyArenaBundles } from '@db8/arena/rules/verify-bundles.ts';
import { judgeScore } from '@db8/deliberation/agent/strategies.ts';
import { Db8Client } from '@db8/sdk';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { arenaGames } from '../src/arena-games.ts';
import { arenaServers, until, viewOf } from './arena-servers.ts';

const servers = arenaServers('arena-delib-outside');

const TOPIC = 'Design rate limiting for a public HTTP API';
const POINTS = ['burst limits', 'per key quotas', 'retry after header', 'fair sharing'];

const cup = (name: string, windowMs: number, entrants: Record<string, string>[]) => ({
  protocol: 'arena',
  title: name,
  config: {
    name,
    game: 'deliberation',
    gameConfig: { topic: TOPIC, points: POINTS, windowMs },
    format: { kind: 'round-robin', games: 1 },
    entrants,
    seed: name,
    concurrency: 3,
    bootstrap: 0,
  },
});

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
interface Turn {
  seat: string;
  action: { type: string; content?: string; confidence?: number; error?: { code: string } };
}
interface SeatState {
  view: { turns: Turn[] };
  legal?: { actions: { type: string; tasks?: string[] }[] };
}

/** A match room's action entries with their payloads (proposals are revealed by the closing entry). */
async function actionsOf(c: Db8Client, room: string) {
  const entries = [];
  for await (const e of c.allEntries(room)) entries.push(e);
  const revealed = new Map<number, unknown>();
  for (const e of entries)
    for (const r of (e as { reveals?: { seq: number; payload: unknown }[] }).reveals ?? [])
      revealed.set(r.seq, r.payload);
  return entries
    .filter((e) => e.kind === 'action')
    .map((e) => ({ seat: e.actor, action: (e.payload ?? revealed.get(e.seq)) as Turn['action'] }));
}

// The visitor covers three of the four points and says so (0.75): the judge's 0.75, below
// thorough's 0.95 and above partial's 0.40 (docs/arena.md, "Deliberation matches").
const VISITOR_TEXT = `Visitor's design: ${POINTS.slice(0, 3).join(', ')}; nothing on the fourth.`;
const VISITOR_CONFIDENCE = 0.75;

describe('outside entrants in server-run deliberation tournaments', () => {
  it('an outside proposer plays its seat over REST; the judge places what it proposed; bundles verify', async () => {
    const { s, admin } = await servers.start();
    const t = await admin.createRoom(
      cup('visitor deliberation cup', 60_000, [
        { name: 'thorough', kind: 'scripted', strategy: 'thorough' },
        { name: 'partial', kind: 'scripted', strategy: 'partial' },
        { name: 'visitor', kind: 'outside' },
      ]),
    );
    const { invites } = await admin.request(
      Invites,
      'POST',
      `/v1/arena/tournaments/${t.room_id}/invites`,
      {},
    );
    expect(invites.map((i) => i.entrant)).toEqual(['visitor']);
    const anon = new Db8Client({ baseUrl: s.url });
    const reg = await anon.registerAgent({ name: 'delib-visitor' });
    const agent = new Db8Client({ baseUrl: s.url, token: reg.api_key });
    await agent.request(z.unknown(), 'POST', `/v1/arena/tournaments/${t.room_id}/claim`, {
      invite: invites[0]!.invite,
    });

    // What the visitor sent, by room: checked against the log below.
    const sent = new Map<string, Turn['action'][]>();
    for (;;) {
      if ((await viewOf(admin, t.room_id)).phase === 'closed') break;
      const { matches } = await agent.request(Pending, 'GET', '/v1/arena/matches');
      for (const m of matches) {
        expect(m.game).toBe('deliberation');
        // The brief: the task, the judge's checklist and the step window; all of it public config.
        expect(m.brief).toEqual({ topic: TOPIC, points: POINTS, window_ms: 60_000 });
        if (m.status !== 'open') continue;
        const st = (await agent.state(m.room_id!)) as SeatState;
        // A star: the visitor reads no other proposer's proposal while the match runs.
        expect(st.view.turns.filter((x) => x.seat !== m.seat && x.action.type === 'propose')).toEqual([]);
        // Its turn: the step's kind among its legal actions (failed and forfeit are always there).
        const turn = (st.legal?.actions ?? []).find((a) => a.type === 'plan' || a.type === 'propose');
        if (!turn) continue;
        const action: Turn['action'] & Record<string, unknown> =
          turn.type === 'plan'
            ? {
                type: 'plan',
                tasks: [{ id: 'own', description: 'my design', assignee: null, dependsOn: [], priority: 1 }],
              }
            : {
                type: 'propose',
                content: VISITOR_TEXT,
                taskIds: turn.tasks ?? [],
                confidence: VISITOR_CONFIDENCE,
                code: null,
              };
        await agent.act(m.room_id!, { seat: m.seat!, action: action as never });
        sent.set(m.room_id!, [...(sent.get(m.room_id!) ?? []), action]);
      }
      await new Promise((r) => setTimeout(r, 250));
    }

    const v = await viewOf(admin, t.room_id);
    expect(v.played).toBe(3);
    const visitorScore = judgeScore(POINTS, VISITOR_TEXT, VISITOR_CONFIDENCE);
    expect(visitorScore).toBeCloseTo(0.75, 9);
    for (const m of v.matches.filter((x) => x.entrants.includes('visitor'))) {
      const room = m.result!.room;
      const seat = `proposer_${m.entrants.indexOf('visitor') + 1}`;
      // Its seat's actions in the log are exactly the two it sent (plan, then its proposal).
      const own = (await actionsOf(admin, room)).filter((a) => a.seat === seat).map((a) => a.action);
      // (A seat the server played itself would show actions the visitor never sent.)
      expect(own).toEqual((sent.get(room) ?? []).map((a) => expect.objectContaining(a)));
      expect(own.map((a) => a.type)).toEqual(['plan', 'propose']);
      // The close names the visitor's agent as the seat's holder.
      const entries = [];
      for await (const e of admin.allEntries(room)) entries.push(e);
      const close = entries.find((e) => e.kind === 'close') as { reveals?: { payload: unknown }[] };
      const holders = (close.reveals ?? []).map((r) => r.payload as { seat?: string; principal?: string });
      expect(holders.find((h) => h.seat === seat)?.principal).toBe(reg.agent_id);
      // The judge's rule: 0.75 loses to thorough's 0.95 and beats partial's 0.40; a win is the
      // judge's whole weight (10 × 0.5: 500 in hundredths).
      const other = m.entrants.find((x) => x !== 'visitor')!;
      const won = other === 'partial';
      expect(m.result!.placements.find((p) => p.entrant === 'visitor')).toEqual({
        entrant: 'visitor',
        place: won ? 1 : 2,
        score: won ? 500 : 0,
      });
    }
    expect(sent.size).toBe(2);
    expect(v.standings.rows.map((r) => [r.entrant, r.wins, r.losses])).toEqual([
      ['thorough', 2, 0],
      ['visitor', 1, 1],
      ['partial', 0, 2],
    ]);

    // Every bundle, as anyone downloads it, verifies: signatures, heads, each match refolded.
    const exportOf = async (id: string) => (await anon.raw('GET', `/v1/rooms/${id}/export`)).text();
    const bundles = new Map<string, string>();
    for (const m of v.matches) bundles.set(m.id, await exportOf(m.result!.room));
    const { verdict } = verifyArenaBundles(
      { tournament: await exportOf(t.room_id), matches: bundles },
      arenaGames,
    );
    expect(verdict.problems).toEqual([]);
    expect(verdict).toMatchObject({ ok: true, checked: 3 });
    await servers.stopLast();
  });

  it('an outside proposer that never shows up is timed out by the step window and places last', async () => {
    const { admin } = await servers.start();
    const t = await admin.createRoom(
      cup('empty podium cup', 1000, [
        { name: 'bluffer', kind: 'scripted', strategy: 'bluff' },
        { name: 'absent', kind: 'outside' },
      ]),
    );
    const v = await until(
      () => viewOf(admin, t.room_id),
      (x) => x.phase === 'closed',
    );
    expect(v.played).toBe(1);
    const m = v.matches[0]!;
    const room = await admin.getRoom(m.result!.room);
    expect((room.config as { phaseTimeoutMs: number }).phaseTimeoutMs).toBe(1000);
    const seat = `proposer_${m.entrants.indexOf('absent') + 1}`;
    // Its seat wrote nothing; its turns are the protocol's timeouts (a tick's failed turn each).
    expect((await actionsOf(admin, m.result!.room)).some((a) => a.seat === seat)).toBe(false);
    const end = (await admin.state(m.result!.room)) as { view: { turns: Turn[] } };
    const its = end.view.turns.filter((x) => x.seat === seat);
    expect(its.length).toBeGreaterThan(0);
    expect(its.every((x) => x.action.type === 'failed' && x.action.error?.code === 'PHASE_TIMEOUT')).toBe(
      true,
    );
    // Even a bluff (the judge's −0.475) beats no proposal: the absent seat places last.
    const byPlace = [...m.result!.placements].sort((a, b) => a.place - b.place);
    expect(byPlace.map((p) => [p.entrant, p.score])).toEqual([
      ['bluffer', 500],
      ['absent', 0],
    ]);
    await servers.stopLast();
  });
});
