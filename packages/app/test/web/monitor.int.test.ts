import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  adminLogin,
  buildWeb,
  client,
  cspViolations,
  type Env,
  newPage,
  offTheSide,
  SCREENS,
  shootOpenPages,
  shot,
  startEnv,
} from './browser.ts';

// The admin's room monitor (/admin/rooms), the room inspector on the journal page and readable
// times on the generic room page, in headless Chromium against a real server, at a laptop's
// 1366×900 and a phone's 390×844. Screenshots: monitor-*.png, inspector-*.png, generic-dates-*.png.

const MINUTE = 60_000;
const VIEWPORTS = [
  { name: 'laptop', width: 1366, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

let env: Env;
let adminToken: string;
/** A signed-in admin's browser profile (the session lives in its localStorage). */
let adminPage: Page;

beforeAll(async () => {
  buildWeb();
  env = await startEnv();
  adminPage = await newPage(env);
  adminToken = await adminLogin(env, adminPage);
});

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await shootOpenPages(ctx.task.name);
  expect(cspViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await env?.close();
});

/** A sealed-bid room with two agents seated; bidder_1 has sealed a bid of `amount`. */
async function auction(title: string, amount: number) {
  const admin = client(env, adminToken);
  const room = await admin.createRoom({
    protocol: 'sealed-bid',
    title,
    config: {
      item: title,
      bidders: 2,
      reservePrice: 100,
      biddingWindowMs: 10 * MINUTE,
      revealWindowMs: MINUTE,
      rule: 'second-price',
    },
  });
  const seats: Record<string, { agent: string; token: string }> = {};
  for (const seat of ['bidder_1', 'bidder_2']) {
    const agent = await client(env).registerAgent({ name: `monitor-${seat}` });
    const j = await client(env, agent.api_key).join(room.room_id, { seat });
    seats[seat] = { agent: agent.agent_id, token: j.session_token };
  }
  const bid = await client(env, seats.bidder_1!.token).act(room.room_id, {
    seat: 'bidder_1',
    action: { type: 'bid', amount },
  });
  return { roomId: room.room_id, seats, bidSeq: bid.seq };
}

async function fits(page: Page, what: string): Promise<void> {
  expect(await offTheSide(page), what).toEqual([]);
}

describe('the room monitor', () => {
  it('lists every live room with its seats, holders, age and activity; Inspect opens the journal; End ends it', async () => {
    const a = await auction('Monitor lot A', 4321);
    const b = await auction('Monitor lot B', 555);
    const page = adminPage;
    for (const vp of VIEWPORTS) {
      await page.setViewportSize({ width: vp.width, height: vp.height });
      await page.goto(`${env.url}/`);
      await page.getByRole('navigation', { name: 'main' }).getByRole('link', { name: 'Monitor' }).click();
      await page.waitForURL(`${env.url}/admin/rooms`);
      const row = page.locator(`tr[data-room="${a.roomId}"]`);
      await row.waitFor();
      const text = (await row.textContent()) ?? '';
      expect(text).toContain('Monitor lot A');
      expect(text).toContain('sealed-bid');
      // Who holds each seat (admin-only: the seats are anonymous to everyone else while it runs).
      expect(text).toContain(a.seats.bidder_1!.agent);
      expect(text).toContain(a.seats.bidder_2!.agent);
      expect(text).toMatch(/just now|\d+ s ago/);
      await expect(row.getByRole('link', { name: 'Inspect' }).count()).resolves.toBe(1);
      await expect(row.getByRole('button', { name: 'End' }).count()).resolves.toBe(1);
      await fits(page, `monitor at ${vp.width}`);
      await shot(page, `monitor-${vp.name}`);
    }

    // End room B, with a reason, from the phone layout.
    const rowB = page.locator(`tr[data-room="${b.roomId}"]`);
    await rowB.getByRole('button', { name: 'End' }).click();
    await rowB.getByLabel('reason (optional)').fill('ended from the monitor test');
    await fits(page, 'monitor with the end form open');
    await shot(page, 'monitor-phone-ending');
    await rowB.getByRole('button', { name: 'End now' }).click();
    await rowB.waitFor({ state: 'detached' });
    const state = await client(env).state(b.roomId);
    expect(state.status).toBe('closed');
    const entries = await client(env).entries(b.roomId, { fromSeq: state.seq });
    expect(entries.entries[0]).toMatchObject({
      kind: 'close',
      payload: { ended: { reason: 'ended from the monitor test' } },
    });
    // Shown again, closed and not endable, under "all rooms".
    await page.getByLabel('show').selectOption('all');
    const closed = page.locator(`tr[data-room="${b.roomId}"]`);
    await closed.waitFor();
    await expect(closed.textContent()).resolves.toContain('closed');
    await expect(closed.getByRole('button', { name: 'End' }).count()).resolves.toBe(0);

    // Inspect opens the room's journal with its inspector.
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.getByLabel('show').selectOption('open');
    await page.locator(`tr[data-room="${a.roomId}"]`).getByRole('link', { name: 'Inspect' }).click();
    await page.waitForURL(`${env.url}/rooms/${a.roomId}/journal?inspect`);
    await page.getByTestId('inspector-seq').waitFor();

    // Everyone else gets the monitor's "admins only", and its API refuses them.
    const anon = await newPage(env);
    await anon.goto(`${env.url}/admin/rooms`);
    await anon.getByText('Admins only').waitFor();
    await expect(anon.getByRole('link', { name: 'Monitor' }).count()).resolves.toBe(0);
    await expect(client(env, a.seats.bidder_1!.token).adminRooms()).rejects.toMatchObject({ status: 403 });
    await anon.context().close();
  });
});

describe('the room inspector', () => {
  it('steps through the log with the state and each view at every seq; the admin sees sealed bids, others do not', async () => {
    const { roomId, seats, bidSeq } = await auction('Inspector lot', 7777);
    const page = adminPage;
    for (const vp of VIEWPORTS) {
      await page.setViewportSize({ width: vp.width, height: vp.height });
      await page.goto(`${env.url}/rooms/${roomId}/journal?inspect`);
      const inspector = page.getByTestId('inspector');
      await page
        .getByTestId('inspector-seq')
        .filter({ hasText: `seq ${bidSeq} / ${bidSeq}` })
        .waitFor();
      await expect(page.getByTestId('inspector-summary').textContent()).resolves.toContain(
        `refolded in this browser to seq ${bidSeq} of ${bidSeq}`,
      );
      // At the bid: the entry that made this state is shown, marked, and so is its row in the log.
      await expect(inspector.locator(`.entries.inspected [data-seq="${bidSeq}"]`).count()).resolves.toBe(1);
      await expect(
        page.locator(`.journal-log [data-seq="${bidSeq}"][aria-current="step"]`).count(),
      ).resolves.toBe(1);
      // The admin sees the state itself, the sealed bid included, with what the bid changed marked.
      const json = page.getByTestId('inspector-json');
      await expect(json.textContent()).resolves.toContain('7777');
      await expect(page.getByTestId('inspector-changed').textContent()).resolves.toMatch(/changed: .*bids/);
      await expect(json.locator('[data-changed]').count()).resolves.toBeGreaterThan(0);
      // Instants read as dates beside their milliseconds.
      await expect(json.locator('time.when').count()).resolves.toBeGreaterThan(0);
      await fits(page, `inspector at ${vp.width}`);
      await shot(page, `inspector-admin-${vp.name}`);
    }
    // Step back to the genesis: no bid yet in any view.
    await page.getByRole('button', { name: 'first entry' }).click();
    await page
      .getByTestId('inspector-seq')
      .filter({ hasText: `seq 0 / ${bidSeq}` })
      .waitFor();
    await expect(page.getByTestId('inspector-json').textContent()).resolves.not.toContain('7777');
    await page.getByRole('button', { name: 'next entry' }).click();
    await page
      .getByTestId('inspector-seq')
      .filter({ hasText: `seq 1 / ${bidSeq}` })
      .waitFor();
    // Each viewer's view at this seq: bidder_2's view of the bid entry hides bidder_1's amount.
    await page.getByRole('button', { name: `inspect entry ${bidSeq}` }).click();
    await page
      .getByTestId('inspector-seq')
      .filter({ hasText: `seq ${bidSeq} / ${bidSeq}` })
      .waitFor();
    await page.getByRole('tab', { name: 'seat bidder_2' }).click();
    await expect(page.getByTestId('inspector-json').textContent()).resolves.not.toContain('7777');
    await page.getByRole('tab', { name: 'seat bidder_1' }).click();
    await expect(page.getByTestId('inspector-json').textContent()).resolves.toContain('7777');
    await shot(page, 'inspector-admin-seat-view');

    // An observer: the bid is sealed from it, so the refold stops before it and says so; the
    // amount is nowhere on the page, and only the observer's view is offered.
    const anon = await newPage(env);
    await anon.setViewportSize({ width: 390, height: 844 });
    // The inspector starts on request (it loads the whole log).
    await anon.goto(`${env.url}/rooms/${roomId}/journal`);
    await anon.locator('[data-testid="entry"][data-seq="0"]').waitFor();
    await expect(anon.getByTestId('inspector-seq').count()).resolves.toBe(0);
    await anon.getByRole('button', { name: 'Inspect', exact: true }).click();
    await anon.getByTestId('inspector-stopped').waitFor();
    await expect(anon.getByTestId('inspector-stopped').textContent()).resolves.toContain(
      `seq ${bidSeq} is sealed`,
    );
    await anon
      .getByTestId('inspector-seq')
      .filter({ hasText: `/ ${bidSeq - 1}` })
      .waitFor();
    await expect(anon.getByRole('tab').allTextContents()).resolves.toEqual(['observer']);
    expect(await anon.locator('#root').textContent()).not.toContain('7777');
    await fits(anon, 'inspector as an observer on a phone');
    await shot(anon, 'inspector-observer-phone');
    await anon.context().close();

    // The bidder itself (its own seat token in a fresh browser): its own bid refolds, its view only.
    const bidder = await newPage(env);
    await bidder.goto(`${env.url}/`);
    await bidder.evaluate(
      ([id, token]) =>
        localStorage.setItem(
          `db8.seat.${id}`,
          JSON.stringify({
            room_id: id,
            seat: 'bidder_1',
            session_token: token,
            principal: 'x',
            expires_at: '2999-01-01T00:00:00Z',
          }),
        ),
      [roomId, seats.bidder_1!.token] as const,
    );
    await bidder.goto(`${env.url}/rooms/${roomId}/journal?seq=${bidSeq}`);
    await bidder
      .getByTestId('inspector-seq')
      .filter({ hasText: `seq ${bidSeq} / ${bidSeq}` })
      .waitFor();
    await expect(bidder.getByRole('tab').allTextContents()).resolves.toEqual(['seat bidder_1', 'observer']);
    await expect(bidder.getByTestId('inspector-json').textContent()).resolves.toContain('7777');
    await bidder.context().close();
  });
});

describe('readable times on the generic room page', () => {
  it("a sealed-bid room's state shows its instants as dates, not bare milliseconds", async () => {
    const { roomId, seats } = await auction('Dates lot', 150);
    // The second bid ends bidding: the server's tick entry records the deadline it ran at.
    await client(env, seats.bidder_2!.token).act(roomId, {
      seat: 'bidder_2',
      action: { type: 'bid', amount: 140 },
    });
    const page = await newPage(env);
    for (const vp of VIEWPORTS) {
      await page.setViewportSize({ width: vp.width, height: vp.height });
      await page.goto(`${env.url}/rooms/${roomId}`);
      const json = page.getByTestId('state-json');
      await json.locator('time.when').first().waitFor();
      const closes = (await client(env).state(roomId)).view as { closesAt: number };
      const when = json.locator(`time.when[datetime="${new Date(closes.closesAt).toISOString()}"]`);
      await expect(when.count()).resolves.toBeGreaterThan(0);
      await expect(when.first().getAttribute('data-when')).resolves.toMatch(/20\d\d/);
      // The date is drawn beside the number, which stays: the block is still JSON to copy.
      expect(JSON.parse((await json.textContent()) ?? '')).toMatchObject({ closesAt: closes.closesAt });
      // The log's tick entry: its payload's deadline read as a date under the raw summary.
      const tick = page.locator('[data-testid="live-log"] .entry.kind-tick').first();
      await tick.locator('.instants time').waitFor();
      await expect(tick.locator('.instants').textContent()).resolves.toMatch(/^deadline .*20\d\d/);
      // Amounts are not dates.
      await expect(json.textContent()).resolves.toMatch(/"reservePrice": 100,?\n/);
      await fits(page, `generic room at ${vp.width}`);
      await shot(page, `generic-dates-${vp.name}`);
      await json.screenshot({ path: join(SCREENS, `generic-dates-${vp.name}-state.png`) });
    }
    await page.context().close();
  });
});
