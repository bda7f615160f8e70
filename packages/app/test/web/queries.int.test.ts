import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  adminLogin,
  buildWeb,
  client,
  type Env,
  newPage,
  shootOpenPages,
  shot,
  startEnv,
} from './browser.ts';

// How the web app reads (packages/web/src/lib/query.ts): a refusal is the server's answer and is
// asked once, and a page with a live feed is refreshed by the feed, not by polling.

const MINUTE = 60_000;
let env: Env;
let adminToken: string;

beforeAll(async () => {
  buildWeb();
  env = await startEnv();
  const page = await newPage(env);
  adminToken = await adminLogin(env, page);
  await page.context().close();
});

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await shootOpenPages(ctx.task.name);
});

afterAll(async () => {
  await env?.close();
});

/** Every GET the page makes of exactly this path (query string aside). */
function countGets(page: Page, path: string): { count: () => number } {
  let n = 0;
  page.on('request', (r) => {
    if (r.method() === 'GET' && new URL(r.url()).pathname === path) n++;
  });
  return { count: () => n };
}

describe('reads through TanStack Query', () => {
  it('asks for an unknown room once: a 404 is an answer, not retried', async () => {
    const page = await newPage(env);
    const gets = countGets(page, '/v1/rooms/no-such-room');
    await page.goto(`${env.url}/rooms/no-such-room`);
    // With retries the page stays on "Loading…" until the last one, so by now every try was made.
    await page.getByRole('heading', { name: 'Room not found' }).waitFor();
    expect(gets.count()).toBe(1);
    await page.context().close();
  });

  it('asks for an unknown poker table once, and shows the API message', async () => {
    const page = await newPage(env);
    const gets = countGets(page, '/v1/tables/no-such-table');
    await page.goto(`${env.url}/tables/no-such-table`);
    await page.getByRole('heading', { name: 'Table not found' }).waitFor();
    expect(gets.count()).toBe(1);
    const shown = await page.locator('#root').textContent();
    // The server's own message for the refusal, as the SDK reads it from `{error:{message}}`.
    const res = await fetch(`${env.url}/v1/tables/no-such-table`);
    expect(res.status).toBe(404);
    const refusal = ((await res.json()) as { error: { message: string } }).error.message;
    expect(refusal).not.toBeNull();
    expect(shown).toContain(refusal);
    await page.context().close();
  });

  it("updates a room's seats from the socket's entries, with no timer reading the room again", async () => {
    const room = await client(env, adminToken).createRoom({
      protocol: 'sealed-bid',
      title: 'Seats follow the feed',
      config: {
        item: 'A feed-driven lot',
        bidders: 2,
        reservePrice: 100,
        biddingWindowMs: 10 * MINUTE,
        revealWindowMs: MINUTE,
        rule: 'second-price',
      },
    });
    const page = await newPage(env);
    await page.goto(`${env.url}/rooms/${room.room_id}`);
    await page.getByTestId('live-status').filter({ hasText: 'live' }).waitFor();
    const seat = page.locator('ul.seats li').filter({ hasText: 'bidder_1' });
    await expect(seat.textContent()).resolves.toContain('open');

    // Someone else takes the seat: the join entry arrives over the socket and refreshes the room's
    // record (its seats). Nothing polls GET /v1/rooms/:id, so only the feed can make this happen.
    const agent = await client(env).registerAgent({ name: 'feed-test-bidder' });
    await client(env, agent.api_key).join(room.room_id, { seat: 'bidder_1' });
    await page.locator('[data-testid="live-log"] [data-seq="1"]').waitFor();
    await expect.poll(() => seat.textContent()).toContain('taken');
    await shot(page, 'room-seat-taken-by-feed');
    await page.context().close();
  });
});
