import { describe, expect, it } from 'vitest';
import { Db8Client, Db8Error, parseSse } from '../src/index.ts';

const streamOf = (chunks: string[]) =>
  new Response(
    new ReadableStream({
      start(c) {
        for (const x of chunks) c.enqueue(new TextEncoder().encode(x));
        c.close();
      },
    }),
  );

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('parseSse', () => {
  it('follows the event-stream rules across arbitrary chunk boundaries', async () => {
    const text =
      'retry: 1500\n: comment\n\nid: 3\nevent: entry\ndata: {"seq":3}\n\nevent: state\r\ndata: {"a":\ndata: 1}\n\ndata: plain\n\nid: 4\n\n';
    // split into 3-byte chunks so fields straddle reads
    const chunks = text.match(/[\s\S]{1,3}/g)!;
    const evs = await all(parseSse(streamOf(chunks)));
    expect(evs).toEqual([
      { event: 'entry', id: '3', data: { seq: 3 }, retry: 1500 },
      { event: 'state', id: '3', data: { a: 1 }, retry: 1500 },
      { event: 'message', id: '3', data: 'plain', retry: 1500 },
    ]);
  });
});

describe('Db8Client', () => {
  const fakeFetch =
    (status: number, body: unknown, seen: Array<{ url: string; init: RequestInit }> = []) =>
    async (url: string | URL | Request, init?: RequestInit) => {
      seen.push({ url: String(url), init: init ?? {} });
      return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status });
    };

  it('turns the error shape into Db8Error with the server code', async () => {
    const c = new Db8Client({
      baseUrl: 'http://x/',
      fetch: fakeFetch(409, {
        error: { code: 'STALE_SEQ', message: 'moved on', details: { head: 9 } },
      }) as typeof fetch,
    });
    const e = await c.act('room_a', { seat: 's', action: {} }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(Db8Error);
    expect(e).toMatchObject({ status: 409, code: 'STALE_SEQ', message: 'moved on', details: { head: 9 } });
  });

  it('sends the bearer token and JSON, and names non-JSON failures by status', async () => {
    const seen: Array<{ url: string; init: RequestInit }> = [];
    const c = new Db8Client({
      baseUrl: 'http://x',
      token: 'tok',
      fetch: fakeFetch(502, '<html>bad gateway', seen) as typeof fetch,
    });
    const e = await c.entries('room a', { fromSeq: 5, limit: 2 }).catch((x: unknown) => x);
    expect(e).toMatchObject({ status: 502, code: 'HTTP_502' });
    expect(seen[0]!.url).toBe('http://x/v1/rooms/room%20a/entries?fromSeq=5&limit=2');
    expect((seen[0]!.init.headers as Record<string, string>).authorization).toBe('Bearer tok');
  });

  it('refuses a response that does not match the server schema', async () => {
    const c = new Db8Client({ baseUrl: 'http://x', fetch: fakeFetch(200, { ok: 'yes' }) as typeof fetch });
    await expect(c.health()).rejects.toMatchObject({ code: 'BAD_RESPONSE' });
  });

  it('join sends the client protocol version', async () => {
    const seen: Array<{ url: string; init: RequestInit }> = [];
    const c = new Db8Client({
      baseUrl: 'http://x',
      fetch: fakeFetch(426, { error: { code: 'OUTDATED_CLIENT', message: 'old' } }, seen) as typeof fetch,
    });
    await expect(c.join('r1', { seat: 'a' })).rejects.toMatchObject({ code: 'OUTDATED_CLIENT' });
    expect(JSON.parse(String(seen[0]!.init.body))).toEqual({ client_protocol_version: '0.1', seat: 'a' });
  });
});
