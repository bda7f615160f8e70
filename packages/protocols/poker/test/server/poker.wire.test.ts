import { openStore, type Store } from '@db8/server/src/store/index.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { http, type PokerServer, startPokerServer, WsClient } from './poker-harness.ts';

/**
 * Poker's seed-002 socket is a codec on the generic realtime stack: a poker client and a db8
 * `/v1/ws` client watching one table are fed by the same room channel, so they see the same states.
 */

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

// biome-ignore lint/suspicious/noExplicitAny: message payloads are read freely here; schemas are tested in poker.test.ts.
type Msg = { type: string; seq: number; payload: any };

async function open(url: string): Promise<WsClient> {
  const c = await WsClient.open(url);
  clients.push(c);
  return c;
}

async function seat(tableId: string, name: string): Promise<void> {
  const key = await http(srv.base, 'POST', '/v1/agents', { body: { name } });
  const j = await http(srv.base, 'POST', `/v1/tables/${tableId}/join`, {
    token: key.body.api_key,
    body: { client_protocol_version: '0.1' },
  });
  expect(j.status, j.text).toBe(200);
}

describe('one realtime stack: poker codec and /v1/ws on one channel', () => {
  it('a poker client and a generic client watching one table see the same state seqs', async () => {
    const created = await http(srv.base, 'POST', '/v1/tables', {
      token: srv.admin,
      body: {
        seats: 2,
        small_blind: 5,
        big_blind: 10,
        starting_stack: 500,
        hand_interval_ms: 1,
        action_timeout_ms: 100,
        max_consecutive_timeouts: null,
        max_hands: 2,
      },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.table_id as string;
    const wsBase = srv.base.replace('http', 'ws');

    const poker = await open(`${wsBase}/v1/poker/ws?table_id=${id}`);
    const generic = await open(`${wsBase}/v1/ws`);
    generic.send({ type: 'hello', id: 'h', payload: { client_protocol_version: '0.1' } });
    await generic.next((m) => m.type === 'welcome');
    generic.send({ type: 'subscribe', id: 's', payload: { room_id: id } });
    // Both are live on the table before anything happens: what follows reaches both the same way.
    const p0 = (await poker.next((m) => m.type === 'game_state')) as Msg;
    const g0 = (await generic.next((m) => (m.type as string) === 'state')) as unknown as Msg;
    expect(p0.seq).toBe(g0.seq);

    await seat(id, 'same-a');
    await seat(id, 'same-b');
    // Silent seats time out (check if free, else fold) until max_hands; the table then stops.
    const stopped = (m: { type: string; payload: unknown }) =>
      (m.type === 'game_state' && (m.payload as { status?: string }).status === 'stopped') ||
      ((m.type as string) === 'state' &&
        (m.payload as { view?: { status?: string } }).view?.status === 'stopped');
    const last = (await poker.next(stopped)) as Msg;
    await generic.next((m) => stopped(m) && m.seq >= last.seq);

    const seqs = (c: WsClient, type: string) =>
      (c.received as unknown as Msg[]).filter((m) => m.type === type && m.seq <= last.seq).map((m) => m.seq);
    const pokerSeqs = seqs(poker, 'game_state');
    expect(pokerSeqs.length).toBeGreaterThan(5);
    expect(seqs(generic, 'state')).toEqual(pokerSeqs);
    // Same states, two wire forms: the deadline the generic state carries is game_state's.
    const byseq = new Map(
      (generic.received as unknown as Msg[]).filter((m) => m.type === 'state').map((m) => [m.seq, m]),
    );
    for (const m of (poker.received as unknown as Msg[]).filter((x) => x.type === 'game_state')) {
      expect(m.payload.deadline_ms).toBe(byseq.get(m.seq)?.payload.deadline_ms);
    }
    // The generic client also got every entry in between; the poker client got the hands' ends.
    const entries = (generic.received as unknown as Msg[])
      .filter((m) => m.type === 'entry')
      .map((m) => m.seq);
    expect(entries).toEqual(Array.from({ length: entries.length }, (_, i) => g0.seq + 1 + i));
    expect(poker.received.filter((m) => m.type === 'hand_complete').length).toBe(2);
  });
});

describe('the connection rate limit never starves a seat on its own turn', () => {
  it('over the bucket, pings are refused with their id and a retry-after; the turn answer is acked', async () => {
    const created = await http(srv.base, 'POST', '/v1/tables', {
      token: srv.admin,
      body: {
        seats: 2,
        small_blind: 5,
        big_blind: 10,
        starting_stack: 500,
        hand_interval_ms: 1,
        action_timeout_ms: 30_000,
        max_consecutive_timeouts: null,
        max_hands: 1,
      },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.table_id as string;
    const joins: Array<{ seat_id: number; session_token: string }> = [];
    for (const name of ['flood-a', 'flood-b']) {
      const key = await http(srv.base, 'POST', '/v1/agents', { body: { name } });
      const j = await http(srv.base, 'POST', `/v1/tables/${id}/join`, {
        token: key.body.api_key,
        body: { client_protocol_version: '0.1' },
      });
      expect(j.status, j.text).toBe(200);
      joins.push(j.body as { seat_id: number; session_token: string });
    }
    const socks = await Promise.all(
      joins.map((j) => open(`${srv.base.replace('http', 'ws')}/v1/poker/ws?token=${j.session_token}`)),
    );
    // Whoever is to act: wait for its turn offer.
    const offers = await Promise.race(
      socks.map(async (c, i) => {
        const gs = (await c.next(
          (m) => m.type === 'game_state' && (m.payload as { to_act?: number }).to_act === joins[i]!.seat_id,
        )) as Msg;
        return { c, i, gs };
      }),
    );
    const { c, i, gs } = offers;
    expect(gs.payload.turn_token).toBeTruthy();
    // Far more than the burst, in one go: the bucket is empty when the action arrives.
    for (let k = 0; k < 300; k++) c.send({ type: 'ping', id: `p${k}`, payload: {} });
    c.send({
      type: 'action',
      id: 'turn',
      payload: {
        turn_token: gs.payload.turn_token,
        seat_id: joins[i]!.seat_id,
        kind: gs.payload.legal_actions.some((a: { kind: string }) => a.kind === 'check') ? 'check' : 'call',
        expected_seq: gs.seq,
      },
    });
    const reply = (await c.next((m) => (m as { id?: string }).id === 'turn')) as Msg;
    expect(reply.type).toBe('ack');
    const limited = c.received.filter(
      (m) => m.type === 'error' && (m.payload as { code?: string }).code === 'RATE_LIMITED',
    ) as unknown as Array<Msg & { id?: string }>;
    expect(limited.length).toBeGreaterThan(0);
    for (const m of limited) {
      expect(m.id).toMatch(/^p\d+$/);
      expect(m.payload.details.retry_after_ms).toBeGreaterThan(0);
    }
  });
});
