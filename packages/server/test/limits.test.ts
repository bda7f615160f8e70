import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { storeAuth } from '../src/auth/store-adapter.ts';
import type { ServerConfigInput } from '../src/config.ts';
import type { Store } from '../src/store/index.ts';
import { bearer, type Harness, listen, makeApp, sharedStore } from './app-harness.ts';
import { adminToken, auctionWithBidders, call } from './routes-fixtures.ts';

/**
 * Limits and hostile input at every edge (REST and WebSocket): one limiter per principal shared
 * by all its connections, failed API keys limited by address before the lookup, one strict JSON
 * parser (UTF-8, duplicate keys, depth, NUL), and a hello timeout.
 */

let store: Store;
let h: Harness | undefined;
const open: RawSocket[] = [];
beforeAll(async () => {
  store = await sharedStore();
});
afterEach(async () => {
  for (const s of open.splice(0)) s.close();
  await h?.close();
  h = undefined;
});
afterAll(async () => {
  await store.close();
});

interface Reply {
  type: string;
  id?: string;
  payload: { code?: string; details?: { retry_after_ms?: number; reason?: string } & unknown };
}
interface RawSocket {
  send(d: string | Buffer): void;
  close(): void;
  replies: Reply[];
  /** Resolves once `n` replies (entries and states aside) have arrived. */
  until(n: number): Promise<void>;
  closed: Promise<number>;
}

async function socket(base: string, token?: string): Promise<RawSocket> {
  const wsName = 'ws'; // no @types/ws: typed by the little we use
  const { WebSocket } = (await import(wsName)) as {
    WebSocket: new (
      u: string,
    ) => {
      on(e: string, f: (a: unknown, b?: unknown) => void): void;
      send(d: string | Buffer): void;
      close(): void;
    };
  };
  const ws = new WebSocket(`${base.replace('http', 'ws')}/v1/ws${token ? `?token=${token}` : ''}`);
  const replies: Reply[] = [];
  const waiters: Array<() => void> = [];
  ws.on('message', (d) => {
    const m = JSON.parse(String(d)) as Reply;
    if (m.type === 'entry' || m.type === 'state') return;
    replies.push(m);
    for (const w of waiters.splice(0)) w();
  });
  const closed = new Promise<number>((r) => ws.on('close', (code) => r(code as number)));
  await new Promise<void>((res, rej) => {
    ws.on('open', () => res());
    ws.on('error', (e) => rej(e));
  });
  const s: RawSocket = {
    send: (d) => ws.send(d),
    close: () => ws.close(),
    replies,
    closed,
    until: async (n) => {
      while (replies.length < n) await new Promise<void>((r) => waiters.push(r));
    },
  };
  open.push(s);
  return s;
}

const hello = JSON.stringify({ type: 'hello', id: 'h', payload: { client_protocol_version: '0.1' } });
const codes = (rs: Reply[]) => rs.map((r) => (r.type === 'error' ? r.payload.code : r.type));

async function app(config: ServerConfigInput = {}, extra: Parameters<typeof makeApp>[0] = {}) {
  h = await makeApp({ store, config, ...extra });
  return h;
}

describe('rate limits per principal, across connections', () => {
  it('five sockets of one seat share one bucket with its REST calls; refusals carry the id and a retry-after', async () => {
    const max = 20;
    const a = await app({ rateLimit: { max, windowMs: 60_000 } });
    const base = await listen(a);
    const { seats } = await auctionWithBidders(a);
    const token = seats.bidder_1.token;
    const socks = await Promise.all(Array.from({ length: 5 }, () => socket(base, token)));
    // 5 × (hello + 10 pings) = 55 messages, far under each connection's own bucket.
    for (const [i, s] of socks.entries()) {
      s.send(hello);
      for (let j = 0; j < 10; j++) s.send(JSON.stringify({ type: 'ping', id: `s${i}p${j}` }));
    }
    await Promise.all(socks.map((s) => s.until(11)));
    const all = socks.flatMap((s) => s.replies);
    const accepted = all.filter((r) => r.type !== 'error');
    const refused = all.filter((r) => r.type === 'error');
    // The seat's agent spent one token on its REST join: the sockets share the other max - 1.
    expect(accepted.length).toBe(max - 1);
    expect(refused.length).toBe(55 - (max - 1));
    for (const r of refused) {
      expect(r.payload.code).toBe('RATE_LIMITED');
      expect(r.id).toMatch(/^(h|s\dp\d)$/);
      expect(r.payload.details?.retry_after_ms).toBeGreaterThan(0);
    }
    // The same principal over REST draws on the same (empty) bucket.
    const rest = await a.app.inject({ method: 'GET', url: '/v1/auth/me', headers: bearer(token) });
    expect(rest.statusCode).toBe(429);
    expect(rest.json().error).toMatchObject({
      code: 'RATE_LIMITED',
      details: { retry_after_ms: expect.any(Number) },
    });
    expect(Number(rest.headers['retry-after'])).toBeGreaterThan(0);
    // Another principal is not affected.
    const other = await a.app.inject({
      method: 'GET',
      url: '/v1/auth/me',
      headers: bearer(seats.bidder_2.token),
    });
    expect(other.statusCode).toBe(200);
  });

  it('random API keys are limited by address before the lookup: 429, not a store read each', async () => {
    let lookups = 0;
    const real = storeAuth(store);
    const authStore = {
      ...real,
      principalByApiKey: (...args: Parameters<typeof real.principalByApiKey>) => {
        lookups++;
        return real.principalByApiKey(...args);
      },
    };
    const a = await app({ authFailureLimit: { max: 5, windowMs: 60_000 } }, { authStore });
    const admin = await adminToken(a);
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const key = `db8k_${i.toString().padStart(4, '0')}${'x'.repeat(40)}`;
      statuses.push(
        (await a.app.inject({ method: 'GET', url: '/v1/auth/me', headers: bearer(key) })).statusCode,
      );
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(new Set(statuses.slice(5))).toEqual(new Set([429]));
    expect(lookups).toBe(5);
    // Over the WebSocket too: a key in ?token= is refused unread.
    const s = await socket(await listen(a), `db8k_${'y'.repeat(40)}`);
    await s.until(1);
    expect(s.replies[0]?.payload.code).toBe('RATE_LIMITED');
    expect(lookups).toBe(5);
    // And over SSE: EventSource's ?token= meets the same limiter.
    const sse = await a.app.inject({
      method: 'GET',
      url: `/v1/rooms/some-room/events?token=db8k_${'z'.repeat(40)}`,
    });
    expect(sse.statusCode).toBe(429);
    expect(sse.json().error.code).toBe('RATE_LIMITED');
    expect(lookups).toBe(5);
    // A session token from the same address is checked by signature and still works.
    const me = await a.app.inject({ method: 'GET', url: '/v1/auth/me', headers: bearer(admin) });
    expect(me.statusCode).toBe(200);
  });
});

