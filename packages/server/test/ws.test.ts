import { Db8Client, Db8Error, type Db8Socket, type ServerMessage } from '@db8/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PATIENCE_MS } from '../../../test/patience.ts';
import type { Store } from '../src/store/index.ts';
import { type Harness, LossyBus, listen, makeApp, sharedStore } from './app-harness.ts';
import { auctionWithBidders } from './routes-fixtures.ts';

let store: Store;
let h: Harness;
let base: string;
const sockets: Db8Socket[] = [];
beforeAll(async () => {
  store = await sharedStore();
});
afterEach(async () => {
  for (const s of sockets.splice(0)) s.close();
  await h?.close();
});
afterAll(async () => {
  await store.close();
});

async function open(token?: string | null, version?: string) {
  const s = await new Db8Client({ baseUrl: base, token: token ?? null }).socket({
    timeoutMs: PATIENCE_MS,
    ...(version ? { clientProtocolVersion: version } : {}),
  });
  sockets.push(s);
  return s;
}

const entrySeqs = (s: Db8Socket, room: string) =>
  s.received.filter((m) => m.type === 'entry' && m.room_id === room).map((m) => m.seq);

async function bid(token: string, roomId: string, seat: string, amount: number) {
  return new Db8Client({ baseUrl: base, token }).act(roomId, { seat, action: { type: 'bid', amount } });
}

