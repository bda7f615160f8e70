import {
  adminLogin,
  buildWeb,
  client,
  type Env,
  newPage,
  shootOpenPages,
  shot,
  startEnv,
} from 'db8/test/web/browser.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ArenaLegal, SCRIPTED_STRATEGIES } from '../../rules/index.ts';

// A tournament room on a real server, read in headless Chromium: the generic room page with the
// arena's summary — standings, the rating chart, each match linked to its room (the plots and the
// downloads: arena-plots.int.test.ts).

let env: Env;
let adminToken = '';
/** The stored admin session (role included: the lobby shows the create form to admins). */
let adminSession = '';

beforeAll(async () => {
  buildWeb();
  // Server-run matches write one input every 150 ms here, so the page is seen filling in.
  env = await startEnv({ env: { DB8_ARENA_STEP_DELAY_MS: '150', DB8_ARENA_SCAN_MS: '200' } });
  const page = await newPage(env);
  adminToken = await adminLogin(env, page);
  adminSession = (await page.evaluate(() => localStorage.getItem('db8.session'))) ?? '';
  await page.context().close();
});
afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await shootOpenPages(`arena-${ctx.task.name}`);
});
afterAll(async () => {
  await env?.close();
});

const HEAD = { size: 9, rootHash: 'ef'.repeat(32), note: 'db8-local/room/x\n9\n7+8=\n\n— db8-local sig\n' };

