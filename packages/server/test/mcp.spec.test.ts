import { request } from 'node:http';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, listen, makeApp, sharedStore } from './app-harness.ts';
import { AUCTION, adminToken, call } from './routes-fixtures.ts';

/**
 * The /mcp endpoint against the MCP Streamable HTTP specification, played by a raw JSON-RPC client
 * (fetch and hand-written bodies, no SDK client): Origin checks, media type, parse errors, version
 * negotiation, unknown resources and the 401 challenge.
 */

let h: Harness;
let base: string;
let key: string;

beforeAll(async () => {
  h = await makeApp({
    store: await sharedStore(),
    config: { rateLimit: { max: 100_000, windowMs: 60_000 } },
  });
  base = await listen(h);
  const r = await call(h, 'POST', '/v1/agents', { body: { name: 'raw-rpc' } });
  key = r.body.api_key;
});
afterAll(async () => {
  await h.close();
  await h.store.close();
});

// biome-ignore lint/suspicious/noExplicitAny: JSON-RPC answers are inspected freely by the test.
type Msg = Record<string, any>;
interface Answer {
  status: number;
  headers: Headers;
  /** The JSON-RPC messages of the answer, whether sent as JSON or as an SSE stream. */
  messages: Msg[];
}

async function post(body: string | object, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  const sse = (res.headers.get('content-type') ?? '').startsWith('text/event-stream');
  const messages = sse
    ? text
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => JSON.parse(l.slice(6)) as Msg)
    : text
      ? [JSON.parse(text) as Msg]
      : [];
  return { status: res.status, headers: res.headers, messages };
}

const initialize = (protocolVersion: string, id = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});

/** An initialized session: its id and the version the server settled on. */
async function session(): Promise<{ headers: Record<string, string> }> {
  const init = await post(initialize(LATEST_PROTOCOL_VERSION));
  expect(init.status).toBe(200);
  const headers = {
    'mcp-session-id': init.headers.get('mcp-session-id')!,
    'mcp-protocol-version': init.messages[0]!.result.protocolVersion,
  };
  const ready = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  expect(ready.status).toBe(202);
  return { headers };
}

describe('MCP Streamable HTTP, to the letter (raw JSON-RPC client)', () => {
  it('refuses a foreign Origin with 403, before credentials; accepts none, this host and localhost', async () => {
    for (const origin of ['https://evil.example', 'null', 'http://127.0.0.1.evil.example']) {
      const r = await post(initialize(LATEST_PROTOCOL_VERSION), { origin });
      expect(r.status, origin).toBe(403);
      expect(r.messages[0]).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
      expect(r.messages[0]!.error.message).toContain('Origin');
      // An invalid credential does not change the answer: the Origin is checked first.
      const bad = await post(initialize(LATEST_PROTOCOL_VERSION), { origin, authorization: 'Bearer nope' });
      expect(bad.status, origin).toBe(403);
    }
    for (const origin of [undefined, base, 'http://localhost:5173', 'http://127.0.0.1:3000']) {
      const r = await post(initialize(LATEST_PROTOCOL_VERSION), origin ? { origin } : {});
      expect(r.status, String(origin)).toBe(200);
      expect(r.messages[0]!.result.serverInfo.name).toBe('db8');
    }
  });

  it('answers malformed JSON with a JSON-RPC parse error (-32700)', async () => {
    for (const body of ['{"jsonrpc":"2.0","id":1,"method":', 'not json at all', '']) {
      const r = await post(body);
      expect(r.status, body).toBe(400);
      expect(r.messages[0], body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    }
  });

  it('answers a body that is not application/json with 415', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const r = await post(initialize(LATEST_PROTOCOL_VERSION), { 'content-type': type });
      expect(r.status, type).toBe(415);
      expect(r.messages[0]).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
      expect(r.messages[0]!.error.message).toMatch(/Unsupported Media Type/);
    }
    // No Content-Type at all (fetch always sends one for a text body: node:http does not).
    const bare = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${base}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, accept: 'application/json, text/event-stream' },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (d) => {
          body += String(d);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end(JSON.stringify(initialize(LATEST_PROTOCOL_VERSION)));
    });
    expect(bare.status).toBe(415);
    expect(JSON.parse(bare.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
  });

  it('offers the newest revision the SDK speaks, and counter-offers it for a version it does not know', async () => {
    const newest = await post(initialize(LATEST_PROTOCOL_VERSION));
    expect(newest.status).toBe(200);
    expect(newest.messages[0]!.result.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    for (const asked of ['2024-01-01', '2099-12-31']) {
      const r = await post(initialize(asked));
      expect(r.status, asked).toBe(200);
      expect(r.messages[0], asked).toMatchObject({
        id: 1,
        result: { protocolVersion: LATEST_PROTOCOL_VERSION },
      });
    }
  });

  it('answers an unknown resource with -32002 (read and subscribe)', async () => {
    const { headers } = await session();
    const read = (uri: string, id: number) =>
      post({ jsonrpc: '2.0', id, method: 'resources/read', params: { uri } }, headers);
    const cases = [
      'db8://rooms/room_nope/view',
      'db8://rooms/room_nope/log',
      'file:///etc/passwd',
      'db8://x',
    ];
    for (const [i, uri] of cases.entries()) {
      const r = await read(uri, 10 + i);
      expect(r.status, uri).toBe(200);
      expect(r.messages[0], uri).toMatchObject({ id: 10 + i, error: { code: -32002, data: { uri } } });
    }
    const sub = await post(
      { jsonrpc: '2.0', id: 20, method: 'resources/subscribe', params: { uri: 'file:///etc/passwd' } },
      headers,
    );
    expect(sub.messages[0]).toMatchObject({ id: 20, error: { code: -32002 } });

    // A room that exists still reads.
    const admin = await adminToken(h);
    const room = await call(h, 'POST', '/v1/rooms', {
      token: admin,
      body: { protocol: 'sealed-bid', config: AUCTION },
    });
    const ok = await read(`db8://rooms/${room.body.room_id}/log`, 30);
    expect(ok.messages[0]!.result.contents[0].uri).toBe(`db8://rooms/${room.body.room_id}/log`);
  });

  it('a 401 carries WWW-Authenticate (no credential, and a bad one)', async () => {
    const none = await post(initialize(LATEST_PROTOCOL_VERSION), { authorization: '' });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="db8"');
    const bad = await post(initialize(LATEST_PROTOCOL_VERSION), { authorization: 'Bearer db8k_not-a-key' });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toBe('Bearer realm="db8", error="invalid_token"');
  });
});
