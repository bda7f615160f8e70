import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, listen, makeApp, sharedStore } from './app-harness.ts';
import { AUCTION, adminToken, call } from './routes-fixtures.ts';

/**
 * The MCP endpoint played by the SDK's own client over real HTTP: a sealed-bid auction and a poker
 * hand to the end, then the refusals (no credentials, an outdated client). The transport's
 * conformance to the MCP spec, with a raw JSON-RPC client, is mcp.spec.test.ts.
 */

let h: Harness;
let base: string;
let admin: string;
const clients: Client[] = [];

beforeAll(async () => {
  h = await makeApp({
    store: await sharedStore(),
    config: { rateLimit: { max: 100_000, windowMs: 60_000 } },
  });
  base = await listen(h);
  admin = await adminToken(h);
});

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await h.close();
  await h.store.close();
});

async function agentKey(): Promise<string> {
  const r = await call(h, 'POST', '/v1/agents', { body: { name: 'mcp-agent' } });
  expect(r.status).toBe(201);
  return r.body.api_key;
}

async function connect(token: string | null): Promise<Client> {
  const client = new Client({ name: 'db8-test', version: '1.0.0' });
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }),
  );
  clients.push(client);
  return client;
}

// biome-ignore lint/suspicious/noExplicitAny: tool results are JSON inspected freely by the test.
type Out = Record<string, any>;
async function tool(c: Client, name: string, args: Record<string, unknown>): Promise<Out> {
  const r = await c.callTool({ name, arguments: args });
  expect(r.isError, `${name}: ${JSON.stringify(r.content)}`).toBeFalsy();
  return r.structuredContent as Out;
}
async function toolError(c: Client, name: string, args: Record<string, unknown>): Promise<Out> {
  const r = await c.callTool({ name, arguments: args });
  expect(r.isError, `${name} should fail`).toBe(true);
  return (r.structuredContent as Out).error;
}

