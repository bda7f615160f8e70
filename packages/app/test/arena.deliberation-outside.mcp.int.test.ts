// An outside proposer over MCP (issue 28): an agent holding nothing but its own key and the
// organizer's invitation plays its proposer seat in a server-run deliberation match through the
// SDK's own client on Streamable HTTP — arena_claim, arena_matches (seat and brief: topic, checklist,
// window), view_room, then the deliberation's act tool for its plan and its proposal — and the house
// judge places it by what it proposed. The REST twin is arena.deliberation-outside.int.test.ts.
import { judgeScore } from '@db8/deliberation/agent/strategies.ts';
import { Db8Client } from '@db8/sdk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { arenaServers, until, viewOf } from './arena-servers.ts';

const servers = arenaServers('arena-delib-mcp');
const clients: Client[] = [];
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
});

// biome-ignore lint/suspicious/noExplicitAny: tool results are JSON inspected field by field.
type Out = Record<string, any>;

const POINTS = ['burst limits', 'per key quotas', 'retry after header', 'fair sharing'];
// Every point, and sure of it: the judge's 1, above hedge's 0.75.
const TEXT = `Design: ${POINTS.join('; ')}.`;

const Invites = z.object({ invites: z.array(z.object({ entrant: z.string(), invite: z.string() })) });

describe('an outside deliberation proposer over MCP', () => {
  it('claims, reads its brief, plans and proposes over MCP; the judge places it first', async () => {
    const { s, admin } = await servers.start();
    const t = await admin.createRoom({
      protocol: 'arena',
      title: 'mcp podium',
      config: {
        name: 'mcp podium',
        game: 'deliberation',
        gameConfig: { points: POINTS, windowMs: 10 * 60_000 },
        format: { kind: 'round-robin', games: 1 },
        entrants: [
          { name: 'hedger', kind: 'scripted', strategy: 'hedge' },
          { name: 'visitor', kind: 'outside' },
        ],
        seed: 'mcp podium',
        bootstrap: 0,
      },
    });
    const { invites } = await admin.request(
      Invites,
      'POST',
      `/v1/arena/tournaments/${t.room_id}/invites`,
      {},
    );
    const reg = await new Db8Client({ baseUrl: s.url }).registerAgent({ name: 'mcp-proposer' });
    const agent = new Client({ name: 'db8-delib-outside', version: '1.0.0' });
    await agent.connect(
      new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${reg.api_key}` } },
      }),
    );
    clients.push(agent);
    const tool = async (name: string, args: Record<string, unknown>): Promise<Out> => {
      const r = await agent.callTool({ name, arguments: args });
      expect(r.isError, `${name}: ${JSON.stringify(r.content)}`).toBeFalsy();
      return r.structuredContent as Out;
    };
    await tool('arena_claim', { tournament: t.room_id, invite: invites[0]!.invite });

    const sent: string[] = [];
    let seat = '';
    await until(
      async () => {
        const { matches } = await tool('arena_matches', {});
        for (const m of matches as Out[]) {
          expect(m.brief).toEqual({
            topic: 'Design rate limiting for a public HTTP API',
            points: POINTS,
            window_ms: 600_000,
          });
          if (m.status !== 'open') continue;
          seat = m.seat;
          const view = await tool('view_room', { room_id: m.room_id });
          expect(view.act_tool).toBe('act_deliberation');
          const kinds = (view.legal_actions as Out[]).map((a) => a.action.type);
          const propose = (view.legal_actions as Out[]).find((a) => a.action.type === 'propose');
          const action = kinds.includes('plan')
            ? {
                type: 'plan',
                tasks: [{ id: 'own', description: 'mine', assignee: null, dependsOn: [], priority: 1 }],
              }
            : propose
              ? {
                  type: 'propose',
                  content: TEXT,
                  taskIds: propose.action.tasks ?? [],
                  confidence: 1,
                  code: null,
                }
              : null;
          if (!action || sent.at(-1) === action.type) continue;
          await tool('act_deliberation', {
            room_id: m.room_id,
            action,
            turn_token: view.turn_token ?? undefined,
          });
          sent.push(action.type);
        }
        return (await viewOf(admin, t.room_id)).phase;
      },
      (phase) => phase === 'closed',
    );
    expect(sent).toEqual(['plan', 'propose']);
    const v = await viewOf(admin, t.room_id);
    const m = v.matches[0]!;
    expect(seat).toBe(`proposer_${m.entrants.indexOf('visitor') + 1}`);
    // The judge's rule: every point at confidence 1 is 1, above hedge's 0.75.
    expect(judgeScore(POINTS, TEXT, 1)).toBe(1);
    expect(m.result!.placements.find((p) => p.entrant === 'visitor')).toEqual({
      entrant: 'visitor',
      place: 1,
      score: 500,
    });
    const acts = [];
    for await (const e of admin.allEntries(m.result!.room))
      if (e.kind === 'action' && e.actor === seat) acts.push(e);
    expect(acts).toHaveLength(2);
    expect((await tool('arena_matches', {})).matches).toEqual([]);
    await servers.stopLast();
  });
});
