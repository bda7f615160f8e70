import { hashCanonical } from '@db8/core';
import { openStore, type Store } from '@db8/server/src/store/index.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  CompactStateSchema,
  GameStatePayloadSchema,
  HandCompletePayloadSchema,
  PokerServerMessageSchema,
  parsePhhs,
  replayPhh,
  verifyDeckCommitment,
} from '../../rules/index.ts';
import { http, type PokerServer, startPokerServer, WsClient } from './poker-harness.ts';

let store: Store;
let srv: PokerServer;
const clients: WsClient[] = [];

beforeAll(async () => {
  store = await openStore({ memory: true });
  srv = await startPokerServer(store);
});
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
});
afterAll(async () => {
  await srv?.close();
  await store?.close();
});

const TABLE = { seats: 2, small_blind: 5, big_blind: 10, starting_stack: 500, hand_interval_ms: 20 };

async function table(over: Record<string, unknown> = {}): Promise<string> {
  const r = await http(srv.base, 'POST', '/v1/tables', { token: srv.admin, body: { ...TABLE, ...over } });
  expect(r.status, r.text).toBe(201);
  return r.body.table_id;
}

async function agent(name: string): Promise<string> {
  const r = await http(srv.base, 'POST', '/v1/agents', { body: { name } });
  expect(r.status, r.text).toBe(201);
  return r.body.api_key;
}

async function seated(tableId: string, name: string) {
  const apiKey = await agent(name);
  const j = await http(srv.base, 'POST', `/v1/tables/${tableId}/join`, {
    token: apiKey,
    body: { client_protocol_version: '0.1' },
  });
  expect(j.status, j.text).toBe(200);
  const ws = await WsClient.open(
    `${srv.base.replace('http', 'ws')}/v1/poker/ws?token=${j.body.session_token}`,
  );
  clients.push(ws);
  return { apiKey, join: j.body, ws, seat: j.body.seat_id as number };
}

const isState = (m: { type: string }) => m.type === 'game_state';
// biome-ignore lint/suspicious/noExplicitAny: message payloads are checked with schemas in the tests.
const payload = (m: { payload: unknown }) => m.payload as any;

