// The test homeserver (support/matrix-homeserver.ts) checked with a reference client: matrix-js-sdk
// logs in, joins by alias, syncs (filter, long poll), receives a sent message, sees a txnId resend
// come back as the same event, retries a rate-limited send after retry_after_ms, sees a redaction;
// and the errors have the spec's shapes. If the double drifted from what a real client expects,
// the SDK's sync would stall or its promises would reject here.
import { createClient, type MatrixClient, type MatrixEvent, type Room } from 'matrix-js-sdk';
import { logger } from 'matrix-js-sdk/lib/logger.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATIENCE_MS } from '../../../../../test/patience.ts';
import { TestHomeserver } from './support/matrix-homeserver.ts';

// The SDK's logger is a loglevel logger at runtime; its type hides the level switch.
(logger as unknown as { disableAll(): void }).disableAll();

let hs: TestHomeserver;
let alice: MatrixClient;
let bot: MatrixClient;
let aliceId: string;

beforeAll(async () => {
  hs = new TestHomeserver();
  const url = await hs.start();
  aliceId = hs.addUser('alice', 'alice-pw');
  const botId = hs.addUser('bot', 'bot-pw', 'bot-token', 'BOTDEV');
  const anon = createClient({ baseUrl: url });
  const login = await anon.loginRequest({
    type: 'm.login.password',
    identifier: { type: 'm.id.user', user: 'alice' },
    password: 'alice-pw',
  });
  expect(login.user_id).toBe(aliceId);
  alice = createClient({
    baseUrl: url,
    accessToken: login.access_token,
    userId: aliceId,
    deviceId: login.device_id,
  });
  bot = createClient({ baseUrl: url, accessToken: 'bot-token', userId: botId, deviceId: 'BOTDEV' });
});

afterAll(async () => {
  alice?.stopClient();
  bot?.stopClient();
  await hs?.stop();
});

function nextMessage(room: Room, pred: (e: MatrixEvent) => boolean): Promise<MatrixEvent> {
  const seen = room.getLiveTimeline().getEvents().find(pred);
  if (seen) return Promise.resolve(seen);
  return new Promise((ok) => {
    const on = (e: MatrixEvent) => {
      if (e.getRoomId() === room.roomId && pred(e)) {
        alice.off('Room.timeline' as never, on as never);
        ok(e);
      }
    };
    alice.on('Room.timeline' as never, on as never);
  });
}