describe('credential routes keep their stricter limit, in the same 429 shape', () => {
  it('a third registration in the window is RATE_LIMITED with retry_after_ms and Retry-After', async () => {
    const a = await app({ authRateLimit: { max: 2, windowMs: 60_000 } });
    const codes: number[] = [];
    for (let i = 0; i < 3; i++)
      codes.push((await call(a, 'POST', '/v1/agents', { body: { name: `r${i}` } })).status);
    expect(codes).toEqual([201, 201, 429]);
    const r = await call(a, 'POST', '/v1/agents', { body: { name: 'r3' } });
    expect(r.body.error).toMatchObject({
      code: 'RATE_LIMITED',
      details: { retry_after_ms: expect.any(Number) },
    });
    expect(Number(r.raw.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('one strict parser and one NUL rule at every edge', () => {
  it('REST: NUL in a body string, a room title or a query is a 400, never a 500', async () => {
    const a = await app();
    const admin = await adminToken(a);
    const agent = await call(a, 'POST', '/v1/agents', { body: { name: 'a\u0000b' } });
    expect(agent.status).toBe(400);
    expect(agent.body.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ path: 'name', code: 'nul_character' }],
    });
    const room = await call(a, 'POST', '/v1/rooms', {
      token: admin,
      body: {
        protocol: 'sealed-bid',
        title: 'x\u0000',
        config: {
          item: 'lamp',
          bidders: 2,
          reservePrice: 1,
          biddingWindowMs: 60_000,
          revealWindowMs: 60_000,
        },
      },
    });
    expect(room.status).toBe(400);
    expect(room.body.error.details[0]).toMatchObject({ path: 'title', code: 'nul_character' });
    const q = await call(a, 'GET', '/v1/rooms?cursor=%00');
    expect(q.status).toBe(400);
    expect(q.body.error.code).toBe('VALIDATION_FAILED');
    const p = await call(a, 'GET', '/v1/rooms/room_%00');
    expect(p.status).toBe(400);
  });

  it('REST: invalid UTF-8 in a body is refused, not replaced', async () => {
    const a = await app();
    const r = await a.app.inject({
      method: 'POST',
      url: '/v1/agents',
      headers: { 'content-type': 'application/json' },
      payload: Buffer.concat([Buffer.from('{"name":"a'), Buffer.from([0xff]), Buffer.from('b"}')]),
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().error).toMatchObject({ code: 'INVALID_JSON', details: { reason: 'INVALID_UTF8' } });
  });

  it('WebSocket: duplicate keys, 5,000-deep nesting and NUL each get an error reply, and the socket lives on', async () => {
    const a = await app();
    const s = await socket(await listen(a));
    s.send(hello);
    s.send('{"type":"ping","id":"d","type":"ping"}');
    s.send(`${'['.repeat(5000)}${']'.repeat(5000)}`);
    s.send(JSON.stringify({ type: 'subscribe', id: 'n', payload: { room_id: 'room_\u0000' } }));
    s.send(`{"type":"ping","id":"${'\\u0000'}"}`);
    s.send(JSON.stringify({ type: 'ping', id: 'ok' }));
    await s.until(6);
    expect(codes(s.replies)).toEqual([
      'welcome',
      'INVALID_JSON',
      'INVALID_JSON',
      'VALIDATION_FAILED',
      'VALIDATION_FAILED',
      'pong',
    ]);
    expect(s.replies[1]?.payload.details?.reason).toBe('DUPLICATE_KEY');
    expect(s.replies[2]?.payload.details?.reason).toBe('TOO_DEEP');
    // REST draws the line at the same depth.
    const deep = await a.app.inject({
      method: 'POST',
      url: '/v1/agents',
      headers: { 'content-type': 'application/json' },
      payload: `${'['.repeat(5000)}${']'.repeat(5000)}`,
    });
    expect(deep.statusCode).toBe(400);
    expect(deep.json().error.details.reason).toBe('TOO_DEEP');
  });

  it('WebSocket: a connection that never says hello is told so and closed', async () => {
    const a = await app({ wsHelloTimeoutSec: 0.2 });
    const s = await socket(await listen(a));
    expect(await s.closed).toBe(1008);
    expect(codes(s.replies)).toEqual(['HELLO_TIMEOUT']);
  });
});