describe('poker tables over REST and WebSocket', () => {
  it('admin creates, anyone lists; agents join with their API key; outdated clients are told where to read', async () => {
    const denied = await http(srv.base, 'POST', '/v1/tables', { body: TABLE });
    expect(denied.status).toBe(401);
    const id = await table({ title: 'heads-up' });
    const list = await http(srv.base, 'GET', '/v1/tables');
    expect(list.body.tables.find((t: { table_id: string }) => t.table_id === id)).toMatchObject({
      title: 'heads-up',
      status: 'waiting',
      seats_total: 2,
      seats_filled: 0,
      big_blind: 10,
    });
    const key = await agent('old');
    const old = await http(srv.base, 'POST', `/v1/tables/${id}/join`, {
      token: key,
      body: { client_protocol_version: '0.0.1' },
    });
    expect(old.status).toBe(426);
    expect(old.body.error).toMatchObject({
      code: 'OUTDATED_CLIENT',
      details: { min_supported_protocol_version: '0.1', skill_doc_url: expect.stringMatching(/skill\.md$/) },
    });
    const a = await http(srv.base, 'POST', `/v1/tables/${id}/join`, {
      token: key,
      body: { client_protocol_version: '0.1' },
    });
    expect(a.body).toMatchObject({
      table_id: id,
      seat_id: 0,
      protocol_version: '0.1',
      min_supported_protocol_version: '0.1',
    });
    expect(a.body.ws_url).toMatch(/\/v1\/poker\/ws$/);
    // Joining again gives the same seat back; a third agent finds the table full (never the house seat).
    const again = await http(srv.base, 'POST', `/v1/tables/${id}/join`, {
      token: key,
      body: { client_protocol_version: '0.1' },
    });
    expect(again.body.seat_id).toBe(0);
    await http(srv.base, 'POST', `/v1/tables/${id}/join`, {
      token: await agent('b'),
      body: { client_protocol_version: '0.1' },
    });
    const third = await http(srv.base, 'POST', `/v1/tables/${id}/join`, {
      token: await agent('c'),
      body: { client_protocol_version: '0.1' },
    });
    expect(third.status).toBe(409);
    const skill = await http(srv.base, 'GET', '/v1/tables/skill.md');
    expect(skill.text).toMatch(/Store the api_key/);
    expect(skill.text).toMatch(/check if free, else fold/);
    const pj = await http(srv.base, 'GET', '/v1/tables/protocol.json');
    expect(Object.keys(pj.body.ws.server)).toContain('PokerGameState');
    expect(pj.body.ws.client.PokerActionMessage.properties.payload.required).toContain('turn_token');
  });

  it('welcome, game_state with only your own hole cards, turn_token only for the seat to act; acks, errors, duplicates', async () => {
    const id = await table();
    const a = await seated(id, 'alice');
    const b = await seated(id, 'bob');
    const welcome = await a.ws.next((m) => m.type === 'welcome');
    expect(payload(welcome)).toMatchObject({ seat_id: 0, action_timeout_ms: 8000, protocol_version: '0.1' });
    const observer = await WsClient.open(`${srv.base.replace('http', 'ws')}/v1/poker/ws?table_id=${id}`);
    clients.push(observer);
    const dealt = (c: WsClient) => c.next((m) => isState(m) && payload(m).status === 'playing');
    const [ga, gb, go] = await Promise.all([dealt(a.ws), dealt(b.ws), dealt(observer)]);
    for (const m of [ga, gb, go]) {
      expect(PokerServerMessageSchema.safeParse(m).success).toBe(true);
      expect(GameStatePayloadSchema.safeParse(m.payload).success).toBe(true);
    }
    const [pa, pb, po] = [payload(ga), payload(gb), payload(go)];
    expect(pa.your_hole).toHaveLength(2);
    expect(pb.your_hole).toHaveLength(2);
    expect(po.your_hole).toBeUndefined();
    expect(JSON.stringify(pa)).not.toContain(`"${pb.your_hole[0]}"`);
    expect(JSON.stringify(po)).not.toContain(`"${pa.your_hole[0]}"`);
    // Heads-up: seat 0 is the first button, posts the small blind and acts first.
    expect(pa).toMatchObject({ to_act: 0, amount_to_call: 5, min_raise_to: 20, max_raise_to: 500 });
    expect(pa.turn_token).toEqual(expect.any(String));
    expect(pb.turn_token).toBeUndefined();
    expect(po.turn_token).toBeUndefined();
    expect(pa.deck_commitment).toMatch(/^[0-9a-f]{64}$/);

    const act = (c: WsClient, id: string, p: Record<string, unknown>) => {
      const from = c.received.length;
      c.send({ type: 'action', id, payload: p });
      return c.next((m) => (m.type === 'ack' || m.type === 'error') && m.id === id, from);
    };
    const tt = pa.turn_token as string;
    expect(payload(await act(b.ws, 'x1', { turn_token: tt, seat_id: 0, kind: 'call' }))).toMatchObject({
      code: 'SEAT_NOT_HELD',
    });
    expect(payload(await act(a.ws, 'x2', { turn_token: tt, seat_id: 0, kind: 'check' }))).toMatchObject({
      code: 'CANNOT_CHECK',
    });
    expect(
      payload(await act(a.ws, 'x3', { turn_token: tt, seat_id: 0, kind: 'call', expected_seq: 1 })),
    ).toMatchObject({
      code: 'STALE_SEQ',
    });
    expect(payload(await act(a.ws, 'x4', { turn_token: tt, seat_id: 0, kind: 'raiseTo' }))).toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    const ack = await act(a.ws, 'x5', { turn_token: tt, seat_id: 0, kind: 'call', expected_seq: ga.seq });
    expect(ack.type).toBe('ack');
    expect(payload(ack)).toMatchObject({ duplicate: false, turn_token: tt });
    const dup = await act(a.ws, 'x6', { turn_token: tt, seat_id: 0, kind: 'call' });
    expect(payload(dup)).toMatchObject({ seq: payload(ack).seq, duplicate: true });
    const other = await act(a.ws, 'x7', { turn_token: tt, seat_id: 0, kind: 'fold' });
    expect(payload(other).code).toBe('IDEMPOTENCY_KEY_REUSED');

    // Play the hand out by checking; both get hand_complete with a deck that opens the commitment.
    const play = async (c: WsClient, seat: number) => {
      let i = 0;
      for (;;) {
        const m = await c.next(
          (x) => x.type === 'hand_complete' || (isState(x) && payload(x).turn_token !== undefined),
          i,
        );
        i = c.received.indexOf(m) + 1;
        if (m.type === 'hand_complete') return m;
        const g = payload(m);
        if (g.turn_token === tt) continue; // answered above
        const kind = g.legal_actions.some((l: { kind: string }) => l.kind === 'check') ? 'check' : 'call';
        await act(c, `p${m.seq}`, { turn_token: g.turn_token, seat_id: seat, kind, expected_seq: m.seq });
      }
    };
    const [ha] = await Promise.all([play(a.ws, 0), play(b.ws, 1)]);
    const h = HandCompletePayloadSchema.parse(ha.payload);
    expect(h.hand_number).toBe(1);
    expect(h.deck_commitment).toBe(pa.deck_commitment);
    expect(verifyDeckCommitment(h.deck_commitment, h.deck, h.salt)).toBe(true);
    expect(hashCanonical({ deck: h.deck, salt: h.salt })).toBe(pa.deck_commitment);
    expect(h.end_stacks.reduce((x, y) => x + y, 0)).toBe(1000);
    // The next hand starts by itself, with the button moved to seat 1.
    const next = await a.ws.next(
      (m) => isState(m) && payload(m).hand_number === 2 && payload(m).status === 'playing',
    );
    expect(payload(next).button).toBe(1);
  });

  it('compact format, hello with an outdated version, ping, and a bad token', async () => {
    const id = await table();
    const a = await seated(id, 'compact-a');
    const wsBase = `${srv.base.replace('http', 'ws')}/v1/poker/ws`;
    const c = await WsClient.open(`${wsBase}?token=${a.join.session_token}&format=compact`);
    clients.push(c);
    expect(payload(await c.next((m) => m.type === 'welcome'))).toMatchObject({
      format: 'compact',
      seat_id: 0,
    });
    const gs = await c.next(isState);
    expect(CompactStateSchema.safeParse(gs.payload).success).toBe(true);
    expect(payload(gs)).toMatchObject({ me: 0, st: 'waiting', h: 0 });
    c.send({ type: 'ping', id: 'p1' });
    expect((await c.next((m) => m.type === 'pong')).id).toBe('p1');
    c.send({ type: 'hello', id: 'h1', payload: { client_protocol_version: '0.0.9' } });
    const err = await c.next((m) => m.type === 'error' && m.id === 'h1');
    expect(payload(err)).toMatchObject({
      code: 'OUTDATED_CLIENT',
      details: { min_supported_protocol_version: '0.1' },
    });
    const bad = await WsClient.open(`${wsBase}?token=not-a-token`);
    clients.push(bad);
    expect(payload(await bad.next((m) => m.type === 'error')).code).toBe('INVALID_TOKEN');
    const old = await WsClient.open(`${wsBase}?token=${a.join.session_token}&client_protocol_version=0.0.1`);
    clients.push(old);
    expect(payload(await old.next((m) => m.type === 'error')).code).toBe('OUTDATED_CLIENT');
  });

  it('times out a silent seat (check if free, else fold) on the server clock', async () => {
    const id = await table({ action_timeout_ms: 200, max_consecutive_timeouts: null });
    const a = await seated(id, 'sleepy-a');
    await seated(id, 'sleepy-b');
    const m = await a.ws.next((x) => isState(x) && payload(x).last_action?.auto === true);
    expect(payload(m).last_action).toMatchObject({ seat_id: 0, kind: 'fold', auto: true });
    const done = await a.ws.next((x) => x.type === 'hand_complete');
    expect(payload(done).net).toEqual([5, -5]); // engine order: big blind (seat 1) first, then the button
  });

  it('an agent leaves over REST, the admin kicks, and a table whose agents have all gone stops itself', async () => {
    // Long action timeout: nothing here may wait for one (a leaving seat is folded at its turn).
    const id = await table({ action_timeout_ms: 600_000, idle_stop_ms: 1000 });
    const a = await seated(id, 'leave-a');
    const b = await seated(id, 'leave-b');
    await a.ws.next((x) => isState(x) && payload(x).hand_number >= 1);
    const stranger = await agent('leave-stranger');
    const none = await http(srv.base, 'POST', `/v1/tables/${id}/leave`, { token: stranger });
    expect(none.status, none.text).toBe(404);
    expect(none.body.error.code).toBe('NOT_SEATED');
    const left = await http(srv.base, 'POST', `/v1/tables/${id}/leave`, { token: a.apiKey });
    expect(left.status, left.text).toBe(200);
    expect(left.body.seat_id).toBe(a.seat);
    const notAdmin = await http(srv.base, 'POST', `/v1/admin/tables/${id}/kick`, {
      token: b.apiKey,
      body: { seat_id: b.seat },
    });
    expect(notAdmin.status).toBe(403);
    const bad = await http(srv.base, 'POST', `/v1/admin/tables/${id}/kick`, {
      token: srv.admin,
      body: { seat_id: 'x' },
    });
    expect(bad.status).toBe(400);
    const kick = await http(srv.base, 'POST', `/v1/admin/tables/${id}/kick`, {
      token: srv.admin,
      body: { seat_id: b.seat },
    });
    expect(kick.status, kick.text).toBe(200);
    // Both gone: the hand ends by folds, and a second later the table stops by itself.
    await b.ws.next((x) => isState(x) && payload(x).status === 'stopped');
    const list = await http(srv.base, 'GET', '/v1/tables');
    expect(list.body.tables.find((t: { table_id: string }) => t.table_id === id).status).toBe('ended');
    const state = await srv.runtime.stateFor(id, { kind: 'admin' });
    expect(state.view).toMatchObject({ status: 'stopped', stopReason: 'idle' });
  });

  it('admin: top-up, agents, events, stop, JSONL and PHH export that replay', async () => {
    const id = await table({ action_timeout_ms: 100, max_consecutive_timeouts: null, hand_interval_ms: 1 });
    const a = await seated(id, 'adm-a');
    await seated(id, 'adm-b');
    await a.ws.next((x) => x.type === 'hand_complete');
    await a.ws.next((x) => x.type === 'hand_complete' && payload(x).hand_number >= 3);
    const top = await http(srv.base, 'POST', `/v1/admin/tables/${id}/top-up`, {
      token: srv.admin,
      body: { seat_id: 1, amount: 250 },
    });
    expect(top.status, top.text).toBe(200);
    const agents = await http(srv.base, 'GET', '/v1/admin/agents', { token: srv.admin });
    const row = agents.body.agents.find((x: { name: string }) => x.name === 'adm-a');
    expect(row).toMatchObject({ connected: true, seats: [{ table_id: id, seat_id: 0 }] });
    expect(row.last_seen_at).toEqual(expect.any(String));
    const ev = await http(srv.base, 'GET', `/v1/admin/tables/${id}/events?fromSeq=0&limit=5`, {
      token: srv.admin,
    });
    expect(ev.body.events.map((e: { seq: number }) => e.seq)).toEqual([0, 1, 2, 3, 4]);
    expect(ev.body.next_seq).toBe(5);
    const noAdmin = await http(srv.base, 'GET', `/v1/admin/tables/${id}/events`);
    expect(noAdmin.status).toBe(401);
    const stop = await http(srv.base, 'POST', `/v1/admin/tables/${id}/stop`, { token: srv.admin });
    expect(stop.body.table.status).toBe('ended');
    await a.ws.next((x) => isState(x) && payload(x).status === 'stopped');
    // Results count ended tables only: read while it ran (0 tables above), now both seats' chips,
    // which sum to zero; a second read (the ended table's results are kept) says the same.
    expect(row.results).toEqual({ tables: 0, hands: 0, net: 0 });
    for (let read = 0; read < 2; read++) {
      const after = (await http(srv.base, 'GET', '/v1/admin/agents', { token: srv.admin })).body.agents;
      const [ra, rb] = ['adm-a', 'adm-b'].map(
        (n) => after.find((x: { name: string }) => x.name === n).results,
      );
      expect(ra.tables).toBe(1);
      expect(rb.tables).toBe(1);
      expect(ra.hands).toBeGreaterThanOrEqual(3);
      expect(ra.net + rb.net).toBe(0);
    }

    const jsonl = await http(srv.base, 'GET', `/v1/admin/tables/${id}/export`, { token: srv.admin });
    const lines = jsonl.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ type: 'table', table_id: id });
    const replay = lines.at(-1);
    expect(replay).toMatchObject({ type: 'replay', ok: true, problems: [] });
    const hands = lines.filter((l) => l.type === 'hand');
    expect(hands.length).toBeGreaterThanOrEqual(3);
    expect(lines.some((l) => l.type === 'entry' && l.entry.kind === 'close')).toBe(true);
    const phh = await http(srv.base, 'GET', `/v1/admin/tables/${id}/export?format=phh`, { token: srv.admin });
    const parsed = parsePhhs(phh.text);
    const played = hands.filter((l) => !l.hand.cancelled);
    expect(parsed.length).toBe(played.length);
    parsed.forEach((p, i) => {
      expect(replayPhh(p).state.stacks).toEqual(played[i].hand.endStacks);
    });
  });
});
