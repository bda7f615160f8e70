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
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ArenaView, SCRIPTED_STRATEGIES } from '../../rules/index.ts';

// Duplicate poker made with the lobby's arena form and played by the server itself (runBy: server,
// each rotation a real poker room) to its final standings: tight against random, the spec of
// examples/arena-duplicate-poker-short.yaml. docs/arena.md predicts, from the same spec with 6 deals,
// about 720 hands for a bb/100 interval clear of zero; its 19 deals play 704 and the page shows the
// interval clear of zero — the very row `db8 arena run` prints for the spec (the server plays the
// same games from the same seeds). The page is never reloaded: the standings fill in live.

let env: Env;
let adminToken = '';
let adminSession = '';

beforeAll(async () => {
  buildWeb();
  env = await startEnv({ env: { DB8_ARENA_SCAN_MS: '200' } });
  const page = await newPage(env);
  adminToken = await adminLogin(env, page);
  adminSession = (await page.evaluate(() => localStorage.getItem('db8.session'))) ?? '';
  await page.context().close();
});
afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await shootOpenPages(`arena-duplicate-${ctx.task.name}`);
});
afterAll(async () => {
  await env?.close();
});

const alert = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });

/** The hands the 6-deal run predicts for an interval clear of zero (docs/arena.md, the table). */
const PREDICTED_HANDS = 719;
/** The spec's row as `db8 arena run examples/arena-duplicate-poker-short.yaml` prints it (docs/arena.md). */
const CLI_ROW = { bb100: '+130.9', interval: '+17.7 to +244.1 (clear of 0)', hands: '704' };

