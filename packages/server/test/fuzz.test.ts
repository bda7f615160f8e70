import { sealedBid } from '@db8/sealed-bid';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATIENCE_MS } from '../../../test/patience.ts';
import { ActionBodySchema, CreateRoomBodySchema } from '../src/schemas/rest.ts';
import type { Store } from '../src/store/index.ts';
import { type Harness, listen, makeApp, sharedStore } from './app-harness.ts';
import { adminToken, auctionWithBidders, call } from './routes-fixtures.ts';

/**
 * Hostile input at every route and at the WebSocket: the server never answers 5xx, never writes
 * to any room log, always answers in the error shape, and still serves afterwards.
 */

let store: Store;
let h: Harness;
let room: string;
let tokens: Record<'admin' | 'seat' | 'agent' | 'person', string>;

beforeAll(async () => {
  store = await sharedStore();
  h = await makeApp({
    store,
    config: {
      logLevel: 'silent',
      rateLimit: { max: 1_000_000, windowMs: 60_000 },
      authRateLimit: { max: 1_000_000, windowMs: 60_000 },
      bodyLimit: 64 * 1024,
    },
  });
  const r = await auctionWithBidders(h);
  room = r.roomId;
  // Fill the last seat too, so a fuzzed join can never take one (that would be a legitimate write).
  const inv = await call(h, 'POST', `/v1/rooms/${room}/invites`, {
    token: r.admin,
    body: { seat: 'auctioneer' },
  });
  const person = await call(h, 'POST', `/v1/rooms/${room}/join`, { body: { invite: inv.body.invite } });
  tokens = {
    admin: r.admin,
    seat: r.seats.bidder_1.token,
    agent: r.seats.bidder_2.apiKey,
    person: person.body.session_token,
  };
});
afterAll(async () => {
  await h?.close();
  await store?.close();
});

async function logState() {
  const rows = await store.db.query<{ rooms: number; entries: number; heads: string }>(
    `SELECT (SELECT count(*)::int FROM rooms) AS rooms, (SELECT count(*)::int FROM entries) AS entries,
            (SELECT coalesce(string_agg(id || ':' || head_seq, ',' ORDER BY id), '') FROM rooms) AS heads`,
  );
  return rows[0];
}

const nasty = fc.constantFrom(
  '',
  ' ',
  '..',
  '../../etc/passwd',
  '%',
  '%zz',
  '%00',
  '\u0000',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  'prototype',
  '\ud800',
  '💥',
  'a'.repeat(3000),
  '-1',
  '1e400',
  'NaN',
  '9007199254740993',
  'room_',
  'db8-login:*:',
  'Bearer',
  'db8k_',
);
/** Percent-encode for a URL; a lone surrogate (not encodable) becomes invalid UTF-8 bytes instead. */
const enc = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80';
  }
};
const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  nasty,
);
const keyish = fc.constantFrom(
  '__proto__',
  'constructor',
  'seat',
  'action',
  'type',
  'amount',
  'protocol',
  'config',
  'invite',
  'api_key',
  'nonce',
  'signature',
  'token',
  'room_id',
  'since',
  'expected_seq',
  'turn_token',
  'payload',
  'id',
);
const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.dictionary(keyish, fc.oneof(fc.jsonValue({ maxDepth: 2 }), hostileString, fc.integer()), { maxKeys: 6 }),
  fc.record({
    seat: fc.oneof(fc.constantFrom('bidder_1', 'bidder_2', 'auctioneer'), hostileString),
    action: fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.record({
        type: fc.oneof(fc.constantFrom('bid', 'raise', 'pass', 'confirm'), hostileString),
        amount: fc.oneof(fc.integer(), fc.double(), hostileString),
      }),
    ),
    expected_seq: fc.oneof(fc.integer(), hostileString),
    turn_token: hostileString,
  }),
);
const rawBody = fc.oneof(
  hostileJson.map((v) => JSON.stringify(v) ?? 'null'),
  fc.string({ maxLength: 200 }),
  fc.constantFrom(
    '{"a":1,"a":2}',
    '{"n":1e400}',
    '{"n":9007199254740993}',
    '"\\ud800"',
    '{"__proto__":{"role":"admin"}}',
    '{"constructor":{"prototype":{"admin":true}}}',
    `${'['.repeat(5000)}${']'.repeat(5000)}`,
    'x'.repeat(70 * 1024),
    '',
    'null',
  ),
);