describe('arena room page', () => {
  it('shows the standings with a rating chart and links every match', async () => {
    const admin = client(env, adminToken);
    const room = await admin.createRoom({
      protocol: 'arena',
      title: 'web cup',
      config: {
        name: 'web cup',
        game: 'sealed-bid',
        format: { kind: 'round-robin', games: 2 },
        entrants: ['truthful', 'shade', 'lowball'].map((s) => ({ name: s, kind: 'scripted', strategy: s })),
        seed: 'web-cup',
        bootstrap: 50,
        // This test writes the schedule and results itself, as an organizer would.
        runBy: 'organizer',
      },
    });
    const j = await admin.join(room.room_id, { seat: 'organizer' });
    const org = client(env, j.session_token);
    const state = (await org.state(room.room_id)) as { legal?: { actions: ArenaLegal[] } };
    const due = state.legal!.actions[0] as Extract<ArenaLegal, { type: 'schedule' }>;
    await org.act(room.room_id, { seat: 'organizer', action: due as never });
    for (const m of due.matches) {
      const placements = m.entrants.map((entrant, i) => ({
        entrant,
        place: i + 1,
        score: i === 0 ? 100 : 0,
      }));
      await org.act(room.room_id, {
        seat: 'organizer',
        action: { type: 'result', match: m.id, room: `room_${m.id}`, head: HEAD, placements } as never,
      });
    }
    const page = await newPage(env);
    await page.addInitScript(
      (t) => localStorage.setItem('db8.session', JSON.stringify({ token: t })),
      adminToken,
    );
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(`${env.url}/rooms/${room.room_id}`);
    const standings = page.getByTestId('arena-standings');
    await standings.waitFor();
    await expect
      .poll(() => standings.getByTestId('arena-rating-chart').locator('circle.dot').count())
      .toBe(3);
    expect(await standings.getByTestId('arena-standings-table').locator('tbody tr').count()).toBe(3);
    // A match is linked by its entrants' names, not by its room's id.
    const m1 = standings.locator('a[href="/rooms/room_m1"]');
    expect(await m1.count()).toBe(1);
    expect(await m1.textContent()).toBe(`m1: ${due.matches[0]!.entrants.join(' vs ')}`);
    await shot(page, 'arena-standings-1366');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'arena-standings-390');
    await page.context().close();
  });

  it('a duplicate poker tournament shows bb/100 with its interval; a match link opens in the app', async () => {
    const admin = client(env, adminToken);
    const room = await admin.createRoom({
      protocol: 'arena',
      title: 'web duplicate',
      config: {
        name: 'web duplicate',
        game: 'poker',
        gameConfig: { hands: 20, bigBlind: 10 },
        format: { kind: 'duplicate-poker', deals: 3 },
        entrants: ['tight', 'random'].map((s) => ({ name: s, kind: 'scripted', strategy: s })),
        seed: 'web-duplicate',
        bootstrap: 0,
        runBy: 'organizer',
      },
    });
    const j = await admin.join(room.room_id, { seat: 'organizer' });
    const org = client(env, j.session_token);
    const state = (await org.state(room.room_id)) as { legal?: { actions: ArenaLegal[] } };
    const due = state.legal!.actions[0] as Extract<ArenaLegal, { type: 'schedule' }>;
    await org.act(room.room_id, { seat: 'organizer', action: due as never });
    // tight wins 60, 20 and 100 chips over the three sets' two rotations of 20 hands.
    const perSet = [60, 20, 100];
    for (const m of due.matches) {
      const set = Number(m.set.replace(/\D/g, '')) - 1;
      const half = perSet[set]! / 2;
      const placements = m.entrants.map((entrant) => ({
        entrant,
        place: entrant === 'tight' ? 1 : 2,
        score: entrant === 'tight' ? half : -half,
      }));
      await org.act(room.room_id, {
        seat: 'organizer',
        action: {
          type: 'result',
          match: m.id,
          room: `room_${m.id}`,
          head: HEAD,
          placements,
          hands: 20,
        } as never,
      });
    }
    const page = await newPage(env);
    await page.addInitScript(
      (t) => localStorage.setItem('db8.session', JSON.stringify({ token: t })),
      adminToken,
    );
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(`${env.url}/rooms/${room.room_id}`);
    const rates = page.getByTestId('arena-bb100');
    await rates.waitFor();
    // bb/100 per set: 100·60/(10·40) = 15, 5, 25 → mean +15.0; t(0.975, 2)·10/√3 = 24.8.
    const tight = rates.locator('tbody tr', { hasText: 'tight' });
    await expect.poll(() => tight.textContent()).toContain('+15.0');
    expect(await tight.textContent()).toContain('-9.8 to +39.8');
    await shot(page, 'arena-bb100-1366');
    await page.setViewportSize({ width: 390, height: 844 });
    // The bb/100 table, both plots and the matrix fit a phone: nothing wider than the screen.
    await page.getByTestId('arena-bb100-chart').waitFor();
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
      .toBeLessThanOrEqual(390);
    await shot(page, 'arena-bb100-390');
    // The match link is the app's own: the page is not reloaded (a marker on window survives).
    await page.evaluate(() => {
      (window as unknown as { __stay?: number }).__stay = 1;
    });
    await page.getByTestId('arena-standings').locator('summary').click();
    await page.locator(`a[href="/rooms/room_${due.matches[0]!.id}"]`).click();
    await expect.poll(() => page.url()).toContain(`/rooms/room_${due.matches[0]!.id}`);
    expect(await page.evaluate(() => (window as unknown as { __stay?: number }).__stay)).toBe(1);
    await page.context().close();
  });

  it('is created from the lobby with its own form, checked as you type', async () => {
    const page = await newPage(env);
    await page.addInitScript((raw) => localStorage.setItem('db8.session', raw), adminSession);
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(`${env.url}/`);
    await page.locator('#cr-protocol').selectOption('arena');
    await page.locator('#arena-name').fill('web-made cup');
    // The strategy hint follows the chosen game (the arena rules' one table).
    const hint = page.getByTestId('arena-strategies');
    await expect(hint.textContent()).resolves.toBe(
      `Scripted sealed-bid strategies: ${SCRIPTED_STRATEGIES['sealed-bid'].join(', ')}.`,
    );
    await page.locator('#arena-game').selectOption('debate');
    await hint
      .filter({ hasText: `Scripted debate strategies: ${SCRIPTED_STRATEGIES.debate.join(', ')}.` })
      .waitFor();
    await page.locator('#arena-game').selectOption('deliberation');
    await hint
      .filter({
        hasText: `Scripted deliberation strategies: ${SCRIPTED_STRATEGIES.deliberation.join(', ')}.`,
      })
      .waitFor();
    // The house judge's checklist, one point a line: a line without a word is named.
    await page.locator('#arena-delib-points').fill('burst limits\n--');
    await page.getByRole('alert').filter({ hasText: 'line 2: one line with at least one word' }).waitFor();
    await page.locator('#arena-delib-points').fill('burst limits\nquotas');
    await expect(page.getByRole('alert').filter({ hasText: 'line 2' }).count()).resolves.toBe(0);
    // Each step's window for an outside proposer: a second at least, checked as typed.
    await page.locator('#arena-deliberation-windowMs').fill('999');
    await page.getByRole('alert').filter({ hasText: 'at least 1000 ms' }).waitFor();
    await page.locator('#arena-deliberation-windowMs').fill('5000');
    await expect(page.getByRole('alert').filter({ hasText: 'at least 1000 ms' }).count()).resolves.toBe(0);
    await page.locator('#arena-game').selectOption('sealed-bid');
    // More seats per match than entrants: the schema says so before anything is sent.
    await page.locator('#arena-seats').fill('4');
    await page.getByRole('alert').filter({ hasText: 'more seats per match than entrants' }).waitFor();
    await page.locator('#arena-seats').fill('2');
    // The format's count follows its kind; an entrant's fields follow its kind.
    await page.locator('#arena-format').selectOption('swiss');
    await expect(page.locator('label[for="arena-count"]').textContent()).resolves.toBe('rounds');
    await page.locator('#arena-count').fill('2');
    await page.getByRole('button', { name: 'Add an entrant' }).click();
    await page.locator('#arena-e3-name').fill('second truthful');
    await page.locator('#arena-e3-strategy').fill('truthful');
    await page.locator('#arena-e2-kind').selectOption('model');
    await page.locator('#arena-e2-provider').fill('scripted');
    await page.locator('#arena-e2-model').fill('echo');
    await shot(page, 'arena-create-1366');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'arena-create-390');
    // The title left blank: the tournament's name is offered, and sent, as the room's title.
    await expect(page.locator('#cr-title').getAttribute('placeholder')).resolves.toBe('web-made cup');
    await page.getByRole('button', { name: 'Create room' }).click();
    await page.waitForURL(/\/rooms\/[^/]+$/);
    const roomId = decodeURIComponent(page.url().split('/rooms/')[1]!);
    const standings = page.getByTestId('arena-standings');
    await standings.waitFor();
    await expect(standings.textContent()).resolves.toContain('web-made cup: sealed-bid, swiss');
    expect(await standings.getByTestId('arena-standings-table').locator('tbody tr').count()).toBe(4);
    // The room holds the config the form built: the schema's, with the model entrant as typed.
    const room = await client(env, adminToken).getRoom(roomId);
    expect(room.title).toBe('web-made cup');
    const config = room.config as { format: unknown; entrants: Array<Record<string, unknown>> };
    expect(config.format).toEqual({ kind: 'swiss', rounds: 2 });
    expect(config.entrants[2]).toEqual({
      name: 'lowballer',
      kind: 'model',
      provider: 'scripted',
      model: 'echo',
    });
    expect(config.entrants[3]).toEqual({ name: 'second truthful', kind: 'scripted', strategy: 'truthful' });
    await page.context().close();
  });

  it('plays a tournament made in the lobby by itself: the standings fill in to the end', async () => {
    const page = await newPage(env);
    await page.addInitScript((raw) => localStorage.setItem('db8.session', raw), adminSession);
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(`${env.url}/`);
    await page.locator('#cr-protocol').selectOption('arena');
    // The form's defaults: three scripted sealed-bid entrants, a round robin of two games per pair.
    await page.locator('#arena-name').fill('lobby cup');
    await page.getByRole('button', { name: 'Create room' }).click();
    await page.waitForURL(/\/rooms\/[^/]+$/);
    const standings = page.getByTestId('arena-standings');
    await standings.waitFor();
    const played = async () =>
      Number(/(\d+) of 6 matches played/.exec((await standings.textContent()) ?? '')?.[1]);
    await expect.poll(played).toBeGreaterThanOrEqual(1);
    await shot(page, 'arena-lobby-playing-1366');
    await expect.poll(() => standings.locator('h2').textContent()).toContain('final');
    expect(await played()).toBe(6);
    // Every row has its four games (each entrant meets the other two twice); a match links to its room.
    for (const row of await standings.getByTestId('arena-standings-table').locator('tbody tr').all()) {
      const wdl = (await row.locator('td[data-label="W-D-L"]').textContent())!.split('-').map(Number);
      expect(wdl.reduce((a, b) => a + b, 0)).toBe(4);
    }
    await shot(page, 'arena-lobby-final-1366');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'arena-lobby-final-390');
    await standings.locator('summary').click();
    await standings.locator('li a').first().click();
    await expect.poll(() => page.url()).toMatch(/\/rooms\/room_[0-9a-f]+-m1$/);
    await page.getByText('closed').first().waitFor();
    await shot(page, 'arena-lobby-match-390');
    // The lobby lists the tournament by its name (given no title), not by its room id.
    await page.goto(`${env.url}/`);
    await page.getByRole('link', { name: 'lobby cup', exact: true }).waitFor();
    await page.context().close();
  });
});
