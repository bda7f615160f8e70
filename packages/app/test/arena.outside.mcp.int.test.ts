// Outside entrants over MCP (issue 28): an agent holding nothing but its own key and the
// organizer's invitation plays a server-run sealed-bid tournament through the SDK's own client on
// Streamable HTTP — arena_claim, arena_matches (seat, opponents, brief), then the platform's act
// tool in each match room — until the tournament closes with its bids in the rooms. Bad arguments
// to both arena tools (wrong types, huge strings, a used invitation) are tool errors and write
// nothing. The REST twin of this walk is arena.outside.int.test.ts.
import { Db8Client } from '@db8/sdk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PATIENCE_MS } from '../../../test/patience.ts';
import type { RunningServer } from '../src/server.ts';
import { arenaServers, viewOf as viewIn } from './arena-servers.ts';

const servers = arenaServers('arena-mcp');
let s: RunningServer;
let admin: Db8Client;
const clients: Client[] = [];

beforeAll(async () => {
  ({ s, admin } = await servers.start());
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
});

// biome-ignore lint/suspicious/noExplicitAny: tool results are JSON inspected field by field.
type Out = Record<string, any>;

async function mcp(key: string): Promise<Client> {
  const client = new Client({ name: 'db8-arena-outside', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  clients.push(client);
  return client;
}
async function tool(c: Client, name: string, args: Record<string, unknown>): Promise<Out> {
  const r = await c.callTool({ name, arguments: args });
  expect(r.isError, `${name}: ${JSON.stringify(r.content)}`).toBeFalsy();
  return r.structuredContent as Out;
}
/** The refusal's text: the REST error body when the route refused, the SDK's message otherwise. */
async function refusal(c: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const r = await c.callTool({ name, arguments: args });
  expect(r.isError, `${name} ${JSON.stringify(args).slice(0, 200)} should fail`).toBe(true);
  return (r.content as { type: string; text: string }[]).map((x) => x.text).join('\n');
}

/** What an arena tool could write: claims, invitation uses, seats the given principals hold. */
async function written(...principals: string[]): Promise<unknown> {
  const q = (sql: string, p: unknown[] = []) => s.store.db.query(sql, p);
  return {
    claims: await q('SELECT tournament_id, entrant, principal FROM arena_entrants ORDER BY 1, 2'),
    invites: await q('SELECT id, uses FROM invites ORDER BY id'),
    seats: await q('SELECT room_id, seat FROM seats WHERE principal_id = ANY($1) ORDER BY 1, 2', [
      principals,
    ]),
  };
}

const viewOf = (id: string) => viewIn(admin, id);

const Invites = z.object({ invites: z.array(z.object({ entrant: z.string(), invite: z.string() })) });

describe('outside entrants over MCP', () => {
  it('an agent with only an invitation claims, lists and bids over MCP; the tournament closes with its bids', async () => {
    const t = await admin.createRoom({
      protocol: 'arena',
      title: 'mcp cup',
      config: {
        name: 'mcp cup',
        game: 'sealed-bid',
        // Long enough that the agent's bids, not the window, end each match.
        gameConfig: { biddingWindowMs: 10 * 60_000 },
        format: { kind: 'round-robin', games: 1 },
        entrants: [
          { name: 'truthful', kind: 'scripted', strategy: 'truthful' },
          { name: 'lowballer', kind: 'scripted', strategy: 'lowball' },
          { name: 'visitor', kind: 'outside' },
        ],
        seed: 'mcp cup',
        concurrency: 3,
        bootstrap: 0,
      },
    });
    const { invites } = await admin.request(
      Invites,
      'POST',
      `/v1/arena/tournaments/${t.room_id}/invites`,
      {},
    );
    const invite = invites[0]!.invite;

    // The outside agent registers itself (the one REST call MCP needs: a key to bear) and from then
    // on speaks MCP only.
    const anon = new Db8Client({ baseUrl: s.url });
    const reg = await anon.registerAgent({ name: 'mcp-visitor' });
    const agent = await mcp(reg.api_key);
    const names = (await agent.listTools()).tools.map((x) => x.name);
    expect(names).toEqual(expect.arrayContaining(['arena_claim', 'arena_matches', 'act_sealed-bid']));
    expect((await tool(agent, 'arena_matches', {})).matches).toEqual([]);

    // Bad arguments: each a tool error naming what is wrong, and nothing written.
    const before = await written(reg.agent_id);
    const tid = t.room_id;
    for (const [args, says] of [
      [{ tournament: 42, invite }, /Invalid arguments for tool arena_claim[\s\S]*tournament/],
      [{ tournament: tid, invite: { token: invite } }, /Invalid arguments for tool arena_claim[\s\S]*invite/],
      [{ tournament: tid }, /Invalid arguments for tool arena_claim[\s\S]*invite/],
      [
        { tournament: tid, invite: 'x'.repeat(100_000) },
        /Invalid arguments for tool arena_claim[\s\S]*invite/,
      ],
      [
        { tournament: 't'.repeat(100_000), invite },
        /Invalid arguments for tool arena_claim[\s\S]*tournament/,
      ],
      [{ tournament: '../../v1/rooms', invite }, /"code":"VALIDATION_FAILED"|"code":"BAD_REQUEST"/],
      [{ tournament: 'room_nosuch', invite }, /"code":"FORBIDDEN"/],
      [{ tournament: tid, invite: 'not-a-token' }, /"code":"(INVALID_TOKEN|UNAUTHORIZED|INVITE_INVALID)"/],
    ] as const) {
      expect(await refusal(agent, 'arena_claim', args as Record<string, unknown>)).toMatch(says);
    }
    for (const args of [{ mine: true }, { tournament: tid }, { junk: 'x'.repeat(100_000) }]) {
      expect(await refusal(agent, 'arena_matches', args)).toMatch(/Invalid arguments for tool arena_matches/);
    }
    expect(await written(reg.agent_id)).toEqual(before);

    expect(await tool(agent, 'arena_claim', { tournament: tid, invite })).toEqual({
      tournament: tid,
      entrant: 'visitor',
    });
    // The invitation is spent: another agent's claim with it is refused and writes nothing.
    const other = await anon.registerAgent({ name: 'mcp-gatecrasher' });
    const claimed = await written(other.agent_id);
    const crasher = await mcp(other.api_key);
    expect(await refusal(crasher, 'arena_claim', { tournament: tid, invite })).toMatch(
      /"code":"INVITE_USED_UP"/,
    );
    expect((await tool(crasher, 'arena_matches', {})).matches).toEqual([]);
    expect(await written(other.agent_id)).toEqual(claimed);

    // Play: list the pending matches, bid the brief's value in every open one.
    const bid = new Map<string, { seat: string; amount: number }>();
    const seen = new Map<string, Out>();
    const deadline = Date.now() + 2 * PATIENCE_MS;
    while ((await viewOf(tid)).phase !== 'closed') {
      expect(Date.now(), 'the tournament closes').toBeLessThan(deadline);
      const { matches } = await tool(agent, 'arena_matches', {});
      for (const m of matches as Out[]) {
        seen.set(m.match, m);
        expect(m).toMatchObject({ tournament: tid, tournament_name: 'mcp cup', game: 'sealed-bid' });
        expect(m.entrant).toBe('visitor');
        expect(m.opponents).toHaveLength(1);
        expect(['truthful', 'lowballer']).toContain(m.opponents[0]);
        expect(Number.isInteger(m.brief.value)).toBe(true);
        if (m.status !== 'open' || bid.has(m.room_id)) continue;
        expect(m.seat).toMatch(/^bidder_[12]$/);
        const view = await tool(agent, 'view_room', { room_id: m.room_id });
        expect(view.viewer).toEqual({ kind: 'seat', seat: m.seat });
        expect(view.act_tool).toBe('act_sealed-bid');
        if (!view.legal_actions.some((a: Out) => a.action.type === 'bid')) continue;
        // No seat given: the act tool plays the seat this principal holds there.
        const ack = await tool(agent, 'act_sealed-bid', {
          room_id: m.room_id,
          action: { type: 'bid', amount: m.brief.value },
          turn_token: view.turn_token ?? undefined,
        });
        expect(ack.duplicate).toBe(false);
        bid.set(m.room_id, { seat: m.seat, amount: m.brief.value });
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    expect([...seen.values()].map((m) => m.opponents[0]).sort()).toEqual(['lowballer', 'truthful']);

    const v = await viewOf(tid);
    const mine = v.matches.filter((m) => m.entrants.includes('visitor'));
    expect(mine).toHaveLength(2);
    for (const m of mine) {
      const room = m.result!.room;
      const seat = `bidder_${m.entrants.indexOf('visitor') + 1}`;
      expect(bid.get(room)?.seat).toBe(seat);
      const entries = [];
      for await (const e of admin.allEntries(room)) entries.push(e);
      // The close reveals the seat's holder: the MCP agent; its one action is its bid.
      const close = entries.find((e) => e.kind === 'close') as { reveals?: { payload: unknown }[] };
      const holders = (close.reveals ?? []).map((r) => r.payload as { seat?: string; principal?: string });
      expect(holders.find((h) => h.seat === seat)?.principal).toBe(reg.agent_id);
      const acts = entries.filter((e) => e.kind === 'action' && e.actor === seat);
      expect(acts).toHaveLength(1);
    }
    expect(v.standings.rows.map((r) => r.entrant).sort()).toEqual(['lowballer', 'truthful', 'visitor']);
    // Nothing pending once the tournament is over.
    expect((await tool(agent, 'arena_matches', {})).matches).toEqual([]);
  });
});
