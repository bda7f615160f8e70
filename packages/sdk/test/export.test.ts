import { describe, expect, it } from 'vitest';
import { Db8Client } from '../src/index.ts';

describe('Db8Client.export', () => {
  it('asks for a viewer class with ?as= and yields the parsed records', async () => {
    const seen: string[] = [];
    const c = new Db8Client({
      baseUrl: 'http://x',
      fetch: (async (url: string) => {
        seen.push(String(url));
        return new Response('{"type":"db8-journal","n":1}\n{"type":"end"}\n', { status: 200 });
      }) as typeof fetch,
    });
    const got: unknown[] = [];
    for await (const r of c.export('room a', { as: 'seat:bidder_1' })) got.push(r);
    expect(got).toEqual([{ type: 'db8-journal', n: 1 }, { type: 'end' }]);
    for await (const _ of c.export('r2')) break;
    expect(seen).toEqual([
      'http://x/v1/rooms/room%20a/export?as=seat%3Abidder_1',
      'http://x/v1/rooms/r2/export',
    ]);
  });
});
