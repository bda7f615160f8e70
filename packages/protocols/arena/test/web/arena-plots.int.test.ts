import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  adminLogin,
  buildWeb,
  client,
  type Env,
  newPage,
  SCREENS,
  shootOpenPages,
  shot,
  startEnv,
} from 'db8/test/web/browser.ts';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ArenaLegal } from '../../rules/index.ts';

// A finished tournament's plots in headless Chromium: the rating chart, the bankroll curves with
// their bands and the win-rate matrix; a table's CSV download says what the table says (a hostile
// entrant name included); nothing is wider than a phone.

let env: Env;
let adminToken = '';

beforeAll(async () => {
  buildWeb();
  env = await startEnv();
  const page = await newPage(env);
  adminToken = await adminLogin(env, page);
  await page.context().close();
});
afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await shootOpenPages(`arena-plots-${ctx.task.name}`);
});
afterAll(async () => {
  await env?.close();
});

const HEAD = { size: 9, rootHash: 'ef'.repeat(32), note: 'db8-local/room/x\n9\n7+8=\n\n— db8-local sig\n' };
/** A name a spreadsheet would run as a formula, with a quote and a comma to escape. */
const HOSTILE = '=1+2, "quoted"';
const STRENGTH: Record<string, number> = { strong: 3, [HOSTILE]: 2, weak: 1 };

/** Build and finish the tournament through the organizer's REST actions, as a runner would. */
async function finishedTournament(): Promise<string> {
  const admin = client(env, adminToken);
  const room = await admin.createRoom({
    protocol: 'arena',
    title: 'plot cup',
    config: {
      name: 'plot cup',
      game: 'sealed-bid',
      format: { kind: 'round-robin', games: 4 },
      entrants: Object.keys(STRENGTH).map((name) => ({ name, kind: 'person' })),
      seed: 'plot-cup',
      bootstrap: 40,
      // Its results are this test's to write (the server would play person entrants itself).
      runBy: 'organizer',
    },
  });
  const j = await admin.join(room.room_id, { seat: 'organizer' });
  const org = client(env, j.session_token);
  const state = (await org.state(room.room_id)) as { legal?: { actions: ArenaLegal[] } };
  const due = state.legal!.actions[0] as Extract<ArenaLegal, { type: 'schedule' }>;
  await org.act(room.room_id, { seat: 'organizer', action: due as never });
  // The stronger always wins except in each pair's fourth game, which the weaker takes.
  const met = new Map<string, number>();
  for (const m of due.matches) {
    const [a, b] = m.entrants as [string, string];
    const pair = [a, b].sort().join('|');
    met.set(pair, (met.get(pair) ?? 0) + 1);
    const upset = met.get(pair) === 4;
    const winner = STRENGTH[a]! > STRENGTH[b]! !== upset ? a : b;
    const placements = m.entrants.map((entrant) => ({
      entrant,
      place: entrant === winner ? 1 : 2,
      score: entrant === winner ? 10 * STRENGTH[entrant]! : -5,
    }));
    await org.act(room.room_id, {
      seat: 'organizer',
      action: { type: 'result', match: m.id, room: `room_${m.id}`, head: HEAD, placements } as never,
    });
  }
  await org.act(room.room_id, { seat: 'organizer', action: { type: 'close' } as never });
  return room.room_id;
}

async function download(page: Page, testId: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  return readFile((await file.path())!, 'utf8');
}

describe('arena plots', () => {
  it('draws the three charts, downloads tables that match them, and fits a phone', async () => {
    const roomId = await finishedTournament();
    const page = await newPage(env);
    await page.addInitScript(
      (t) => localStorage.setItem('db8.session', JSON.stringify({ token: t })),
      adminToken,
    );
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(`${env.url}/rooms/${roomId}`);
    const standings = page.getByTestId('arena-standings');
    await standings.waitFor();
    // Its match rooms are named, not on this server: the page checks the log alone and says so.
    expect(await page.getByTestId('arena-unchecked').textContent()).toContain(
      'no match room is on this server to check (12: m1, m2, m3, …)',
    );
    const ratings = page.getByTestId('arena-rating-chart');
    await expect.poll(() => ratings.locator('circle.dot').count()).toBe(3);
    // Each dot has its interval drawn as a bar, and is hollow: three entrants, 24 games, no rank clear.
    expect(await ratings.locator('.interval').count()).toBe(3);
    expect(await ratings.locator('circle.dot.hollow').count()).toBe(3);
    const bankroll = page.getByTestId('arena-bankroll-chart');
    expect(await bankroll.locator('.recharts-line').count()).toBe(3);
    expect(await bankroll.locator('.recharts-area').count()).toBe(3);
    // The matrix: strong won 3 of its 4 games against each of the others (75%).
    const matrix = page.getByTestId('arena-matrix');
    expect(await matrix.locator('tbody tr').count()).toBe(3);
    const strongRow = matrix.locator('tbody tr', { has: page.locator('th', { hasText: /^strong$/ }) });
    expect(await strongRow.locator('td .rate').allTextContents()).toEqual(['75%', '75%']);
    await shot(page, 'arena-plots-1366');
    await standings.screenshot({ path: join(SCREENS, 'arena-plots-only-1366.png') });

    // The standings CSV: one line per table row, in the table's order, with the table's ratings.
    const csv = (await download(page, 'arena-csv-standings')).split('\r\n');
    expect(csv[0]).toBe('rank,entrant,rating,ci_low,ci_high,wins,draws,losses,points,score,sets,byes');
    const rows = standings.getByTestId('arena-standings-table').locator('tbody tr');
    const shown = await rows.evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')),
    );
    expect(shown).toHaveLength(3);
    // Header, the table's rows, and the empty tail after the last CRLF.
    expect(csv).toHaveLength(1 + shown.length + 1);
    shown.forEach((cells, i) => {
      const [entrant, rating, interval, wdl, points, score] = cells;
      const [low, high] = interval!.split('\u2013');
      // The hostile name is quoted, its quotes doubled, and a leading ' keeps it from being a formula.
      const field = entrant === HOSTILE ? `"'=1+2, ""quoted"""` : entrant;
      expect(csv[i + 1]).toBe(
        [i + 1, field, rating, low, high, ...wdl!.split('-'), points, score, 8, 0].join(','),
      );
    });

    // The matrix JSON: the cells the grid shows.
    const cells = JSON.parse(await download(page, 'arena-json-matrix')) as Array<Record<string, unknown>>;
    expect(cells).toHaveLength(6);
    expect(cells.find((c) => c.entrant === 'strong' && c.opponent === 'weak')).toEqual({
      entrant: 'strong',
      opponent: 'weak',
      wins: 3,
      draws: 0,
      losses: 1,
      games: 4,
      win_rate: 0.75,
    });

    await page.setViewportSize({ width: 390, height: 844 });
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
      .toBeLessThanOrEqual(390);
    await shot(page, 'arena-plots-390');
    await standings.screenshot({ path: join(SCREENS, 'arena-plots-only-390.png') });
    await page.context().close();
  });
});