type Route = { method: 'GET' | 'POST'; path: (id: string, seq: string) => string };
const ROUTES: Route[] = [
  { method: 'POST', path: () => '/v1/agents' },
  { method: 'POST', path: () => '/v1/auth/token' },
  { method: 'POST', path: () => '/v1/auth/challenge' },
  { method: 'POST', path: () => '/v1/auth/verify' },
  { method: 'POST', path: () => '/v1/auth/login' },
  { method: 'POST', path: () => '/v1/auth/session' },
  { method: 'GET', path: () => '/v1/auth/me' },
  { method: 'GET', path: () => '/v1/auth/providers' },
  // Seed 000's literal login (routes/seed-auth.ts).
  { method: 'GET', path: () => '/auth/challenge' },
  { method: 'POST', path: () => '/auth/verify' },
  { method: 'POST', path: () => '/v1/rooms' },
  { method: 'GET', path: () => '/v1/rooms' },
  { method: 'GET', path: (id) => `/v1/rooms/${id}` },
  { method: 'POST', path: (id) => `/v1/rooms/${id}/invites` },
  { method: 'POST', path: (id) => `/v1/rooms/${id}/join` },
  { method: 'GET', path: (id) => `/v1/rooms/${id}/state` },
  { method: 'POST', path: (id) => `/v1/rooms/${id}/actions` },
  { method: 'GET', path: (id) => `/v1/rooms/${id}/entries` },
  { method: 'GET', path: (id, seq) => `/v1/rooms/${id}/entries/${seq}/proof` },
  { method: 'GET', path: (id) => `/v1/rooms/${id}/checkpoints` },
  { method: 'GET', path: (id) => `/v1/rooms/${id}/export` },
  { method: 'POST', path: (id) => `/v1/rooms/${id}/certs` },
  { method: 'GET', path: (id) => `/v1/rooms/${id}/events` },
  { method: 'GET', path: () => '/v1/ws' },
  { method: 'GET', path: () => '/protocol.json' },
];

const requestArb = fc.record({
  route: fc.constantFrom(...ROUTES),
  id: fc.oneof(fc.constant('VALID'), hostileString.map(enc), fc.constantFrom('%', '%zz', '..', 'a/b')),
  seq: fc.oneof(fc.integer().map(String), hostileString.map(enc)),
  query: fc.dictionary(
    fc.constantFrom('fromSeq', 'limit', 'since', 'token', 'cursor', 'status', 'protocol', 'x', '__proto__'),
    hostileString,
    { maxKeys: 3 },
  ),
  auth: fc.constantFrom('none', 'admin', 'seat', 'agent', 'person', 'garbage', 'basic', 'huge'),
  contentType: fc.constantFrom(
    'application/json',
    'application/json; charset=utf-16',
    'text/plain',
    'multipart/form-data',
    undefined,
  ),
  body: fc.option(rawBody, { nil: undefined }),
  lastEventId: fc.option(hostileString, { nil: undefined }),
});

function wouldLegitimatelyWrite(r: Req): boolean {
  if (r.body === undefined) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(r.body);
  } catch {
    return false;
  }
  const url = r.route.path('VALID', '0');
  if (url.endsWith('/actions')) {
    const a = ActionBodySchema.safeParse(parsed);
    return a.success && sealedBid.actionSchema.safeParse(a.data.action).success;
  }
  if (url === '/v1/rooms' && r.route.method === 'POST') {
    const c = CreateRoomBodySchema.safeParse(parsed);
    return (
      c.success && c.data.protocol === 'sealed-bid' && sealedBid.configSchema.safeParse(c.data.config).success
    );
  }
  return false;
}
type Req = {
  route: Route;
  id: string;
  seq: string;
  query: Record<string, string>;
  auth: string;
  contentType: string | undefined;
  body: string | undefined;
  lastEventId: string | undefined;
};

function authHeader(kind: string): string | undefined {
  switch (kind) {
    case 'admin':
      return `Bearer ${tokens.admin}`;
    case 'seat':
      return `Bearer ${tokens.seat}`;
    case 'agent':
      return `Bearer ${tokens.agent}`;
    case 'person':
      return `Bearer ${tokens.person}`;
    case 'garbage':
      return 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJhZG1pbiJ9.';
    case 'basic':
      return 'Basic YWRtaW46YWRtaW4=';
    case 'huge':
      return `Bearer ${'A'.repeat(20_000)}`;
    default:
      return undefined;
  }
}

