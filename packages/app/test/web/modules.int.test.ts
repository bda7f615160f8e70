import { JoinTableResponseSchema, POKER_PROTOCOL_VERSION, TableSummarySchema } from '@db8/poker';
import { PokerSocket } from '@db8/poker/client';
import type { Locator, Page } from 'playwright-core';
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

// Protocol modules in headless Chromium: each module's stylesheet stays inside its scope (poker's
// `.chip` once turned every `button.chip` in the app — the debate seat list's Join and Invite link —
// into an orange dot), the registry's nav links and room views render, and the pages are photographed.

let env: Env;
/** The stored admin session (the login link is one-time): each page starts with it. */
let adminSession = '';
let adminToken = '';

beforeAll(async () => {
  buildWeb();
  env = await startEnv();
  const page = await newPage(env);
  adminToken = await adminLogin(env, page);
  adminSession = (await page.evaluate(() => localStorage.getItem('db8.session'))) ?? '';
  await page.context().close();
});

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await shootOpenPages(`modules-${ctx.task.name}`);
});

afterAll(async () => {
  await env?.close();
});

async function adminPage(): Promise<Page> {
  const page = await newPage(env);
  await page.addInitScript((s) => localStorage.setItem('db8.session', s), adminSession);
  return page;
}

/** The styles that made poker's chip: an orange disc with a dashed border, 0.8rem wide. */
const chipLook = (l: Locator) =>
  l.evaluate((el) => {
    const s = getComputedStyle(el);
    return {
      background: s.backgroundColor,
      borderStyle: s.borderTopStyle,
      width: el.getBoundingClientRect().width,
      radius: s.borderTopLeftRadius,
    };
  });
const POKER_ORANGE = 'rgb(217, 119, 6)';

describe('module styles stay in their module', () => {
  it("the debate seat list's Join and Invite link buttons are not poker chips", async () => {
    const room = await client(env, adminToken).createRoom({
      protocol: 'debate',
      title: 'Scoped styles',
      config: { topic: 'Should module styles leak?', debaters: 3, judges: 1, viewers: 1 },
    });
    const page = await adminPage();
    await page.goto(`${env.url}/rooms/${room.room_id}`);
    const seats = page.locator('.mod-debate section.seat-card');
    const join = seats.getByRole('button', { name: 'Join', exact: true }).first();
    const invite = seats.getByRole('button', { name: 'Invite link for anon_1' });
    await invite.waitFor();
    // Poker's stylesheet is in the bundle (the module registry imports it), yet nothing here matches it.
    for (const button of [join, invite]) {
      const look = await chipLook(button);
      expect(look.background).not.toBe(POKER_ORANGE);
      expect(look.borderStyle).not.toBe('dashed');
      expect(look.width).toBeGreaterThan(30);
      // The app's own pill style (styles.css `button.chip`) still applies.
      expect(look.radius).toBe('999px');
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, 'modules-debate-room');
    await page.context().close();
  });

  it("the generic room's seat buttons are not poker chips either", async () => {
    const room = await client(env, adminToken).createRoom({
      protocol: 'sealed-bid',
      config: {
        item: 'A signed first edition',
        bidders: 2,
        reservePrice: 100,
        biddingWindowMs: 600_000,
        revealWindowMs: 120_000,
        rule: 'second-price',
      },
    });
    const page = await adminPage();
    await page.goto(`${env.url}/rooms/${room.room_id}`);
    const invite = page.getByRole('button', { name: 'Invite link for bidder_1' });
    await invite.waitFor();
    expect((await chipLook(invite)).background).not.toBe(POKER_ORANGE);
    // The seat buttons are the generic page's own, outside any module's scope (sealed-bid's summary
    // above the state is inside its own).
    await expect(invite.evaluate((el) => el.closest('.module-scope') === null)).resolves.toBe(true);
    await page.context().close();
  });
});

describe('registry-driven pages', () => {
  it('the lobby lists every module nav link and the create form', async () => {
    const page = await adminPage();
    await page.goto(`${env.url}/`);
    await page.getByRole('heading', { name: 'New room' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'main' });
    for (const name of ['Rooms', 'Leaderboard', 'Tables', 'Table admin'])
      await expect(nav.getByRole('link', { name, exact: true }).count()).resolves.toBe(1);
    await page.getByLabel('protocol', { exact: true }).selectOption('poker');
    await expect(page.getByLabel('big blind').inputValue()).resolves.toBe('10');
    await shot(page, 'modules-lobby');
    await page.context().close();
  });

  it('a poker room opens as its table, with chips drawn by poker.css inside the poker scope', async () => {
    const r = await client(env, adminToken).request(TableSummarySchema, 'POST', '/v1/admin/tables', {
      title: 'Scoped chips',
      seats: 2,
      small_blind: 5,
      big_blind: 10,
      starting_stack: 1000,
      action_timeout_ms: 60_000,
      min_players: 2,
    });
    // Two seated agents that never act: the first hand is dealt and waits on its long timeout.
    const socks: PokerSocket[] = [];
    for (const name of ['ann', 'bob']) {
      const reg = await client(env).registerAgent({ name });
      const join = await client(env, reg.api_key).request(
        JoinTableResponseSchema,
        'POST',
        `/v1/tables/${r.table_id}/join`,
        { client_protocol_version: POKER_PROTOCOL_VERSION },
      );
      socks.push(await PokerSocket.connect({ url: join.ws_url, token: join.session_token }));
    }
    const page = await adminPage();
    // The generic room URL: the registry's poker room view draws the table.
    await page.goto(`${env.url}/rooms/${r.table_id}`);
    await page.locator('.mod-poker [data-testid="poker-table"][data-hand="1"]').waitFor();
    const chip = page.locator('.mod-poker [data-testid="poker-table"] .chip').first();
    const look = await chipLook(chip);
    expect(look.background).toBe(POKER_ORANGE);
    expect(look.borderStyle).toBe('dashed');
    await shot(page, 'modules-poker-table');
    for (const s of socks) s.close();
    await page.context().close();
  });
});
