import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  adminLogin,
  buildWeb,
  bundle,
  client,
  cspViolations,
  type Env,
  newPage,
  shootOpenPages,
  shot,
  startEnv,
} from './browser.ts';

// The web app against a real server in headless Chromium: lobby, a room updating live over the
// WebSocket, the countdown from the server's deadline, and journal badges verified in the browser.

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
  // The server's Content-Security-Policy and the app agree: no page of any test broke it.
  expect(cspViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await env?.close();
});

describe('the built bundle', () => {
  it('uses the browser backends of @db8/core and never node:crypto', () => {
    const { js, sources } = bundle();
    expect(js).not.toMatch(/node:crypto|require\(["']crypto["']\)|from\s*["']crypto["']/);
    expect(sources.some((s) => s.endsWith('core/src/platform/sha256.browser.ts'))).toBe(true);
    expect(sources.some((s) => s.endsWith('sha256.node.ts') || s.endsWith('ed25519.node.ts'))).toBe(false);
  });
});

describe('the security headers, in the browser', () => {
  it('the app and the API docs load under the policy; an inline script is refused and reported', async () => {
    const page = await newPage(env);
    const res = await page.goto(`${env.url}/`);
    const csp = (await res!.allHeaders())['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    // The app rendered (its scripts and styles loaded under the policy).
    await page.locator('#root *').first().waitFor();
    expect(await page.evaluate(() => getComputedStyle(document.body).margin)).toBeDefined();
    await page.goto(`${env.url}/docs`);
    await page.locator('.swagger-ui .opblock').first().waitFor();
    expect(cspViolations).toEqual([]);
    // The detector detects: an inline script is blocked and shows up as a violation.
    const ran = await page.evaluate(async () => {
      const s = document.createElement('script');
      s.textContent = 'window.__inlineRan = true';
      document.head.append(s);
      await new Promise((r) => setTimeout(r, 50));
      return (window as unknown as { __inlineRan?: boolean }).__inlineRan === true;
    });
    expect(ran).toBe(false);
    await expect.poll(() => cspViolations.some((v) => v.includes('script-src'))).toBe(true);
    cspViolations.splice(0);
    await page.context().close();
  });
});

/** Seq numbers shown in the live log, in order. */
const liveSeqs = (page: Page) =>
  page
    .locator('[data-testid="live-log"] [data-testid="entry"]')
    .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-seq'))));

describe('lobby, room and journal', () => {
  it('lists a room made through the API, shows entries live, counts down and verifies the journal', async () => {
    const admin = client(env, adminToken);
    const room = await admin.createRoom({
      protocol: 'sealed-bid',
      title: 'Lot 7: a signed first edition',
      config: {
        item: 'signed first edition',
        bidders: 3,
        reservePrice: 100,
        biddingWindowMs: 10 * MINUTE,
        revealWindowMs: MINUTE,
        rule: 'second-price',
      },
    });

    const page = await newPage(env);
    await page.goto(`${env.url}/`);
    const row = page.locator(`tr[data-room="${room.room_id}"]`);
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain('Lot 7: a signed first edition');
    await expect(row.textContent()).resolves.toContain('sealed-bid');
    await expect(row.textContent()).resolves.toContain('open');
    await shot(page, 'lobby-observer');

    await row.getByRole('link', { name: 'Lot 7: a signed first edition' }).click();
    await page.waitForURL(`${env.url}/rooms/${room.room_id}`);
    await page.getByTestId('live-status').filter({ hasText: 'live' }).waitFor();
    await page.locator('[data-testid="live-log"] [data-seq="0"]').waitFor();
    // A marker on window survives only if the page is never reloaded.
    await page.evaluate(() => {
      (window as unknown as { __noReload: boolean }).__noReload = true;
    });

    // The countdown follows the server's deadline (bidding closes 10 minutes after creation).
    const state = await client(env).state(room.room_id);
    expect(state.deadline_ms).not.toBeNull();
    const countdown = page.getByTestId('countdown');
    await expect(
      page.locator('section.countdown').getAttribute('data-deadline-ms').then(Number),
    ).resolves.toBe(state.deadline_ms);
    const text = (await countdown.textContent()) ?? '';
    expect(text).toMatch(/^\d\d:\d\d$/);
    const [mm, ss] = text.split(':').map(Number) as [number, number];
    const left = mm * 60 + ss;
    expect(left).toBeGreaterThan(9 * 60);
    expect(left).toBeLessThanOrEqual(10 * 60);

    // Entries appended through the REST API appear without a reload: an agent joins and bids.
    const anon = client(env);
    const agent = await anon.registerAgent({ name: 'web-test-bidder' });
    const joined = await client(env, agent.api_key).join(room.room_id, { seat: 'bidder_1' });
    await page.locator('[data-testid="live-log"] [data-seq="1"]').waitFor();
    const ack = await client(env, joined.session_token).act(room.room_id, {
      seat: 'bidder_1',
      action: { type: 'bid', amount: 250 },
    });
    const sealed = page.locator(`[data-testid="live-log"] [data-seq="${ack.seq}"]`);
    await sealed.waitFor();
    await expect(sealed.textContent()).resolves.toContain('sealed · bidder_1');
    // An observer sees the commitment, never the amount. The commitment's hex digest is
    // random and may hold the digits "250" by chance, so it is cut out before the check.
    const shown = ((await sealed.textContent()) ?? '').replace(/[0-9a-f]{8,}/g, '<hex>');
    expect(shown).toContain('<hex>');
    expect(shown).not.toContain('250');
    await expect(liveSeqs(page)).resolves.toEqual([0, 1, 2]);
    await expect(page.getByTestId('room-seq').textContent()).resolves.toBe(String(ack.seq));
    await expect(
      page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload),
    ).resolves.toBe(true);
    await shot(page, 'room-observer');

    await page.getByRole('link', { name: 'Journal' }).click();
    await page.waitForURL(`${env.url}/rooms/${room.room_id}/journal`);
    await page
      .getByTestId('journal-summary')
      .filter({ hasText: '3 of 3 entries on this page verified (entries 0–2 of 3)' })
      .waitFor();
    await expect(page.getByTestId('verified').count()).resolves.toBe(3);
    await expect(page.getByTestId('unverified').count()).resolves.toBe(0);
    // The signatures were checked with the key this server signs checkpoints with.
    await expect(page.getByTestId('server-key').textContent()).resolves.toContain(
      env.server.runtime.serverKey.noteVerifierKey,
    );
    await shot(page, 'journal');

    // A server that alters an entry after the fact is caught: rewrite the genesis payload in transit.
    await page.route('**/v1/rooms/*/entries?*', async (route) => {
      const res = await route.fetch();
      const body = (await res.json()) as {
        entries: Array<{ seq: number; payload?: { config?: { reservePrice?: number } } }>;
      };
      const genesis = body.entries.find((e) => e.seq === 0);
      if (genesis?.payload?.config) genesis.payload.config.reservePrice = 1;
      await route.fulfill({ response: res, json: body });
    });
    await page.reload();
    await page
      .getByTestId('journal-summary')
      .filter({ hasText: '2 of 3 entries on this page verified, 1 failed' })
      .waitFor();
    const bad = page.locator('[data-seq="0"] [data-testid="unverified"]');
    await expect(bad.textContent()).resolves.toContain('leaf hash differs from the served one');
    await shot(page, 'journal-tampered');
    await page.context().close();
  });

  it('an unknown room URL says "Room not found": no live badge, no socket, no endless Loading', async () => {
    const page = await newPage(env);
    await page.goto(`${env.url}/rooms/no-such-room`);
    await page.getByRole('heading', { name: 'Room not found' }).waitFor();
    const main = page.locator('#root');
    await expect(main.textContent()).resolves.toContain('no room no-such-room');
    // The live room's shell never rendered: no connection badge, no second error, no log.
    await expect(page.getByTestId('live-status').count()).resolves.toBe(0);
    await expect(page.getByRole('alert').count()).resolves.toBe(0);
    await expect(page.getByTestId('live-log').count()).resolves.toBe(0);
    await expect(main.getByText('Loading…').count()).resolves.toBe(0);
    await page.getByRole('link', { name: 'All rooms' }).click();
    await page.waitForURL(`${env.url}/`);
    await shot(page, 'room-not-found-then-lobby');
    await page.goto(`${env.url}/rooms/no-such-room`);
    await page.getByRole('heading', { name: 'Room not found' }).waitFor();
    await shot(page, 'room-not-found');
    await page.context().close();
  });

  it('shows the admin the create-room form, in dark mode too', async () => {
    const page = await newPage(env, 'dark');
    await page.goto(`${env.url}/`);
    await page.evaluate((token) => {
      localStorage.setItem(
        'db8.session',
        JSON.stringify({ token, role: 'admin', principal: 'admin', expires_at: '2999-01-01T00:00:00Z' }),
      );
    }, adminToken);
    await page.reload();
    await page.getByRole('heading', { name: 'New room' }).waitFor();
    await expect(page.getByLabel('protocol', { exact: true }).inputValue()).resolves.toBe('sealed-bid');
    await expect(page.getByLabel('item').inputValue()).resolves.toBe('A signed first edition');
    await shot(page, 'lobby-admin-dark');
    // Every registered protocol gets a config form (fields or a JSON editor) without breaking the page.
    const select = page.getByLabel('protocol', { exact: true });
    const names = await select
      .locator('option')
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(names).toContain('sealed-bid');
    for (const name of names) {
      await select.selectOption(name);
      const form = page.locator('.create-room form fieldset').first();
      await expect(form.locator('input, select, textarea').count()).resolves.toBeGreaterThan(0);
      if (name === 'poker') await shot(page, 'lobby-admin-poker-form');
    }
    await page.context().close();
  });
});

/** Put an admin session into this profile without spending the one-time link again. */
async function asAdmin(page: Page, url: string, token: string): Promise<void> {
  await page.goto(`${url}/`);
  await page.evaluate((t) => {
    localStorage.setItem(
      'db8.session',
      JSON.stringify({ token: t, role: 'admin', principal: 'admin', expires_at: '2999-01-01T00:00:00Z' }),
    );
  }, token);
  await page.reload();
}

type BidRow = { seat: string; hasBid: boolean; amount?: number };
type AuctionView = { phase: string; bidders: BidRow[]; outcome: { winner: string; price: number } | null };

/** The sealed-bid view as the page shows it (the state panel is the view's JSON). */
const viewOn = async (page: Page): Promise<AuctionView> =>
  JSON.parse((await page.getByTestId('state-json').textContent()) ?? 'null') as AuctionView;
const amountOf = (v: AuctionView, seat: string) => v.bidders.find((b) => b.seat === seat)?.amount;

async function send(page: Page, legal: string, action: object): Promise<void> {
  await page.getByRole('button', { name: legal, exact: true }).click();
  await page.getByLabel('action (JSON)').fill(JSON.stringify(action));
  await page.getByRole('button', { name: 'Send action' }).click();
  const result = page.getByTestId('action-result');
  await result.waitFor();
  expect(await result.textContent()).toMatch(/^accepted as entry #\d+/);
}

describe('sealed-bid, played in the browser', () => {
  it('two bidders in their own profiles bid, the auctioneer confirms, everyone sees the outcome', async () => {
    // The admin creates the room with the auction's form and invites two bidders and an auctioneer.
    const admin = await newPage(env);
    await asAdmin(admin, env.url, adminToken);
    await admin.getByLabel('room title').fill('Two bidders, one telescope');
    await admin.getByLabel('item').fill('brass telescope');
    await admin.getByLabel('bidders').fill('2');
    await admin.getByLabel("auctioneer's confirm window (s)").fill(String((10 * MINUTE) / 1000));
    await admin.getByRole('button', { name: 'Create room' }).click();
    await admin.waitForURL(/\/rooms\/room_[0-9a-f]+$/);
    const roomId = new URL(admin.url()).pathname.split('/').at(-1)!;
    await admin.getByTestId('live-status').filter({ hasText: 'live' }).waitFor();

    const invites: string[] = [];
    const seats = ['bidder_1', 'bidder_2', 'auctioneer'];
    for (const seat of seats) {
      await admin.getByRole('button', { name: `Invite link for ${seat}` }).click();
      const link = admin.getByRole('textbox', { name: `invite URL for ${seat}` });
      await link.waitFor();
      invites.push(await link.inputValue());
    }

    // Each person opens their invite in a browser profile of their own.
    const people: Page[] = [];
    for (const [i, link] of invites.entries()) {
      const page = await newPage(env, i === 1 ? 'dark' : 'light');
      await page.goto(link);
      await page.getByRole('button', { name: 'Accept invite' }).click();
      await page.getByTestId('my-seat').filter({ hasText: seats[i]! }).waitFor();
      await page.waitForURL(`${env.url}/rooms/${roomId}`);
      people.push(page);
    }
    const [alice, bob, carol] = people as [Page, Page, Page];

    // Alice bids with the bid form; Bob below with the generic JSON form.
    await alice.getByLabel('amount').fill('150');
    await alice.getByRole('button', { name: 'Place sealed bid' }).click();
    await alice.getByTestId('bid-result').filter({ hasText: 'sealed bid of 150 recorded' }).waitFor();
    await alice.getByTestId('state-json').filter({ hasText: '"amount": 150' }).waitFor();
    await shot(alice, 'sealed-bid-alice-bid');
    // Bob's view of the room never shows Alice's sealed amount.
    await bob.getByTestId('state-json').filter({ hasText: '"hasBid": true' }).waitFor();
    const bobsView = await viewOn(bob);
    expect(bobsView.bidders.find((b) => b.seat === 'bidder_1')?.hasBid).toBe(true);
    expect(amountOf(bobsView, 'bidder_1')).toBeUndefined();

    await send(bob, 'bid', { type: 'bid', amount: 200 });
    // Everyone has bid: the server's tick reveals both bids and hands the auctioneer the turn.
    await carol.getByRole('button', { name: 'confirm', exact: true }).waitFor({ timeout: 15_000 });
    await alice.getByTestId('state-json').filter({ hasText: '"phase": "reveal"' }).waitFor();
    expect(amountOf(await viewOn(alice), 'bidder_2')).toBe(200);
    // Bob's log pairs Alice's sealed entry with the tick that revealed it, checked against its commitment.
    const revealed = bob.locator('[data-testid="live-log"] [data-seq="4"] [data-testid="revealed"]');
    await revealed.waitFor();
    expect(await revealed.textContent()).toMatch(/✓ revealed in #6 .*"amount":150/);
    await shot(carol, 'sealed-bid-auctioneer-turn');
    await shot(admin, 'sealed-bid-admin-view');
    await send(carol, 'confirm', { type: 'confirm' });

    for (const page of [alice, bob, carol, admin]) {
      await page.getByTestId('room-status').filter({ hasText: 'closed' }).waitFor();
      await page.getByTestId('state-json').filter({ hasText: '"winner": "bidder_2"' }).waitFor();
      // Second price: Bob pays Alice's bid.
      expect((await viewOn(page)).outcome).toMatchObject({ winner: 'bidder_2', price: 150 });
      // And in words, above the state: who won at what price, every final offer listed.
      const said = page.getByTestId('auction-result');
      await said.waitFor();
      expect(await said.textContent()).toMatch(/sold to bidder_2 for 150 \(second price/);
    }
    await shot(bob, 'sealed-bid-closed-dark');

    // The whole record verifies in the browser.
    await bob.getByRole('link', { name: 'Journal' }).click();
    const head = (await client(env).getRoom(roomId)).seq;
    await bob
      .getByTestId('journal-summary')
      .filter({
        hasText: `${head + 1} of ${head + 1} entries on this page verified (entries 0–${head} of ${head + 1})`,
      })
      .waitFor();
    await shot(bob, 'sealed-bid-journal-dark');
    for (const p of [admin, alice, bob, carol]) await p.context().close();
  });
});
