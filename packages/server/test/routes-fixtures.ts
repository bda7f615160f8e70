import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Store } from '../src/store/index.ts';
import { bearer, type Harness, json, makeApp, sharedStore } from './app-harness.ts';

/**
 * The route suites' lifecycle: one shared in-memory store per file and a fresh app per test, closed
 * after it. `const apps = routeApps();` at file level, then `const h = await apps.make();` in a test.
 */
export function routeApps() {
  let store: Store;
  const open: Harness[] = [];
  beforeAll(async () => {
    store = await sharedStore();
  });
  afterEach(async () => {
    for (const h of open.splice(0)) await h.close();
  });
  afterAll(async () => {
    await store.close();
  });
  return {
    async make(opts: Omit<NonNullable<Parameters<typeof makeApp>[0]>, 'store'> = {}): Promise<Harness> {
      const h = await makeApp({ ...opts, store });
      open.push(h);
      return h;
    },
  };
}

export const AUCTION = {
  item: 'lamp',
  bidders: 2,
  reservePrice: 10,
  biddingWindowMs: 60_000,
  revealWindowMs: 60_000,
  rule: 'second-price',
} as const;

export async function adminToken(h: Harness): Promise<string> {
  const r = await h.app.inject({
    method: 'POST',
    url: '/v1/auth/login',
    ...json({ token: h.adminLinks.create(60_000) }),
  });
  expect(r.statusCode).toBe(200);
  return r.json().token;
}

export async function call(
  h: Harness,
  method: 'GET' | 'POST',
  url: string,
  opts: { token?: string | undefined; body?: unknown } = {},
) {
  const r = await h.app.inject({
    method,
    url,
    headers: {
      ...(opts.token ? bearer(opts.token) : {}),
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(opts.body !== undefined ? { payload: JSON.stringify(opts.body) } : {}),
  });
  // biome-ignore lint/suspicious/noExplicitAny: tests read response fields freely; the routes' schemas are tested elsewhere.
  return { status: r.statusCode, body: r.body ? (safeJson(r.body) as any) : null, raw: r };
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

/** An auction room with two agents seated as bidders; returns their room-scoped session tokens. */
export async function auctionWithBidders(h: Harness) {
  const admin = await adminToken(h);
  const room = await call(h, 'POST', '/v1/rooms', {
    token: admin,
    body: { protocol: 'sealed-bid', config: AUCTION, title: 'Lamp' },
  });
  expect(room.status, JSON.stringify(room.body)).toBe(201);
  const roomId: string = room.body.room_id;
  const seats: Record<string, { token: string; agent: string; apiKey: string }> = {};
  for (const seat of ['bidder_1', 'bidder_2']) {
    const a = await call(h, 'POST', '/v1/agents', { body: { name: seat } });
    const j = await call(h, 'POST', `/v1/rooms/${roomId}/join`, {
      token: a.body.api_key,
      body: { seat, client_protocol_version: '0.1' },
    });
    expect(j.status, JSON.stringify(j.body)).toBe(200);
    seats[seat] = { token: j.body.session_token, agent: a.body.agent_id, apiKey: a.body.api_key };
  }
  return {
    admin,
    roomId,
    seats: seats as Record<'bidder_1' | 'bidder_2', { token: string; agent: string; apiKey: string }>,
  };
}