describe('fuzz: hostile requests', () => {
  it('every route: no 5xx, error shape on failure, no log write', async () => {
    const before = await logState();
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(requestArb, async (r0) => {
        const r = r0 as Req;
        const id = r.id === 'VALID' ? room : r.id;
        const url = r.route.path(id, r.seq);
        const lastEventId = r.lastEventId?.replace(/[\r\n\0]/g, '');
        // A valid room's SSE stream never ends under inject (a Last-Event-ID that cleans to blank is
        // no resume point either); the WS route needs an upgrade.
        if (url.endsWith('/events') && id === room && !lastEventId?.trim()) return;
        if (wouldLegitimatelyWrite(r)) return;
        const qs = new URLSearchParams(r.query).toString();
        const headers: Record<string, string> = {};
        const auth = authHeader(r.auth);
        if (auth) headers.authorization = auth;
        if (r.contentType && r.body !== undefined) headers['content-type'] = r.contentType;
        if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
        let res: Awaited<ReturnType<typeof h.app.inject>>;
        try {
          res = await h.app.inject({
            method: r.route.method,
            url: qs ? `${url}?${qs}` : url,
            headers,
            ...(r.body !== undefined && r.route.method === 'POST' ? { payload: r.body } : {}),
          });
        } catch (e) {
          // light-my-request refuses some header values before they reach the server: not a server answer.
          if (/header|Invalid character/i.test(String(e))) return;
          throw e;
        }
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        expect(res.statusCode, `${r.route.method} ${url} -> ${res.body.slice(0, 300)}`).toBeLessThan(500);
        if (res.statusCode >= 400) {
          const body = JSON.parse(res.body);
          expect(typeof body.error?.code).toBe('string');
          expect(typeof body.error?.message).toBe('string');
        }
      }),
      { numRuns: 600, seed: Number(process.env.FUZZ_SEED ?? 20260101) },
    );
    expect(await logState()).toEqual(before);
    // a mix of outcomes, not one error over and over
    expect(statuses.size).toBeGreaterThan(5);
    expect((await h.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await h.app.inject({ method: 'GET', url: `/v1/rooms/${room}/state` })).statusCode).toBe(200);
  });
});

describe('fuzz: control characters in every path parameter of every route', () => {
  it('each param of each route (modules mounted) answers 400 VALIDATION_FAILED, never 5xx', async () => {
    const full = await makeApp({
      store,
      mountModules: true,
      config: { logLevel: 'silent', rateLimit: { max: 1_000_000, windowMs: 60_000 } },
    });
    try {
      const admin = await adminToken(full);
      const before = await logState();
      const routes = full.app.routeTable.filter((r) => r.url.includes(':'));
      // All of them: the core rooms routes and every module's (drivers, council, poker, debates…).
      for (const must of [
        '/v1/rooms/:id/drivers',
        '/v1/rooms/:id/council/packet.json',
        '/v1/rooms/:id/council/packet.md',
      ])
        expect(routes.map((r) => r.url)).toContain(must);
      expect(routes.length).toBeGreaterThan(30);
      const bad = ['\u0000', '\u0001', '\n', '\r', '\u001b', '\u001f', '\u007f'];
      let tried = 0;
      for (const r of routes) {
        const names = [...r.url.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!);
        for (const name of names) {
          for (const c of bad) {
            // The other params are plausible (the real room, seq 0), so only the hostile one is wrong.
            const url = r.url.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_m, n: string) =>
              n === name ? encodeURIComponent(`x${c}y`) : n === 'id' ? room : n === 'seq' ? '0' : 'x',
            );
            const res = await full.app.inject({
              method: r.method as 'GET',
              url,
              headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
              ...(r.method === 'GET' || r.method === 'HEAD' ? {} : { payload: '{}' }),
            });
            const what = `${r.method} ${r.url} with ${JSON.stringify(c)} in :${name} -> ${res.statusCode} ${res.body.slice(0, 200)}`;
            expect(res.statusCode, what).toBe(400);
            if (r.method !== 'HEAD')
              expect(JSON.parse(res.body).error, what).toMatchObject({
                code: 'VALIDATION_FAILED',
                details: [{ path: name }],
              });
            tried++;
          }
        }
      }
      expect(tried).toBeGreaterThan(200);
      expect(await logState()).toEqual(before);
    } finally {
      await full.close();
    }
  });
});

