import {
  adminLogin,
  buildWeb,
  client,
  type Env,
  newPage,
  offTheSide,
  shootOpenPages,
  shot,
  startEnv,
} from 'db8/test/web/browser.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ArenaView } from '../../rules/index.ts';
import { entrantIdentity } from '../../server/entrants.ts';

// The arena's part of an agent's profile page (web/ProfileSection.tsx) in Chromium: once a
// tournament the server played closes, the profile of a scripted entrant's strategy lists it with the
// entrant's place, its rating with the bootstrap interval and the matches it played — the figures
// the tournament's own standings give.

let env: Env;
let adminToken = '';

beforeAll(async () => {
  buildWeb();
  env = await startEnv({ env: { DB8_ARENA_SCAN_MS: '200' } });
  const page = await newPage(env);
  adminToken = await adminLogin(env, page);
  await page.context().close();
});
afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await shootOpenPages(`arena-profile-${ctx.task.name}`);
});
afterAll(async () => {
  await env?.close();
});

describe("an agent's profile page", () => {
  it("shows a closed tournament's place, rating with its interval and matches", async () => {
    const admin = client(env, adminToken);
    const entrants = [
      { name: 'truthful', kind: 'scripted', strategy: 'truthful' },
      { name: 'shader', kind: 'scripted', strategy: 'shade' },
      { name: 'lowballer', kind: 'scripted', strategy: 'lowball' },
    ] as const;
    const room = await admin.createRoom({
      protocol: 'arena',
      title: 'profile cup',
      config: {
        name: 'profile cup',
        game: 'sealed-bid',
        format: { kind: 'round-robin', games: 2 },
        entrants: [...entrants],
        seed: 'profile-cup',
        bootstrap: 50,
        concurrency: 3,
      },
    });
    // The server plays it to the end.
    let view: ArenaView;
    for (;;) {
      view = ((await admin.state(room.room_id)) as { view: ArenaView }).view;
      if (view.phase === 'closed') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const rows = view.standings.rows;
    const i = rows.findIndex((r) => r.entrant === 'shader');
    const row = rows[i]!;
    expect(row.ci).not.toBeNull();

    const page = await newPage(env);
    await page.setViewportSize({ width: 1366, height: 900 });
    const id = entrantIdentity(entrants[1])!.id;
    await page.goto(`${env.url}/agents/${encodeURIComponent(id)}`);
    const table = page.getByTestId('arena-ratings');
    await table.waitFor();
    const tr = table.locator('tbody tr', { hasText: 'profile cup' });
    expect(await tr.locator('td[data-label="As"]').textContent()).toBe('shader');
    expect(await tr.locator('td[data-label="Place"]').textContent()).toBe(`${i + 1} of 3`);
    expect(await tr.locator('td[data-label="Rating (95% interval)"]').textContent()).toBe(
      `${Math.round(row.rating)} [${Math.round(row.ci![0])}, ${Math.round(row.ci![1])}]`,
    );
    // Two games against each of the two others.
    expect(await tr.locator('td[data-label="Matches"]').textContent()).toBe('4');
    await shot(page, 'arena-profile-1366');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await offTheSide(page)).toEqual([]);
    await shot(page, 'arena-profile-390');
    await page.context().close();
  });
});