async function createRoom(protocol: string, config: unknown): Promise<string> {
  const r = await call(h, 'POST', '/v1/rooms', { token: admin, body: { protocol, config } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.room_id;
}

describe('MCP over Streamable HTTP', () => {
  it("lists tools generated from the registry: one act tool per protocol (unless a module opts out), plus the modules' own tools", async () => {
    const c = await connect(await agentKey());
    const names = (await c.listTools()).tools.map((t) => t.name).sort();
    const modules = [...h.app.db8.modules.values()];
    const acts = modules.filter((m) => m.actTool !== false).map((m) => `act_${m.protocol.name}`);
    const own = modules.flatMap((m) => (m.mcpTools ?? []).map((t) => t.name));
    expect(names).toEqual(
      [
        ...acts,
        ...own,
        'export_room',
        'join_room',
        'list_protocols',
        'list_rooms',
        'verify_bundle',
        'view_room',
        'wait',
      ].sort(),
    );
    const act = (await c.listTools()).tools.find((t) => t.name === 'act_sealed-bid')!;
    // The action parameter carries the protocol's own action schema.
    expect(JSON.stringify(act.inputSchema.properties?.action)).toContain('withdraw');
  });

  it('plays a sealed-bid auction to the end: join, view, act, typed error, wait, notifications, export, verify', async () => {
    const roomId = await createRoom('sealed-bid', AUCTION);
    const [b1, b2, auctioneer] = await Promise.all([1, 2, 3].map(async () => connect(await agentKey())));

    const listed = await tool(b1!, 'list_rooms', { protocol: 'sealed-bid' });
    expect(listed.rooms.map((r: Out) => r.room_id)).toContain(roomId);
    expect(listed.protocols.map((p: Out) => p.name)).toContain('poker');

    expect((await tool(b1!, 'join_room', { room_id: roomId, seat: 'bidder_1' })).seat).toBe('bidder_1');
    expect((await tool(b2!, 'join_room', { room_id: roomId })).seat).toBe('bidder_2');
    // The auctioneer's seat is given, not taken: a plain join is refused; the admin's invite opens it.
    expect((await toolError(auctioneer!, 'join_room', { room_id: roomId, seat: 'auctioneer' })).code).toBe(
      'SEAT_PRIVILEGED',
    );
    const inv = await call(h, 'POST', `/v1/rooms/${roomId}/invites`, {
      token: admin,
      body: { seat: 'auctioneer' },
    });
    const joined = await tool(auctioneer!, 'join_room', {
      room_id: roomId,
      seat: 'auctioneer',
      invite: inv.body.invite,
    });
    expect(joined).not.toHaveProperty('session_token');

    const v = await tool(b1!, 'view_room', { room_id: roomId });
    expect(v.viewer).toEqual({ kind: 'seat', seat: 'bidder_1' });
    expect(v.act_tool).toBe('act_sealed-bid');
    expect(v.legal_actions).toHaveLength(1);
    expect(v.legal_actions[0].action).toMatchObject({ type: 'bid', minAmount: 10 });
    expect(v.legal_actions[0].schema.properties.type.const).toBe('bid');
    expect(v.legal_actions[0].schema.properties).toHaveProperty('amount');
    expect(typeof v.deadline_unix).toBe('number');

    // The protocol's rejection and the REST access rules come back typed.
    expect(
      (await toolError(b1!, 'act_sealed-bid', { room_id: roomId, action: { type: 'bid', amount: 3 } })).code,
    ).toBe('BELOW_RESERVE');
    expect(
      (
        await toolError(b1!, 'act_sealed-bid', {
          room_id: roomId,
          seat: 'bidder_2',
          action: { type: 'bid', amount: 30 },
        })
      ).code,
    ).toBe('SEAT_NOT_HELD');
    expect((await toolError(b1!, 'act_poker', { room_id: roomId, action: { kind: 'fold' } })).code).toBe(
      'WRONG_PROTOCOL',
    );

    const updates: string[] = [];
    auctioneer!.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updates.push(n.params.uri);
    });
    await auctioneer!.subscribeResource({ uri: `db8://rooms/${roomId}/view` });

    // The auctioneer waits for its turn while the bidders bid and the server ticks the reveal.
    const turn = tool(auctioneer!, 'wait', { room_id: roomId, for: 'turn', timeout_ms: 30_000 });
    const quiet = await tool(b2!, 'wait', { room_id: roomId, for: 'entry', timeout_ms: 100 });
    expect(quiet.reason).toBe('timeout');
    const nextEntry = tool(b2!, 'wait', { room_id: roomId, for: 'entry', timeout_ms: 30_000 });
    const ack1 = await tool(b1!, 'act_sealed-bid', { room_id: roomId, action: { type: 'bid', amount: 50 } });
    expect(ack1).toMatchObject({ room_id: roomId, duplicate: false });
    const seen = await nextEntry;
    expect(seen.reason).toBe('entry');
    expect(seen.entries.map((e: Out) => e.seq)).toEqual([ack1.seq]);
    // Redacted for bidder_2 as REST would: the rival's sealed bid shows its commitment, not its amount.
    expect(seen.entries[0].commit).toEqual(expect.any(String));
    expect(JSON.stringify(seen.entries)).not.toContain('"amount":50');
    await tool(b2!, 'act_sealed-bid', { room_id: roomId, action: { type: 'bid', amount: 40 } });
    await h.runtime.tickDue(); // every bidder is in: the reveal is due now
    const waited = await turn;
    expect(waited.reason).toBe('turn');
    expect(waited.state.turn_token).toEqual(expect.any(String));
    expect(waited.state.legal_actions.map((a: Out) => a.action.type)).toEqual(['confirm', 'withdraw']);
    expect(waited.entries.length).toBeGreaterThanOrEqual(3);
    expect(updates).toContain(`db8://rooms/${roomId}/view`);

    await tool(auctioneer!, 'act_sealed-bid', {
      room_id: roomId,
      action: { type: 'confirm' },
      turn_token: waited.state.turn_token,
    });
    const end = await tool(b2!, 'view_room', { room_id: roomId });
    expect(end.status).toBe('closed');
    expect(end.legal_actions).toEqual([]);
    expect(JSON.stringify(end.view)).toContain('bidder_1');

    const listedUris = (await b1!.listResources()).resources.map((r) => r.uri);
    expect(listedUris).toEqual(
      expect.arrayContaining([`db8://rooms/${roomId}/view`, `db8://rooms/${roomId}/log`]),
    );
    const log = await b1!.readResource({ uri: `db8://rooms/${roomId}/log` });
    const entries = JSON.parse(String((log.contents[0] as { text: string }).text)).entries as Out[];
    expect(entries.at(-1)!.seq).toBe(end.seq);

    const exported = await b1!.callTool({ name: 'export_room', arguments: { room_id: roomId } });
    const jsonl = (exported.content as Array<{ text: string }>)[0]!.text;
    expect(jsonl.trim().split('\n').length).toBeGreaterThan(entries.length);
    const checked = await tool(b1!, 'verify_bundle', { bundle: jsonl });
    expect(checked).toMatchObject({ ok: true, keyPinned: true, room: roomId });
    const tampered = jsonl.replace('"amount":50', '"amount":51');
    expect(tampered).not.toBe(jsonl);
    expect((await tool(b1!, 'verify_bundle', { bundle: tampered })).ok).toBe(false);
  });

  it('plays a poker hand to the end with wait(turn) and the turn token', async () => {
    const roomId = await createRoom('poker', {
      seats: 2,
      smallBlind: 1,
      bigBlind: 2,
      startingStack: 100,
      maxHands: 1,
      handIntervalMs: 1,
    });
    const players = await Promise.all([0, 1].map(async () => connect(await agentKey())));
    for (const [i, p] of players.entries()) {
      expect((await tool(p, 'join_room', { room_id: roomId, seat: `seat_${i}` })).seat).toBe(`seat_${i}`);
      const v = await tool(p, 'view_room', { room_id: roomId });
      expect(v.legal_actions.map((a: Out) => a.action.kind)).toEqual(['sitIn']);
      await tool(p, 'act_poker', { room_id: roomId, action: { kind: 'sitIn' } });
    }
    // The server's deadline scheduler, on the test clock.
    let ticking = true;
    const ticker = (async () => {
      while (ticking) {
        h.clock.advance(5);
        await h.runtime.tickDue();
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const moves: string[] = [];
    const play = async (p: Client) => {
      for (let n = 0; n < 50; n++) {
        const w = await tool(p, 'wait', { room_id: roomId, for: 'turn', timeout_ms: 30_000 });
        if (w.reason === 'closed') return w.state;
        expect(w.reason).toBe('turn');
        const kinds = w.state.legal_actions.map((a: Out) => a.action.kind);
        const kind = kinds.includes('check') ? 'check' : 'call';
        const ack = await p.callTool({
          name: 'act_poker',
          arguments: { room_id: roomId, action: { kind }, turn_token: w.state.turn_token },
        });
        // The other seat's timeout may have moved the table first: a stale token is a typed refusal.
        if (ack.isError) expect((ack.structuredContent as Out).error.code).toMatch(/TURN|STALE/);
        else moves.push(kind);
      }
      throw new Error('hand did not end');
    };
    const [s0, s1] = await Promise.all(players.map(play));
    ticking = false;
    await ticker;
    expect(s0.status).toBe('closed');
    expect(s1.status).toBe('closed');
    expect(moves.length).toBeGreaterThanOrEqual(4); // call/check pre-flop, then checks to the river
    const seats = s0.view.seats as Array<{ stack: number }>;
    expect(seats.reduce((t, s) => t + s.stack, 0)).toBe(200);
    expect(s0.view.recent).toHaveLength(1);
  });

  it('refuses a client without credentials, with a clear error', async () => {
    const err = await connect(null).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as { code?: number }).code).toBe(401);
    expect(String((err as Error).message)).toMatch(/UNAUTHORIZED.*api key or session token/);
    const bad = await connect('db8k_not-a-real-key').catch((e: Error) => e);
    expect(String((bad as Error).message)).toMatch(/INVALID_TOKEN/);
  });

  it('tells outdated db8 clients so (header or join); an old MCP protocol gets a counter-offer (mcp.spec.test.ts)', async () => {
    const key = await agentKey();
    const init = (version: string, extra: Record<string, string> = {}) =>
      fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...extra,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'old', version: '0' } },
        }),
      });
    const db8Old = await init('2025-06-18', { 'db8-protocol-version': '0.0.1' });
    expect(db8Old.status).toBe(426);
    expect(((await db8Old.json()) as Out).error).toMatchObject({
      code: 'OUTDATED_CLIENT',
      details: { skill_doc_url: expect.stringMatching(/skill\.md$/) },
    });

    const roomId = await createRoom('sealed-bid', AUCTION);
    const c = await connect(key);
    const e = await toolError(c, 'join_room', { room_id: roomId, client_protocol_version: '0.0.1' });
    expect(e.code).toBe('OUTDATED_CLIENT');
  });

  it('limits how fast one principal opens sessions (/mcp is outside the REST rate limit)', async () => {
    const key = await agentKey();
    const open = () =>
      fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 'x', version: '0' },
          },
        }),
      });
    for (let i = 0; i < 30; i++) {
      const r = await open();
      expect(r.status).toBe(200);
      await r.body?.cancel();
    }
    const over = await open();
    expect(over.status).toBe(429);
    expect(((await over.json()) as Out).error.code).toBe('RATE_LIMITED');
  });

  it('binds a session to the principal that opened it', async () => {
    const c = await connect(await agentKey());
    const sessionId = (c.transport as StreamableHTTPClientTransport).sessionId!;
    const other = await agentKey();
    const r = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${other}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(r.status).toBe(403);
    expect(((await r.json()) as Out).error.code).toBe('FORBIDDEN');
  });
});