describe('fuzz: hostile WebSocket frames', () => {
  it('every frame gets exactly one reply, no socket dies, nothing is written', async () => {
    const base = await listen(h);
    const wsName = 'ws';
    const { WebSocket } = (await import(wsName)) as {
      WebSocket: new (
        u: string,
      ) => {
        on(e: string, f: (d: unknown, bin?: boolean) => void): void;
        send(d: string | Buffer): void;
        close(): void;
        readyState: number;
      };
    };
    const before = await logState();
    const frame = fc.oneof(
      rawBody,
      fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)),
      fc
        .record({
          type: fc.oneof(
            fc.constantFrom('subscribe', 'unsubscribe', 'action', 'ping', 'hello', 'state', 'ack'),
            hostileString,
          ),
          id: fc.option(fc.oneof(hostileString, fc.integer()), { nil: undefined }),
          payload: hostileJson,
        })
        .map((m) => JSON.stringify(m)),
      fc
        .record({
          type: fc.constant('action'),
          id: fc.string({ maxLength: 8 }),
          payload: fc.record({
            room_id: fc.constant('VALID'),
            seat: fc.constantFrom('bidder_1', 'bidder_2'),
            action: hostileJson,
          }),
        })
        .map((m) => JSON.stringify(m)),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('none', 'seat', 'admin'),
        fc.boolean(),
        fc.array(frame, { minLength: 1, maxLength: 12 }),
        async (auth, hello, frames0) => {
          const frames = frames0
            // Frames over maxPayload close the socket with 1009 by design (tested on its own below).
            .filter((f) => f.length <= 60 * 1024)
            .map((f) => (typeof f === 'string' ? f.replaceAll('"VALID"', JSON.stringify(room)) : f))
            .filter((f) => {
              if (typeof f !== 'string') return true;
              try {
                const m = JSON.parse(f);
                if (m?.type === 'action' && sealedBid.actionSchema.safeParse(m?.payload?.action).success)
                  return false;
                // a valid subscribe to the real room is fine (pushes are not replies) but skip hello here
                if (m?.type === 'hello') return false;
              } catch {
                // not JSON: keep
              }
              return true;
            });
          const tok = auth === 'seat' ? tokens.seat : auth === 'admin' ? tokens.admin : null;
          const ws = new WebSocket(`${base.replace('http', 'ws')}/v1/ws${tok ? `?token=${tok}` : ''}`);
          const replies: Array<{ type: string; payload?: { code?: string } }> = [];
          let closed = false;
          ws.on('message', (d) => {
            const m = JSON.parse(String(d));
            if (m.type !== 'entry' && m.type !== 'state') replies.push(m);
          });
          ws.on('close', () => {
            closed = true;
          });
          await new Promise<void>((res, rej) => {
            ws.on('open', () => res());
            ws.on('error', (e) => rej(e));
          });
          if (hello) ws.send(JSON.stringify({ type: 'hello', payload: { client_protocol_version: '0.1' } }));
          for (const f of frames) ws.send(f);
          const want = frames.length + (hello ? 1 : 0);
          const end = Date.now() + PATIENCE_MS;
          while (replies.length < want && Date.now() < end && !closed)
            await new Promise((r) => setTimeout(r, 10));
          expect(replies.length, JSON.stringify(replies.slice(-3))).toBe(want);
          expect(closed).toBe(false);
          for (const m of replies) if (m.type === 'error') expect(typeof m.payload?.code).toBe('string');
          ws.close();
        },
      ),
      { numRuns: 60, seed: Number(process.env.FUZZ_SEED ?? 20260101) },
    );
    expect(await logState()).toEqual(before);
    expect((await h.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });

  it('an oversized frame closes only that socket (1009); the server keeps serving', async () => {
    const base = await listen(h).catch(
      () => `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`,
    );
    const wsName = 'ws';
    const { WebSocket } = (await import(wsName)) as {
      WebSocket: new (
        u: string,
      ) => { on(e: string, f: (...a: unknown[]) => void): void; send(d: string): void };
    };
    const ws = new WebSocket(`${base.replace('http', 'ws')}/v1/ws`);
    await new Promise<void>((r) => ws.on('open', () => r()));
    const code = new Promise<unknown>((r) => ws.on('close', (c: unknown) => r(c)));
    ws.send('x'.repeat(70 * 1024));
    expect(await code).toBe(1009);
    expect((await h.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});
