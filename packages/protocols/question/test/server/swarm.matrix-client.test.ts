// The bridge's Matrix client against the test homeserver: login as a fixed device, network errors
// retried with the same txnId (one event), a refusal final at once, a bad token refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MatrixClient } from '../../server/bridges/matrix-client.ts';
import { TestHomeserver } from './support/matrix-homeserver.ts';

let hs: TestHomeserver;
const retry = { baseMs: 20, maxMs: 200, attempts: 5 };

beforeAll(async () => {
  hs = new TestHomeserver();
  await hs.start();
  hs.addUser('bot', 'pw');
  hs.addUser('other', 'pw', 'other-token');
});
afterAll(() => hs?.stop());

describe('MatrixClient', () => {
  it('logs in as the given device; a lost request or answer is retried with the same txnId: one event', async () => {
    const c = new MatrixClient({ baseUrl: hs.url, retry });
    await c.connect({ user: 'bot', password: 'pw', deviceId: 'FIXED' });
    expect([c.userId, c.deviceId, c.serverName]).toEqual(['@bot:db8.test', 'FIXED', 'db8.test']);
    const room = await c.createRoom({
      room_alias_name: 'c1',
      name: 'n',
      topic: 't',
      preset: 'public_chat',
      visibility: 'private',
      creation_content: { 'm.federate': false },
      power_level_content_override: {},
    });
    expect(await c.resolveAlias('#c1:db8.test')).toBe(room);
    expect(await c.resolveAlias('#none:db8.test')).toBeNull();
    hs.inject({ method: 'PUT', path: /\/send\//, kind: 'drop-before', times: 1 });
    hs.inject({ method: 'PUT', path: /\/send\//, kind: 'drop-after', times: 1 });
    const before = c.stats.retried;
    const id = await c.send(room, 'm.room.message', 'txn-a', { msgtype: 'm.text', body: 'x' });
    expect(c.stats.retried - before).toBe(2);
    expect(
      hs
        .timeline(room)
        .filter((e) => e.content.body === 'x')
        .map((e) => e.event_id),
    ).toEqual([id]);
  });

  it('a refusal is final at once; a bad token is refused', async () => {
    const other = new MatrixClient({ baseUrl: hs.url, retry });
    await other.connect({ accessToken: 'other-token' });
    const room = hs.roomIdOf('#c1:db8.test') as string;
    const n = hs.requests.length;
    await expect(other.send(room, 'm.room.message', 't', { body: 'y' })).rejects.toMatchObject({
      status: 403,
      errcode: 'M_FORBIDDEN',
    });
    expect(hs.requests.length - n).toBe(1);
    const bad = new MatrixClient({ baseUrl: hs.url, retry });
    await expect(bad.connect({ accessToken: 'nope' })).rejects.toMatchObject({ errcode: 'M_UNKNOWN_TOKEN' });
  });
});
