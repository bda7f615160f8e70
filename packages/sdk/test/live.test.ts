// The reconnecting socket client against a real server: the server kills the client's socket while
// entries are being appended, and every seq still arrives exactly once, in order.

import type { Store } from '@db8/server';
import { type Harness, listen, makeApp, sharedStore } from '@db8/server/test/app-harness.ts';
import { auctionWithBidders } from '@db8/server/test/routes-fixtures.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PATIENCE_MS } from '../../../test/patience.ts';
import { Db8Client, type EntryWire, OutdatedClientError, RoomSocket } from '../src/index.ts';

let store: Store;
let h: Harness | undefined;
const sockets: RoomSocket[] = [];
beforeAll(async () => {
  store = await sharedStore();
});
afterEach(async () => {
  for (const s of sockets.splice(0)) s.close();
  await h?.close();
  h = undefined;
});
afterAll(async () => {
  await store.close();
});

const FAST = { backoff: { initialMs: 10, maxMs: 50 }, timeoutMs: PATIENCE_MS };

/** Server side: drop every open WebSocket without a close handshake (as a dying node would). */
function killSockets(app: Harness['app']): number {
  let n = 0;
  for (const ws of app.websocketServer.clients) {
    ws.terminate();
    n++;
  }
  return n;
}

const until = async (cond: () => boolean, ms = PATIENCE_MS) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('RoomSocket (reconnecting /v1/ws client)', () => {
  it('resumes after server-side drops mid-stream: every seq once, in order', async () => {
    h = await makeApp({ store });
    const base = await listen(h);
    const { roomId, seats } = await auctionWithBidders(h);
    const bidder = new Db8Client({ baseUrl: base, token: seats.bidder_1.token });
    const obs = await new Db8Client({ baseUrl: base }).live(FAST);
    const me = await new Db8Client({ baseUrl: base, token: seats.bidder_1.token }).live(FAST);
    sockets.push(obs, me);

    const seen = { obs: [] as EntryWire[], me: [] as EntryWire[] };
    obs.on((id, ev) => id === roomId && ev.event === 'entry' && seen.obs.push(ev.entry));
    me.on((id, ev) => id === roomId && ev.event === 'entry' && seen.me.push(ev.entry));
    await obs.subscribe(roomId, { since: -1 });
    await me.subscribe(roomId, { since: 2 });

    const BIDS = 40;
    let kills = 0;
    for (let i = 0; i < BIDS; i++) {
      await bidder.act(roomId, { seat: 'bidder_1', action: { type: 'bid', amount: 20 + i } });
      // Drop both sockets now and then while the log grows, twice back to back.
      if (i % 9 === 4) kills += killSockets(h.app);
      if (i === 31) {
        await new Promise((r) => setTimeout(r, 2));
        kills += killSockets(h.app);
      }
    }
    const head = (await bidder.getRoom(roomId)).seq;
    await until(() => seen.obs.at(-1)?.seq === head && seen.me.at(-1)?.seq === head);
    expect(kills).toBeGreaterThanOrEqual(8);
    expect(obs.live.connections).toBeGreaterThan(4);
    expect(seen.obs.map((e) => e.seq)).toEqual(Array.from({ length: head + 1 }, (_, i) => i));
    expect(seen.me.map((e) => e.seq)).toEqual(Array.from({ length: head - 2 }, (_, i) => i + 3));
    expect(obs.live.gaps + me.live.gaps).toBe(0);
    // The seat sees its own sealed bids; the observer sees them redacted.
    const last = `"amount":${20 + BIDS - 1}`;
    expect(JSON.stringify(seen.me.at(-1))).toContain(last);
    expect(JSON.stringify(seen.obs.at(-1))).not.toContain(last);

    // Actions go over whichever connection is current; a retry with the same nonce is a duplicate.
    killSockets(h.app);
    const body = { seat: 'bidder_1', action: { type: 'bid', amount: 99 }, client_nonce: 'n-1' };
    const ack = await me.act(roomId, body);
    expect((await me.act(roomId, body)).seq).toBe(ack.seq);
    await until(() => seen.obs.at(-1)?.seq === ack.seq);
  });

  it('follow() yields entries then state, across a drop', async () => {
    h = await makeApp({ store });
    const base = await listen(h);
    const { roomId, seats } = await auctionWithBidders(h);
    const bidder = new Db8Client({ baseUrl: base, token: seats.bidder_1.token });
    const s = await new Db8Client({ baseUrl: base }).live(FAST);
    sockets.push(s);
    const head = (await bidder.getRoom(roomId)).seq;
    const got: number[] = [];
    let states = 0;
    for await (const ev of s.follow(roomId, { since: -1 })) {
      if (ev.event === 'state') states++;
      else got.push(ev.entry.seq);
      if (ev.event === 'entry' && ev.entry.seq === head) {
        killSockets(h.app);
        await bidder.act(roomId, { seat: 'bidder_1', action: { type: 'bid', amount: 30 } });
      }
      if (got.at(-1) === head + 1) break;
    }
    expect(got).toEqual(Array.from({ length: head + 2 }, (_, i) => i));
    expect(states).toBeGreaterThan(0);
  });

  it('a refused subscription rejects with the typed error; the socket carries on', async () => {
    h = await makeApp({ store });
    const base = await listen(h);
    const { roomId } = await auctionWithBidders(h);
    const s = await new Db8Client({ baseUrl: base }).live(FAST);
    sockets.push(s);
    const err = await s.subscribe('room_nope').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: expect.stringMatching(/NOT_FOUND/) });
    const follow = s.follow('room_nope');
    await expect(follow.next()).rejects.toMatchObject({ code: expect.stringMatching(/NOT_FOUND/) });
    expect((await s.subscribe(roomId, { since: -1 })).room_id).toBe(roomId);
    expect(s.live.status).toBe('live');
  });

  it('an outdated client gets OUTDATED_CLIENT as a typed error and does not retry', async () => {
    h = await makeApp({ store });
    const base = await listen(h);
    const url = `${base.replace(/^http/, 'ws')}/v1/ws`;
    const err = await RoomSocket.connect({ url, clientProtocolVersion: '0.0.1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutdatedClientError);
    expect(err).toMatchObject({
      code: 'OUTDATED_CLIENT',
      details: { min_supported_protocol_version: '0.1', skill_doc_url: expect.stringMatching(/skill\.md$/) },
    });
    // A page-style client (keeps retrying transport failures) stops on the refusal too.
    const page = RoomSocket.open({ url, clientProtocolVersion: '0.0.1', ...FAST });
    sockets.push(page);
    await expect(page.live.ready()).rejects.toBeInstanceOf(OutdatedClientError);
    expect(page.live.status).toBe('closed');
    expect(page.live.connections).toBe(1);
  });

  it('a page-style client waits for a server that is not up yet', async () => {
    const { freePort } = await import('@db8/poker/server');
    const port = await freePort();
    const page = RoomSocket.open({ url: `ws://127.0.0.1:${port}/v1/ws`, ...FAST });
    sockets.push(page);
    const statuses: string[] = [];
    page.live.on('status', (s) => statuses.push(s));
    await until(() => page.live.connections >= 3);
    h = await makeApp({ store, config: { port } });
    await h.app.listen({ port, host: '127.0.0.1' });
    await page.live.ready(PATIENCE_MS);
    expect(statuses).toContain('offline');
    expect(page.welcome?.protocol_version).toBe('0.1');
  });
});
