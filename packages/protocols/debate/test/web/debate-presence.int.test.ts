import {
  adminLogin,
  buildWeb,
  client,
  cspViolations,
  type Env,
  newPage,
  shot,
  startEnv,
} from 'db8/test/web/browser.ts';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

// Presence and "who's typing" in the debate room page: two people hold debater seats in two browser
// profiles; each sees the other connected, sees the other typing while they edit a draft, sees the
// typing go once the signal expires, and sees them leave. Screenshots at both sizes.

const SEC = 1000;
let env: Env;
let adminToken: string;

beforeAll(async () => {
  buildWeb();
  env = await startEnv();
  const page = await newPage(env);
  adminToken = await adminLogin(env, page);
  await page.context().close();
});
afterEach(() => {
  expect(cspViolations.splice(0)).toEqual([]);
});
afterAll(async () => {
  await env?.close();
});

async function joinAs(roomId: string, seat: string): Promise<Page> {
  const inv = await client(env, adminToken).createInvite(roomId, { seat });
  const page = await newPage(env);
  await page.goto(`${env.url}/rooms/${roomId}/join#invite=${inv.invite}`);
  await page.getByRole('button', { name: 'Accept invite' }).click();
  await page.getByTestId('my-seat').filter({ hasText: seat }).waitFor();
  await page.getByTestId('live-status').filter({ hasText: 'live' }).waitFor();
  return page;
}

const dotOn = (page: Page, seat: string) =>
  page.getByTestId(`presence-${seat}`).evaluate((el) => el.classList.contains('on'));

describe('presence in the debate room', () => {
  it('shows who is connected and who is typing, and both go away', { timeout: 240 * SEC }, async () => {
    const room = await client(env, adminToken).createRoom({
      protocol: 'debate',
      title: 'Presence check',
      config: {
        topic: 'Should cities ban cars from their centres?',
        tags: ['urbanism'],
        debaters: 3,
        judges: 1,
        viewers: 0,
        timings: { research_ms: 0, submit_ms: 600 * SEC },
      },
    });
    const roomId = room.room_id;
    const me = await joinAs(roomId, 'anon_1');
    const other = await joinAs(roomId, 'anon_2');

    // Both connected, each seen by the other; anon_3 holds no socket.
    await expect.poll(() => dotOn(me, 'anon_2')).toBe(true);
    await expect.poll(() => dotOn(other, 'anon_1')).toBe(true);
    expect(await dotOn(me, 'anon_3')).toBe(false);
    await expect(me.getByTestId('presence-anon_2').textContent()).resolves.toBe('connected: ');

    // anon_2 edits its draft: anon_1 sees it typing (and the summary says so, politely live).
    await other.locator('#draft-content').click();
    await other.locator('#draft-content').pressSequentially('Cars out, buses in', { delay: 20 });
    await me.getByTestId('typing-anon_2').waitFor();
    await expect(me.getByTestId('presence-summary').textContent()).resolves.toMatch(/typing/);
    await me.setViewportSize({ width: 1366, height: 900 });
    await shot(me, 'debate-presence-typing-1366');
    await me.setViewportSize({ width: 390, height: 844 });
    await shot(me, 'debate-presence-typing-390');

    // No fresh signal: the server expires it and anon_1's page drops the indicator.
    await me.getByTestId('typing-anon_2').waitFor({ state: 'detached', timeout: 60 * SEC });

    // anon_2 leaves: no longer connected.
    await other.context().close();
    await expect.poll(() => dotOn(me, 'anon_2')).toBe(false);
    await me.setViewportSize({ width: 1366, height: 900 });
    await shot(me, 'debate-presence-left-1366');
  });
});
