import { Db8Client, type Db8Error, type Db8Socket } from '@db8/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PATIENCE_MS } from '../../../test/patience.ts';
import { SESSION_LIVE_CACHE_MS } from '../src/auth/authenticator.ts';
import type { Store } from '../src/store/index.ts';
import { bearer, type Harness, listen, makeApp, sharedStore } from './app-harness.ts';
import { adminToken, auctionWithBidders, call } from './routes-fixtures.ts';

// Sessions end on the server (issue 14): logout revokes every token of the login, and a socket
// stops acting once its token has expired or its session was logged out.

let store: Store;
let h: Harness;
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

const me = (token: string) => h.app.inject({ method: 'GET', url: '/v1/auth/me', headers: bearer(token) });
const post = (url: string, token: string) => h.app.inject({ method: 'POST', url, headers: bearer(token) });

describe('logout', () => {
  it('revokes the session: the token, and a refresh of it, answer 401 SESSION_REVOKED; another login is untouched', async () => {
    h = await makeApp({ store });
    const agent = (await call(h, 'POST', '/v1/agents', { body: {} })).body;
    const login = (await post('/v1/auth/session', agent.api_key)).json().token as string;
    const other = (await post('/v1/auth/session', agent.api_key)).json().token as string;
    h.clock.advance(60_000);
    const refreshed = (await post('/v1/auth/session', login)).json().token as string;
    expect((await me(login)).statusCode).toBe(200);

    const out = await post('/v1/auth/logout', refreshed);
    expect(out.statusCode, out.body).toBe(200);
    expect(out.json()).toEqual({ revoked: true });
    for (const t of [login, refreshed]) {
      const r = await me(t);
      expect(r.statusCode).toBe(401);
      expect(r.json().error.code).toBe('SESSION_REVOKED');
      expect((await post('/v1/auth/session', t)).statusCode).toBe(401);
    }
    // A separate login of the same agent, and the API key itself, still work.
    expect((await me(other)).statusCode).toBe(200);
    expect((await me(agent.api_key)).statusCode).toBe(200);
    // Logging out is for sessions: an API key is revoked, not logged out.
    const key = await post('/v1/auth/logout', agent.api_key);
    expect(key.statusCode).toBe(400);
    expect((await h.app.inject({ method: 'POST', url: '/v1/auth/logout' })).statusCode).toBe(401);
  });

  it("an admin's logout ends the admin session", async () => {
    h = await makeApp({ store });
    const admin = await adminToken(h);
    expect((await post('/v1/auth/logout', admin)).statusCode).toBe(200);
    const r = await call(h, 'POST', '/v1/rooms', {
      token: admin,
      body: { protocol: 'sealed-bid', config: {} },
    });
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('SESSION_REVOKED');
  });
});

describe('a socket stops acting with its session', () => {
  async function open(base: string, token: string) {
    const s = await new Db8Client({ baseUrl: base, token }).socket({ timeoutMs: PATIENCE_MS });
    sockets.push(s);
    return s;
  }

  it('a 3-s seat token: an action 4.6 s later is refused (TOKEN_EXPIRED), never acked', async () => {
    h = await makeApp({ store, config: { sessionTtlSec: 3 } });
    const base = await listen(h);
    const { roomId, seats } = await auctionWithBidders(h);
    const s = await open(base, seats.bidder_1.token);
    const sub = await s.subscribe(roomId);
    const ok = await s.act(roomId, {
      seat: 'bidder_1',
      action: { type: 'bid', amount: 11 },
      client_nonce: 'a',
    });
    expect(ok.seq).toBe(sub.head_seq + 1);
    h.clock.advance(4600);
    const late = await s
      .act(roomId, { seat: 'bidder_1', action: { type: 'bid', amount: 15 }, client_nonce: 'b' })
      .catch((e: Db8Error) => e);
    expect(late).toMatchObject({ code: 'TOKEN_EXPIRED' });
    expect((await h.runtime.getRoom(roomId)).seq).toBe(ok.seq);
  });

  it('after logout the next action is refused (SESSION_REVOKED), nothing written, and the socket is closed', async () => {
    h = await makeApp({ store });
    const base = await listen(h);
    const { roomId, seats } = await auctionWithBidders(h);
    const s = await open(base, seats.bidder_2.token);
    await s.subscribe(roomId);
    const ok = await s.act(roomId, {
      seat: 'bidder_2',
      action: { type: 'bid', amount: 12 },
      client_nonce: 'a',
    });
    expect((await post('/v1/auth/logout', seats.bidder_2.token)).statusCode).toBe(200);
    const late = await s
      .act(roomId, { seat: 'bidder_2', action: { type: 'bid', amount: 14 }, client_nonce: 'b' })
      .catch((e: Db8Error) => e);
    expect(late).toMatchObject({ code: 'SESSION_REVOKED' });
    await expect
      .poll(() => s.closed, { timeout: PATIENCE_MS })
      .toMatchObject({ code: 1008, reason: 'SESSION_REVOKED' });
    expect((await h.runtime.getRoom(roomId)).seq).toBe(ok.seq);
  });

  it("a logout through another node (only the store knows) stops this node's socket once its live check is older than SESSION_LIVE_CACHE_MS", async () => {
    h = await makeApp({ store });
    const base = await listen(h);
    const { roomId, seats } = await auctionWithBidders(h);
    const s = await open(base, seats.bidder_1.token);
    await s.subscribe(roomId);
    const ok = await s.act(roomId, {
      seat: 'bidder_1',
      action: { type: 'bid', amount: 11 },
      client_nonce: 'a',
    });
    const sid = (await h.app.db8.authn.fromBearer(seats.bidder_1.token)).sessionId as string;
    const now = h.clock.now;
    await store.revokedSessions.revoke({ sid, principalId: 'x', revokedAt: now, expiresAt: now + 3_600_000 });
    // Within the cache window the socket still acts (this node has not been told)…
    const again = await s.act(roomId, {
      seat: 'bidder_1',
      action: { type: 'bid', amount: 13 },
      client_nonce: 'b',
    });
    expect(again.seq).toBe(ok.seq + 1);
    // …past it, the store is read again and the action refused.
    h.clock.advance(SESSION_LIVE_CACHE_MS);
    const late = await s
      .act(roomId, { seat: 'bidder_1', action: { type: 'bid', amount: 15 }, client_nonce: 'c' })
      .catch((e: Db8Error) => e);
    expect(late).toMatchObject({ code: 'SESSION_REVOKED' });
    expect((await h.runtime.getRoom(roomId)).seq).toBe(again.seq);
  });

  it('a socket that only reads is closed at the next heartbeat after its session is logged out', async () => {
    h = await makeApp({ store, config: { wsHeartbeatSec: 0.2 } });
    const base = await listen(h);
    const { roomId, seats } = await auctionWithBidders(h);
    const s = await open(base, seats.bidder_1.token);
    await s.subscribe(roomId);
    expect((await post('/v1/auth/logout', seats.bidder_1.token)).statusCode).toBe(200);
    await expect
      .poll(() => s.closed, { timeout: PATIENCE_MS })
      .toMatchObject({ code: 1008, reason: 'SESSION_REVOKED' });
  });
});
