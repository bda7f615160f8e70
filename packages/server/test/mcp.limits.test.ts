import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, listen, makeApp, sharedStore } from './app-harness.ts';
import { call } from './routes-fixtures.ts';

/**
 * Every MCP request is metered per principal, like REST requests and WebSocket messages: a
 * client that lists tools in a loop meets a 429. A tool call pays once, at the door: the REST calls
 * it makes in-process are not metered a second time. The harness clock stands still, so buckets
 * never refill during the test and the counts are exact.
 */

const MAX = 20;
let h: Harness;
let base: string;
const clients: Client[] = [];

beforeAll(async () => {
  h = await makeApp({ store: await sharedStore(), config: { rateLimit: { max: MAX, windowMs: 60_000 } } });
  base = await listen(h);
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await h.close();
  await h.store.close();
});

async function connect(): Promise<Client> {
  const agent = await call(h, 'POST', '/v1/agents', { body: { name: 'mcp-loop' } });
  expect(agent.status).toBe(201);
  const client = new Client({ name: 'db8-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${agent.body.api_key}` } },
    }),
  );
  clients.push(client);
  return client;
}

/** How many times `op` succeeds before it fails, and how it failed. */
async function untilRefused(op: () => Promise<boolean>): Promise<{ ok: number; error: unknown }> {
  for (let ok = 0; ok < 200; ok++) {
    try {
      if (!(await op())) return { ok, error: 'tool error' };
    } catch (error) {
      return { ok, error };
    }
  }
  return { ok: 200, error: null };
}

describe('MCP requests are metered per principal', () => {
  it('tools/list in a loop meets a 429 within the REST budget', async () => {
    const c = await connect();
    const r = await untilRefused(async () => (await c.listTools()).tools.length > 0);
    expect(r.ok).toBeGreaterThan(0);
    expect(r.ok).toBeLessThan(MAX);
    expect(String(r.error)).toMatch(/429|RATE_LIMITED/);
  });

  it('a tool call costs one request, like tools/list (its in-process REST calls are not metered again)', async () => {
    const lister = await connect();
    const listed = await untilRefused(async () => (await lister.listTools()).tools.length > 0);
    const caller = await connect();
    const called = await untilRefused(
      async () => !(await caller.callTool({ name: 'list_rooms', arguments: {} })).isError,
    );
    expect(String(called.error)).toMatch(/429|RATE_LIMITED/);
    expect(called.ok).toBe(listed.ok);
  });

  it('a client that forges the in-process header is metered like everyone', async () => {
    const forged = { 'x-db8-in-process': 'guess' };
    let last = 0;
    for (let i = 0; i <= MAX; i++) {
      last = (
        await h.app.inject({ method: 'GET', url: '/v1/rooms', headers: forged, remoteAddress: '127.0.0.9' })
      ).statusCode;
    }
    expect(last).toBe(429);
  });
});