describe('test homeserver against matrix-js-sdk 37.5', () => {
  it('errors have the spec shapes: wrong password M_FORBIDDEN, unknown token M_UNKNOWN_TOKEN, unknown alias M_NOT_FOUND', async () => {
    const anon = createClient({ baseUrl: hs.url });
    await expect(anon.loginWithPassword('@alice:db8.test', 'wrong')).rejects.toMatchObject({
      errcode: 'M_FORBIDDEN',
      httpStatus: 403,
    });
    const bad = createClient({ baseUrl: hs.url, accessToken: 'nope', userId: aliceId });
    await expect(bad.whoami()).rejects.toMatchObject({ errcode: 'M_UNKNOWN_TOKEN', httpStatus: 401 });
    await expect(alice.getRoomIdForAlias('#missing:db8.test')).rejects.toMatchObject({
      errcode: 'M_NOT_FOUND',
      httpStatus: 404,
    });
    expect((await alice.whoami()).user_id).toBe(aliceId);
  });

  it('login, join by alias, sync receives a message; a txnId resend is the same event; a redaction arrives', async () => {
    const { room_id } = await bot.createRoom({
      room_alias_name: 'q1',
      name: 'question one',
      preset: 'public_chat' as never,
    });
    await expect(bot.createRoom({ room_alias_name: 'q1' })).rejects.toMatchObject({
      errcode: 'M_ROOM_IN_USE',
    });
    await alice.startClient({ initialSyncLimit: 20 });
    const joined = await alice.joinRoom('#q1:db8.test');
    expect(joined.roomId).toBe(room_id);
    const room = await waitRoom(room_id);

    const content = { msgtype: 'm.text', body: 'first answer', 'db8.swarm': { seq: 3 } };
    const sent = await bot.sendEvent(room_id, 'm.room.message' as never, content as never, 'txn-1');
    const again = await bot.sendEvent(room_id, 'm.room.message' as never, content as never, 'txn-1');
    expect(again.event_id).toBe(sent.event_id);
    const got = await nextMessage(room, (e) => e.getId() === sent.event_id);
    expect(got.getContent().body).toBe('first answer');
    expect(got.getSender()).toBe('@bot:db8.test');
    expect(hs.timeline(room_id).filter((e) => e.content.body === 'first answer')).toHaveLength(1);

    // The SDK's own send path: it retries a 429 after retry_after_ms.
    hs.inject({ method: 'PUT', path: /\/send\//, kind: { limit: 150 }, times: 1 });
    const t0 = Date.now();
    const mine = await alice.sendTextMessage(room_id, 'from alice');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    const sends = hs.requests.filter((r) => r.method === 'PUT' && r.path.includes('/send/'));
    expect(sends.at(-2)).toMatchObject({ status: 429, errcode: 'M_LIMIT_EXCEEDED' });
    expect(sends.at(-1)).toMatchObject({ status: 200 });
    await nextMessage(room, (e) => e.getId() === mine.event_id && e.getContent().body === 'from alice');

    await bot.redactEvent(room_id, sent.event_id, 'redact-1', { reason: 'test' });
    const redacted = await until(() => {
      const e = room.findEventById(sent.event_id);
      return e?.isRedacted() ? e : null;
    });
    expect(redacted.getContent()).toEqual({});
  });

  it('a filtered sync returns only the rooms, types and senders asked for; a long poll waits for the next event', async () => {
    const { room_id: other } = await bot.createRoom({
      room_alias_name: 'q2',
      preset: 'public_chat' as never,
    });
    const target = hs.roomIdOf('#q1:db8.test') as string;
    const { filter_id } = (await bot.http.authedRequest(
      'POST' as never,
      '/user/@bot:db8.test/filter',
      undefined,
      {
        room: {
          rooms: [target],
          timeline: { types: ['m.room.message'], senders: ['@alice:db8.test'], limit: 5 },
        },
      },
    )) as { filter_id: string };
    const sync = (q: Record<string, string>) =>
      bot.http.authedRequest('GET' as never, '/sync', { filter: filter_id, ...q }) as Promise<{
        next_batch: string;
        rooms: { join: Record<string, { timeline: { events: Array<{ sender: string; type: string }> } }> };
      }>;
    const first = await sync({});
    expect(Object.keys(first.rooms.join)).toEqual([target]);
    const evs = first.rooms.join[target]?.timeline.events ?? [];
    expect(evs.length).toBeGreaterThan(0);
    expect(evs.every((e) => e.sender === '@alice:db8.test' && e.type === 'm.room.message')).toBe(true);

    const t0 = Date.now();
    // The long poll's own limit (the most the test homeserver holds one) is far above the 200 ms
    // the message comes after: it answers with the message, however busy the machine.
    const waiting = sync({ since: first.next_batch, timeout: '30000' });
    await new Promise((r) => setTimeout(r, 200));
    await bot.sendTextMessage(other, 'not in the filter');
    await alice.sendTextMessage(target, 'late');
    const next = await waiting;
    expect(Date.now() - t0).toBeGreaterThanOrEqual(190);
    expect(Object.keys(next.rooms.join)).toEqual([target]);
    expect(next.rooms.join[target]?.timeline.events.map((e) => e.type)).toEqual(['m.room.message']);
    const empty = await sync({ since: next.next_batch, timeout: '100' });
    expect(empty.rooms.join).toEqual({});
  });
});

async function waitRoom(id: string): Promise<Room> {
  return until(() => alice.getRoom(id));
}

async function until<T>(fn: () => T | null | undefined, ms = PATIENCE_MS): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}
