import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Db8Client, Db8Error } from '../src/index.ts';

// Db8Client.request: a protocol module's own routes get the client's credential, typed errors and the
// reply check without a second fetch wrapper.

type Seen = { url: string; init: RequestInit };
const fakeFetch = (status: number, body: unknown, seen: Seen[] = []) =>
  (async (url: string | URL | Request, init?: RequestInit) => {
    seen.push({ url: String(url), init: init ?? {} });
    return new Response(JSON.stringify(body), { status });
  }) as typeof fetch;

const Tables = z.object({ tables: z.array(z.object({ table_id: z.string() })) });

describe('Db8Client.request', () => {
  it('sends the credential and the JSON body, and returns the parsed reply', async () => {
    const seen: Seen[] = [];
    const c = new Db8Client({
      baseUrl: 'http://x/',
      token: 'tok',
      fetch: fakeFetch(200, { tables: [{ table_id: 't1' }], extra: 1 }, seen),
    });
    const r = await c.request(Tables, 'POST', '/v1/admin/tables', { seats: 2 });
    expect(r).toEqual({ tables: [{ table_id: 't1' }] });
    expect(seen[0]!.url).toBe('http://x/v1/admin/tables');
    expect(seen[0]!.init.method).toBe('POST');
    expect(seen[0]!.init.body).toBe('{"seats":2}');
    expect((seen[0]!.init.headers as Record<string, string>).authorization).toBe('Bearer tok');
  });

  it('throws the server error typed, and BAD_RESPONSE when the reply does not match the schema', async () => {
    const denied = new Db8Client({
      baseUrl: 'http://x',
      fetch: fakeFetch(403, { error: { code: 'FORBIDDEN', message: 'admins only' } }),
    });
    await expect(denied.request(Tables, 'GET', '/v1/admin/tables')).rejects.toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
      message: 'admins only',
    });
    const odd = new Db8Client({ baseUrl: 'http://x', fetch: fakeFetch(200, { tables: 'no' }) });
    const e = await odd.request(Tables, 'GET', '/v1/tables').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(Db8Error);
    expect((e as Db8Error).code).toBe('BAD_RESPONSE');
  });
});
