import type { ArenaView } from '@db8/arena';
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

// Names everywhere, never ids (issue 28): a tournament's match room page names, beside each seat,
// the entrant the schedule put there — a scripted entrant linked to its profile, a person entrant
// (whose claimant is private) by name only — for a signed-out viewer; and the room's result or score
// table (a sealed-bid's ranking, a debate's placements and scores, a deliberation's outcome) names
// the same entrants (the web kit's SeatWho).

let env: Env;
/** The admin's token: the one-time login link is spent once, here. */
let adminToken = '';

beforeAll(async () => {
  buildWeb();
  env = await startEnv({ env: { DB8_ARENA_SCAN_MS: '200' } });
  const login = await newPage(env);
  adminToken = await adminLogin(env, login);
  await login.context().close();
});
afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await shootOpenPages(`arena-seat-names-${ctx.task.name}`);
});
afterAll(async () => {
  await env?.close();
});

/** Reads until `done` holds; a safety limit, not a measure. */
async function until<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const v = await read().catch(() => undefined);
    if (v !== undefined && done(v)) return v;
    if (Date.now() > deadline) throw new Error(`still waiting: ${JSON.stringify(v).slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const cup = (name: string, entrants: Record<string, string>[]) => ({
  protocol: 'arena',
  title: name,
  config: {
    name,
    game: 'sealed-bid',
    // Outlasts the test: a match waiting for an unclaimed person entrant stays open.
    gameConfig: { biddingWindowMs: 30 * 60_000 },
    format: { kind: 'round-robin', games: 1 },
    entrants,
    seed: name,
    concurrency: 1,
    bootstrap: 0,
  },
});

describe('a match room page', () => {
  it("names each entrant beside its seat; a closed tournament's link to the profile", async () => {
    const admin = client(env, adminToken);
    const tess = { name: 'Truthful Tess', kind: 'scripted', strategy: 'truthful' };
    const matchRoom = async (t: string, done: (v: ArenaView) => boolean) => {
      const view = await until(async () => ((await admin.state(t)) as { view: ArenaView }).view, done);
      const match = view.matches[0]!;
      const roomId = `${t}-${match.id}`;
      await until(
        () => admin.getRoom(roomId),
        (r) => r.seats.some((s) => s.label),
      );
      const seatOf = (name: string) => `bidder_${match.entrants.indexOf(name) + 1}`;
      return { roomId, seatOf };
    };

    // Running: Grace is never claimed, so her match and the tournament stay open. Names only.
    const running = await admin.createRoom(cup('names cup', [tess, { name: 'Grace', kind: 'person' }]));
    const open = await matchRoom(running.room_id, (v) => v.matches.length > 0);
    const page = await newPage(env);
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(`${env.url}/rooms/${encodeURIComponent(open.roomId)}`);
    const seats = page.locator('ul.seats');
    const grace = seats.getByTestId(`seat-name-${open.seatOf('Grace')}`);
    await grace.waitFor();
    expect(await grace.textContent()).toBe('Grace');
    const tessThere = seats.getByTestId(`seat-name-${open.seatOf('Truthful Tess')}`);
    expect(await tessThere.textContent()).toBe('Truthful Tess');
    expect(await seats.getByRole('link').count()).toBe(0);
    // A named seat is the tournament's to give: not offered as open.
    const graceRow = seats.locator('li', { has: page.getByTestId(`seat-name-${open.seatOf('Grace')}`) });
    expect(await graceRow.textContent()).not.toContain('open');
    // The house's auctioneer is no entrant: no name beside it.
    expect(await page.getByTestId('seat-name-auctioneer').count()).toBe(0);
    await shot(page, 'arena-seat-names-running-1366');

    // Closed: each scripted entrant's name links to its profile, which shows the tournament.
    const done = await admin.createRoom(
      cup('linked cup', [tess, { name: 'Lowballer Lou', kind: 'scripted', strategy: 'lowball' }]),
    );
    const closed = await matchRoom(done.room_id, (v) => v.phase === 'closed');
    await page.goto(`${env.url}/rooms/${encodeURIComponent(closed.roomId)}`);
    const link = seats.getByTestId(`seat-name-${closed.seatOf('Truthful Tess')}`);
    await link.waitFor();
    expect(await link.getAttribute('href')).toMatch(/^\/agents\/drv_[0-9a-f]{20}$/);
    expect(await seats.getByTestId(`seat-name-${closed.seatOf('Lowballer Lou')}`).textContent()).toBe(
      'Lowballer Lou',
    );
    // The auction's result names its bidders: the winner, and every row of the ranking, each by the
    // entrant's name (linked to its profile) beside the seat.
    const ranking = page.getByTestId('auction-ranking');
    for (const name of ['Truthful Tess', 'Lowballer Lou']) {
      const inRanking = ranking.getByTestId(`seat-name-${closed.seatOf(name)}`);
      await inRanking.waitFor();
      expect(await inRanking.textContent()).toBe(name);
      expect(await inRanking.getAttribute('href')).toMatch(/^\/agents\/drv_[0-9a-f]{20}$/);
    }
    expect(await ranking.locator('tbody tr').count()).toBe(2);
    const result = page.getByTestId('auction-result');
    expect(await result.textContent()).toMatch(/sold to (Truthful Tess|Lowballer Lou) bidder_[12] for/);
    await shot(page, 'arena-seat-names-closed-1366');
    await link.click();
    await page.getByTestId('agent-title').getByText('scripted · truthful').waitFor();
  });

  it("a poker match's table names its players by their entrants", async () => {
    const admin = client(env, adminToken);
    const t = await admin.createRoom({
      protocol: 'arena',
      title: 'felt cup',
      config: {
        name: 'felt cup',
        game: 'poker',
        gameConfig: { hands: 2, bigBlind: 10 },
        format: { kind: 'duplicate-poker', deals: 1 },
        entrants: [
          { name: 'Tight Tina', kind: 'scripted', strategy: 'tight' },
          { name: 'Random Rob', kind: 'scripted', strategy: 'random' },
        ],
        seed: 'felt cup',
        bootstrap: 0,
      },
    });
    const view = await until(
      async () => ((await admin.state(t.room_id)) as { view: ArenaView }).view,
      (v) => v.phase === 'closed',
    );
    const match = view.matches[0]!;
    const page = await newPage(env);
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(`${env.url}/rooms/${encodeURIComponent(match.result!.room)}`);
    // The match's i-th entrant sits at seat_i (the poker game's seat order).
    for (const [i, name] of match.entrants.entries()) {
      const seat = page.getByTestId(`seat-name-${i}`);
      await seat.waitFor();
      expect(await seat.textContent()).toBe(name);
    }
    await shot(page, 'arena-seat-names-poker-1366');
  });

  it("a closed debate match's page names its unmasked seats", async () => {
    const admin = client(env, adminToken);
    const t = await admin.createRoom({
      protocol: 'arena',
      title: 'debate names cup',
      config: {
        name: 'debate names cup',
        game: 'debate',
        gameConfig: { rounds: 1 },
        format: { kind: 'round-robin', games: 1 },
        entrants: [
          { name: 'Evidence Eve', kind: 'scripted', strategy: 'evidence' },
          { name: 'Sloppy Sid', kind: 'scripted', strategy: 'sloppy' },
        ],
        seed: 'debate names cup',
        bootstrap: 0,
      },
    });
    const view = await until(
      async () => ((await admin.state(t.room_id)) as { view: ArenaView }).view,
      (v) => v.phase === 'closed',
    );
    const match = view.matches[0]!;
    const page = await newPage(env);
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(`${env.url}/rooms/${encodeURIComponent(match.result!.room)}`);
    const placements = page.getByTestId('placements');
    const scores = page.getByTestId('scores');
    for (const [i, name] of match.entrants.entries()) {
      // The seat card, the placements and the scores: each names the entrant at anon_<i+1>.
      for (const where of [page.locator('ul.seats'), placements, scores]) {
        const seat = where.getByTestId(`seat-name-anon_${i + 1}`);
        await seat.waitFor();
        expect(await seat.textContent()).toBe(name);
      }
    }
    expect(await placements.locator('tbody tr').count()).toBe(2);
    await shot(page, 'arena-seat-names-debate-1366');
  });

  it("a deliberation match's outcome names its proposers", async () => {
    const admin = client(env, adminToken);
    const t = await admin.createRoom({
      protocol: 'arena',
      title: 'deliberation names cup',
      config: {
        name: 'deliberation names cup',
        game: 'deliberation',
        gameConfig: { topic: 'Design rate limiting for a public HTTP API' },
        format: { kind: 'round-robin', games: 1 },
        entrants: [
          { name: 'Thorough Theo', kind: 'scripted', strategy: 'thorough' },
          { name: 'Bluffing Bea', kind: 'scripted', strategy: 'bluff' },
        ],
        seed: 'deliberation names cup',
        bootstrap: 0,
      },
    });
    const view = await until(
      async () => ((await admin.state(t.room_id)) as { view: ArenaView }).view,
      (v) => v.phase === 'closed',
    );
    const match = view.matches[0]!;
    const page = await newPage(env);
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(`${env.url}/rooms/${encodeURIComponent(match.result!.room)}`);
    // The match's i-th entrant proposes at proposer_<i+1>; the house judge (no entrant) is unnamed.
    const seatOf = (name: string) => `proposer_${match.entrants.indexOf(name) + 1}`;
    const outcome = page.getByTestId('delib-outcome');
    // The judge's rule prefers the thorough proposal: the winner, by name.
    const winner = outcome.getByTestId(`seat-name-${seatOf('Thorough Theo')}`);
    await winner.waitFor();
    expect(await winner.textContent()).toBe('Thorough Theo');
    expect(await winner.getAttribute('href')).toMatch(/^\/agents\/drv_[0-9a-f]{20}$/);
    const votes = page.getByTestId('delib-votes');
    const voted = await votes
      .locator('li')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-seat')));
    expect(voted.length).toBeGreaterThan(0);
    for (const seat of voted) {
      const name = match.entrants[Number(seat!.replace('proposer_', '')) - 1];
      expect(await votes.getByTestId(`seat-name-${seat}`).textContent()).toBe(name);
    }
    expect(await page.getByTestId('seat-name-house_judge').count()).toBe(0);
    await shot(page, 'arena-seat-names-deliberation-1366');
  });
});