describe('WebSocket /v1/ws', () => {
  it('hello -> welcome; an outdated client gets OUTDATED_CLIENT and is closed', async () => {
    h = await makeApp({ store });
    base = await listen(h);
    const s = await open();
    expect(s.welcome).toMatchObject({
      protocol_version: '0.1',
      min_supported_protocol_version: '0.1',
      skill_doc_url: expect.stringMatching(/skill\.md$/),
      principal: null,
    });
    await s.ping();
    const err = await open(null, '0.0.1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Db8Error);
    expect(err).toMatchObject({
      code: 'OUTDATED_CLIENT',
      details: { min_supported_protocol_version: '0.1', skill_doc_url: expect.any(String) },
    });
  });

  it('requires hello first, survives garbage, and answers with ids', async () => {
    h = await makeApp({ store });
    base = await listen(h);
    const wsModule = 'ws'; // no @types/ws: typed below by the little we use
    const { WebSocket } = (await import(wsModule)) as {
      WebSocket: new (
        u: string,
      ) => {
        on(e: string, f: (d: unknown) => void): void;
        send(d: string): void;
        close(): void;
      };
    };
    const raw = new WebSocket(`${base.replace('http', 'ws')}/v1/ws`);
    const got: Array<Record<string, unknown>> = [];
    await new Promise<void>((r) => raw.on('open', () => r()));
    raw.on('message', (d) => got.push(JSON.parse(String(d))));
    raw.send(JSON.stringify({ type: 'subscribe', id: 'a', payload: { room_id: 'x' } }));
    raw.send('not json');
    raw.send(JSON.stringify({ type: 'launch', id: 'b', payload: {} }));
    raw.send(JSON.stringify({ type: 'ping', id: 'c' }));
    // The four answers, however long a busy machine takes to send them (PATIENCE_MS against a hang).
    for (const end = Date.now() + PATIENCE_MS; got.length < 4 && Date.now() < end; )
      await new Promise((r) => setTimeout(r, 10));
    raw.close();
    expect(got.map((m) => [m.type, m.id, (m.payload as { code?: string }).code])).toEqual([
      ['error', 'a', 'HELLO_REQUIRED'],
      ['error', undefined, 'INVALID_JSON'],
      ['error', 'b', 'VALIDATION_FAILED'],
      ['pong', 'c', undefined],
    ]);
    for (const m of got)
      expect(Object.keys(m)).toEqual(expect.arrayContaining(['type', 'room_id', 'seq', 'ts']));
  });

  it('an invalid ?token is refused and the socket closed', async () => {
    h = await makeApp({ store });
    base = await listen(h);
    const err = await open('nope').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Db8Error);
  });

  it('subscribe since -1 replays the log in order, then state; live entries follow, redacted per viewer', async () => {
    h = await makeApp({ store });
    base = await listen(h);
    const { roomId, seats } = await auctionWithBidders(h);
    const head = (await new Db8Client({ baseUrl: base }).getRoom(roomId)).seq;
    const obs = await open();
    const me = await open(seats.bidder_1.token);
    const sub = await obs.subscribe(roomId, { since: -1 });
    expect(sub).toMatchObject({ room_id: roomId, head_seq: head, viewer: { kind: 'observer' } });
    await me.subscribe(roomId, { since: head });
    await obs.waitFor('state');
    expect(entrySeqs(obs, roomId)).toEqual(Array.from({ length: head + 1 }, (_, i) => i));
    // the first state comes after the backlog
    const firstState = obs.received.findIndex((m) => m.type === 'state');
    expect(obs.received.slice(firstState).some((m) => m.type === 'entry')).toBe(false);

    const ack = await bid(seats.bidder_1.token, roomId, 'bidder_1', 33);
    const seen = await obs.waitFor('entry', (m) => m.seq === ack.seq);
    const mine = await me.waitFor('entry', (m) => m.seq === ack.seq);
    expect(seen.payload.entry.sealed).toBeUndefined();
    expect(seen.payload.entry.commit).toMatch(/^[0-9a-f]{64}$/);
    expect(mine.payload.entry.sealed?.payload).toMatchObject({ amount: 33 });
    const st = await me.waitFor('state', (m) => m.seq >= ack.seq);
    expect(st.payload.viewer).toEqual({ kind: 'seat', seat: 'bidder_1' });
    expect(JSON.stringify(st.payload.view)).toContain('33');
    const obsState = await obs.waitFor('state', (m) => m.seq >= ack.seq);
    expect(JSON.stringify(obsState.payload.view)).not.toContain('33');
    expect(obs.invalid).toBe(0);
  });

  it('subscribe with state: false follows entries only; a bad state flag is a validation error', async () => {
    h = await makeApp({ store });
    base = await listen(h);
    const { roomId, seats } = await auctionWithBidders(h);
    const head = (await new Db8Client({ baseUrl: base }).getRoom(roomId)).seq;
    const follower = await open();
    const watcher = await open();
    await follower.subscribe(roomId, { since: -1, state: false });
    await watcher.subscribe(roomId, { since: head });
    const ack = await bid(seats.bidder_1.token, roomId, 'bidder_1', 34);
    await follower.waitFor('entry', (m) => m.seq === ack.seq);
    await watcher.waitFor('state', (m) => m.seq >= ack.seq);
    expect(entrySeqs(follower, roomId)).toEqual(Array.from({ length: ack.seq + 1 }, (_, i) => i));
    expect(follower.received.some((m) => m.type === 'state')).toBe(false);
    const bad = await follower
      .request('subscribe', { room_id: roomId, state: 'no' } as never)
      .catch((e: Db8Error) => e);
    expect(bad).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('a socket whose token has expired acts no more (TOKEN_EXPIRED), nothing written', async () => {
    h = await makeApp({ store });
    base = await listen(h);
    const { roomId, seats } = await auctionWithBidders(h);
    const s = await open(seats.bidder_2.token);
    const sub = await s.subscribe(roomId);
    const ok = await s.act(roomId, {
      seat: 'bidder_2',
      action: { type: 'bid', amount: 12 },
      client_nonce: 'e1',
    });
    expect(ok.seq).toBe(sub.head_seq + 1);
    // The seat token lives sessionTtlSec (an hour by default): step past it; the socket stays open.
    h.clock.advance(3600 * 1000 + 1000);
    const late = await s
      .act(roomId, { seat: 'bidder_2', action: { type: 'bid', amount: 14 }, client_nonce: 'e2' })
      .catch((e: Db8Error) => e);
    expect(late).toMatchObject({ code: 'TOKEN_EXPIRED' });
    expect((await h.runtime.getRoom(roomId)).seq).toBe(ok.seq);
  });

  it('acts over the socket: ack, STALE_SEQ, SEAT_NOT_HELD, and idempotent retries', async () => {
    h = await makeApp({ store });
    base = await listen(h);
    const { roomId, seats } = await auctionWithBidders(h);
    const s = await open(seats.bidder_2.token);
    const sub = await s.subscribe(roomId);
    const body = {
      seat: 'bidder_2',
      action: { type: 'bid', amount: 12 },
      client_nonce: 'k1',
      expected_seq: sub.head_seq,
    };
    const a1 = await s.act(roomId, body);
    const a2 = await s.act(roomId, body);
    expect(a1).toMatchObject({ room_id: roomId, seq: sub.head_seq + 1, duplicate: false });
    expect(a2).toEqual({ ...a1, duplicate: true });
    const stale = await s
      .act(roomId, { seat: 'bidder_2', action: { type: 'bid', amount: 13 }, expected_seq: sub.head_seq })
      .catch((e: Db8Error) => e);
    expect(stale).toMatchObject({ code: 'STALE_SEQ' });
    const other = await s
      .act(roomId, { seat: 'bidder_1', action: { type: 'bid', amount: 13 } })
      .catch((e: Db8Error) => e);
    expect(other).toMatchObject({ code: 'SEAT_NOT_HELD' });
    const anon = await open();
    const refused = await anon
      .act(roomId, { seat: 'bidder_1', action: { type: 'bid', amount: 13 } })
      .catch((e: Db8Error) => e);
    expect(refused).toMatchObject({ code: 'UNAUTHORIZED' });
    // the acting socket also sees its entry pushed
    await s.waitFor('entry', (m) => m.seq === a1.seq);
  });

  it('resumes from since with no gaps or duplicates, even when the bus loses messages', async () => {
    // Drop every bus message whose seq is odd: feeds must fill from the store.
    h = await makeApp({ store, bus: new LossyBus((seq) => seq % 2 === 1), feedPollMs: 100 });
    base = await listen(h);
    const { roomId, seats } = await auctionWithBidders(h);
    const s = await open(seats.bidder_1.token);
    const sub = await s.subscribe(roomId);
    const acks = [];
    for (let i = 0; i < 7; i++) acks.push(await bid(seats.bidder_1.token, roomId, 'bidder_1', 20 + i));
    const last = acks.at(-1)!.seq;
    await s.waitFor('entry', (m) => m.seq === last);
    expect(entrySeqs(s, roomId)).toEqual(
      Array.from({ length: last - sub.head_seq }, (_, i) => sub.head_seq + 1 + i),
    );
    expect((h.bus as LossyBus).dropped).toBeGreaterThan(0);

    // reconnect and resume from the middle
    s.close();
    const mid = acks[2]!.seq;
    const again = await open(seats.bidder_1.token);
    await again.subscribe(roomId, { since: mid });
    await again.waitFor('state');
    expect(entrySeqs(again, roomId)).toEqual(Array.from({ length: last - mid }, (_, i) => mid + 1 + i));
  });

  it('a bus that delivers nothing is backed up by the store poll', async () => {
    h = await makeApp({ store, bus: new LossyBus(() => true), feedPollMs: 100 });
    base = await listen(h);
    const { roomId, seats } = await auctionWithBidders(h);
    const s = await open();
    await s.subscribe(roomId);
    const ack = await bid(seats.bidder_2.token, roomId, 'bidder_2', 99);
    const m: ServerMessage = await s.waitFor('entry', (x) => x.seq === ack.seq);
    expect(m.room_id).toBe(roomId);
  });

  it('unknown rooms are errors on the subscription, not on the socket', async () => {
    h = await makeApp({ store });
    base = await listen(h);
    const s = await open();
    const err = await s.subscribe('room_missing').catch((e: Db8Error) => e);
    expect(err).toMatchObject({ code: 'ROOM_NOT_FOUND' });
    await s.ping();
  });
});
