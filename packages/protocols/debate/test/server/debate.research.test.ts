// The research tool over REST: a debater fetches a page into the room's shared cache (a second
// seat's request is a cache hit — same hash, no second fetch); the cache is the participants';
// a fact-checker checks a citation's quote against the snapshot; the strict default refuses
// loopback; fetches are rate-limited per seat.
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ResearchOptions, STRICT_POLICY } from '../../server/index.ts';
import { debateServer, TIMINGS } from './debate-harness.ts';
import { html, type PageServer, pageServer } from './research-server.ts';

const ARTICLE =
  '<html><head><title>Car-free cities</title></head><body><p>Oslo removed\n  most parking\tspaces from its centre in 2019.</p></body></html>';

let pages: PageServer;
beforeAll(async () => {
  pages = await pageServer({ '/article': html(ARTICLE), '/other': html('<p>other page</p>') });
});
afterAll(() => pages.close());

let s: Awaited<ReturnType<typeof debateServer>>;
afterEach(() => s.close());

/** A debate in its first submit phase (research_ms 0), everyone seated; localhost allowed (unsafe, tests only). */
async function open(
  research: ResearchOptions = {
    policy: { allowPrivate: false, allowHosts: new Set(['localhost']) },
  },
) {
  s = await debateServer({ research });
  const room = await s.createDebate({ timings: TIMINGS });
  const seats = await s.seatEveryone(room.room_id);
  const token = (seat: string) => seats.get(seat)!.token;
  const base = `/v1/debate/rooms/${room.room_id}/research`;
  return {
    roomId: room.room_id,
    token,
    fetch: (seat: string, url: string) => s.call('POST', base, { token: token(seat), body: { url } }),
    list: (t?: string) => s.call('GET', base, t ? { token: t } : {}),
    check: (t: string, url: string, quote: string) =>
      s.call('POST', `${base}/check`, { token: t, body: { url, quote } }),
  };
}

describe('debate research tool', () => {
  it('fetches once into the shared cache and answers the same hash from it', async () => {
    const d = await open();
    const url = pages.url('/article');
    const first = await d.fetch('anon_1', url);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.cached).toBe(false);
    expect(first.body.sha256).toBe(createHash('sha256').update(ARTICLE).digest('hex'));
    expect(first.body.title).toBe('Car-free cities');
    expect(pages.hits.get('/article')).toBe(1);

    const again = await d.fetch('anon_2', url);
    expect(again.status).toBe(200);
    expect(again.body.cached).toBe(true);
    expect(again.body.sha256).toBe(first.body.sha256);
    expect(pages.hits.get('/article')).toBe(1); // no second fetch

    // The participants read the cache; an observer does not while the room is open.
    expect((await d.list()).status).toBe(403);
    const listed = await d.list(d.token('judge_1'));
    expect(listed.status).toBe(200);
    expect(listed.body.entries.map((e: { url: string }) => e.url)).toEqual([url]);
    expect(listed.body.entries[0].text).toBeUndefined();
    const one = await s.call('GET', `/v1/debate/rooms/${d.roomId}/research?url=${encodeURIComponent(url)}`, {
      token: s.admin,
    });
    expect(one.body.entries[0].text).toContain('Oslo removed most parking spaces');
  });

  it("checks a citation's quote against the cached snapshot", async () => {
    const d = await open();
    const url = pages.url('/article');
    expect((await d.fetch('anon_3', url)).status).toBe(200);
    const fc = d.token('fact_checker');
    // Line breaks and tabs in the page or the quote do not matter.
    const found = await d.check(fc, url, 'Oslo removed most parking spaces\nfrom its centre');
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    expect(found.body.result).toBe('found');
    expect(found.body.sha256).toBe(createHash('sha256').update(ARTICLE).digest('hex'));
    expect((await d.check(fc, url, 'Oslo removed every car')).body.result).toBe('not_found');
    const uncached = await d.check(fc, pages.url('/other'), 'other page');
    expect(uncached.body).toMatchObject({ result: 'not_cached', sha256: null });
    expect(pages.hits.get('/other') ?? 0).toBe(0); // a check never fetches
    expect(
      (await s.call('POST', `/v1/debate/rooms/${d.roomId}/research/check`, { body: { url, quote: 'Oslo' } }))
        .status,
    ).toBe(403);
  });

  it('is for debaters in research and submit phases, and the fact-checker in verify', async () => {
    const d = await open();
    const judge = await d.fetch('judge_1', pages.url('/other'));
    expect(judge.status).toBe(409);
    expect(judge.body.error.code).toBe('WRONG_PHASE');
    const fc = await d.fetch('fact_checker', pages.url('/other'));
    expect(fc.body.error.code).toBe('WRONG_PHASE');
    const anon = await s.call('POST', `/v1/debate/rooms/${d.roomId}/research`, {
      body: { url: pages.url('/other') },
    });
    expect(anon.status).toBe(403);
    expect(pages.hits.get('/other') ?? 0).toBe(0);
  });

  it('refuses loopback under the default (strict) policy, caching nothing', async () => {
    const d = await open({ policy: STRICT_POLICY });
    for (const url of [
      pages.url('/other'),
      pages.url('/other', '127.0.0.1'),
      `http://[::1]:${pages.port}/other`,
    ]) {
      const r = await d.fetch('anon_1', url);
      expect(r.status, url).toBe(422);
      expect(r.body.error.code).toBe('PRIVATE_ADDRESS');
    }
    expect(pages.hits.get('/other') ?? 0).toBe(0);
    expect((await d.list(s.admin)).body.entries).toEqual([]);
  });

  it('limits fetches per seat; cache hits are free', async () => {
    const d = await open({
      policy: { allowPrivate: false, allowHosts: new Set(['localhost']) },
      rate: { max: 1, windowMs: 60_000 },
    });
    expect((await d.fetch('anon_1', pages.url('/article'))).status).toBe(200);
    expect((await d.fetch('anon_1', pages.url('/article'))).status).toBe(200); // a hit
    const limited = await d.fetch('anon_1', pages.url('/other'));
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect((await d.fetch('anon_2', pages.url('/other'))).status).toBe(200); // another seat's bucket
  });
});