describe('duplicate poker from the lobby', () => {
  it('the form sets up a duplicate match; the server plays it to an interval clear of zero', async () => {
    const page = await newPage(env);
    await page.addInitScript((raw) => localStorage.setItem('db8.session', raw), adminSession);
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(`${env.url}/`);
    await page.locator('#cr-protocol').selectOption('arena');
    await page.locator('#arena-game').selectOption('poker');
    // Choosing poker fills in a duplicate match of two strategies of different strength, and
    // spells out the blinds it plays with.
    await expect.poll(() => page.locator('#arena-format').inputValue()).toBe('duplicate-poker');
    await expect(page.locator('label[for="arena-count"]').textContent()).resolves.toBe('duplicate deals');
    expect(await page.locator('#arena-e0-strategy').inputValue()).toBe('tight');
    expect(await page.locator('#arena-e1-strategy').inputValue()).toBe('random');
    expect(await page.locator('#arena-poker-smallBlind').inputValue()).toBe('5');
    expect(await page.locator('#arena-poker-bigBlind').inputValue()).toBe('10');
    await expect(page.getByTestId('arena-strategies').textContent()).resolves.toBe(
      `Scripted poker strategies: ${SCRIPTED_STRATEGIES.poker.join(', ')}.`,
    );
    // Clear errors, each at its field, and nothing is created while one stands.
    await page.locator('#arena-poker-bigBlind').fill('4');
    await alert(page, 'the big blind must be at least the small blind').waitFor();
    await page.locator('#arena-poker-hands').fill('0');
    await page.getByTestId('error-arena-poker-hands').waitFor();
    await page.locator('#arena-e0-strategy').fill('tigth');
    await alert(page, 'not a poker strategy: one of random, tight, station').waitFor();
    await page.locator('#arena-game').selectOption('sealed-bid');
    await page.locator('#arena-format').selectOption('duplicate-poker');
    await alert(page, 'duplicate-poker needs game: poker').waitFor();
    await shot(page, 'arena-duplicate-errors-1366');
    await page.getByRole('button', { name: 'Create room' }).click();
    await alert(page, 'duplicate-poker needs game: poker').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    // Back to poker; what was edited stays as typed (the misspelt strategy), the settings start afresh.
    await page.locator('#arena-game').selectOption('poker');
    await page.locator('#arena-e0-strategy').fill('tight');
    await page.locator('#arena-name').fill('lobby duplicate');
    await page.locator('#arena-count').fill('19');
    await page.locator('#arena-poker-hands').fill('20');
    await page.locator('#arena-seed').fill('duplicate-1');
    expect(await page.getByRole('alert').count()).toBe(0);
    await shot(page, 'arena-duplicate-form-1366');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'arena-duplicate-form-390');
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.getByRole('button', { name: 'Create room' }).click();
    await page.waitForURL(/\/rooms\/[^/]+$/);
    const roomId = decodeURIComponent(page.url().split('/rooms/')[1]!);
    // The room holds what the form built.
    const room = await client(env, adminToken).getRoom(roomId);
    expect(room.config).toMatchObject({
      game: 'poker',
      gameConfig: { hands: 20, smallBlind: 5, bigBlind: 10, startingStack: 1000 },
      format: { kind: 'duplicate-poker', deals: 19 },
      entrants: [
        { name: 'tight', kind: 'scripted', strategy: 'tight' },
        { name: 'random', kind: 'scripted', strategy: 'random' },
      ],
      seed: 'duplicate-1',
    });
    // Every "N of 38 matches played" the page shows, as it shows it; a marker on window proves no reload.
    await page.evaluate(() => {
      const w = window as unknown as { __seen: number[]; __stay: number };
      w.__stay = 1;
      w.__seen = [];
      const note = () => {
        const m = /(\d+) of 38 matches played/.exec(document.body.textContent ?? '');
        if (m && w.__seen.at(-1) !== Number(m[1])) w.__seen.push(Number(m[1]));
      };
      note();
      new MutationObserver(note).observe(document.body, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    });
    const standings = page.getByTestId('arena-standings');
    await standings.waitFor();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __seen: number[] }).__seen.length))
      .toBeGreaterThan(1);
    await shot(page, 'arena-duplicate-playing-1366');
    await expect.poll(() => standings.locator('h2').textContent()).toContain('final');
    const seen = await page.evaluate(() => (window as unknown as { __seen: number[] }).__seen);
    expect(seen.at(-1)).toBe(38);
    expect(seen[0]).toBeLessThan(38);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    expect(await page.evaluate(() => (window as unknown as { __stay?: number }).__stay)).toBe(1);
    // bb/100 with its 95% interval, clear of zero for tight after about the hands the docs predict.
    const rates = page.getByTestId('arena-bb100');
    const tight = rates.locator('tbody tr', { hasText: 'tight' });
    const cell = async (label: string) =>
      (await tight.locator(`td[data-label="${label}"]`).textContent()) ?? '';
    const interval = /^([+-]?\d+\.\d) to ([+-]?\d+\.\d) \(clear of 0\)$/.exec(await cell('95% interval'));
    expect(interval, await cell('95% interval')).not.toBeNull();
    expect(Number(interval![1])).toBeGreaterThan(0);
    const hands = Number((await cell('hands')).replace(/,/g, ''));
    // Near the prediction (19 deals × 2 rotations × at most 20 hands; a bust ends a match early).
    expect(Math.abs(hands - PREDICTED_HANDS) / PREDICTED_HANDS).toBeLessThan(0.1);
    expect({
      bb100: await cell('bb/100'),
      interval: await cell('95% interval'),
      hands: await cell('hands'),
    }).toEqual(CLI_ROW);
    // The hands are the results' (each entrant sits in every match of a heads-up duplicate).
    const view = (await client(env, adminToken).state(roomId)) as { view: ArenaView };
    const played = view.view.matches.reduce((n, m) => n + (m.result?.hands ?? 0), 0);
    expect(hands).toBe(played);
    await shot(page, 'arena-duplicate-final-1366');
    // Matches are linked by their entrants' names; the link opens the match room in the app.
    await standings.locator('summary').click();
    const first = view.view.matches[0]!;
    const link = standings.locator(`a[href="/rooms/${encodeURIComponent(first.result!.room)}"]`);
    expect(await link.textContent()).toBe(`${first.id}: ${first.entrants.join(' vs ')}`);
    await page.setViewportSize({ width: 390, height: 844 });
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
      .toBeLessThanOrEqual(390);
    await shot(page, 'arena-duplicate-final-390');
    await link.click();
    await expect.poll(() => page.url()).toContain(`/rooms/${encodeURIComponent(first.result!.room)}`);
    // The match room's own page (a poker table), titled by the tournament and the match.
    await page.getByRole('heading', { name: `lobby duplicate: ${first.id}` }).waitFor();
    await shot(page, 'arena-duplicate-match-390');
    await page.context().close();
  });
});
