import { arenaScoring } from 'db8/src/arena-scoring.ts';
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
import type { ArenaLegal } from '../../rules/index.ts';

// The tournament page's "verified" badge in headless Chromium: the browser fetches the tournament's
// export and every match room's, and runs the checks `db8 arena verify` runs. The match rooms are
// sealed-bid rooms on this server, opened with the scheduled seed (as a server runner opens them)
// and played to their close (bidder 1 wins at its bid); each result reports the placements the
// game's scoring gives (as a runner reads them), except where a test edits one. One tournament also
// names a room this server does not hold.

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
  if (ctx.task.result?.state === 'fail') await shootOpenPages(`arena-verify-${ctx.task.name}`);
});
afterAll(async () => {
  await env?.close();
});

const BID_CONFIG = {
  item: 'a prize',
  bidders: 2,
  reservePrice: 1,
  biddingWindowMs: 60_000,
  revealWindowMs: 60_000,
  rule: 'first-price',
};

const WINNING_BID = 500;

/** A sealed-bid match room on this server with the match's seed, played to its close: bidder 1 wins. */
async function playMatch(seed: string): Promise<{ room: string; head: unknown }> {
  const rt = env.server.runtime;
  const info = await rt.createRoom({ protocol: 'sealed-bid', config: BID_CONFIG, seed });
  const id = info.id;
  await rt.act(id, { seat: 'bidder_1', action: { type: 'bid', amount: WINNING_BID } });
  await rt.act(id, { seat: 'bidder_2', action: { type: 'bid', amount: 200 } });
  // Bounded: the room's phases (bidding, reveal, the auctioneer's confirm) each take a step or two.
  for (let i = 0; i < 20 && (await rt.getRoom(id)).status !== 'closed'; i++) {
    const ack = await rt.act(id, { seat: 'auctioneer', action: { type: 'confirm' } }).catch(() => null);
    if (!ack) await rt.tickDue(Date.now() + 10 * 60_000);
  }
  expect((await rt.getRoom(id)).status).toBe('closed');
  // As the server's runner reports: a checkpoint of the head is signed if the newest lags.
  await rt.proof(id, (await rt.getRoom(id)).seq);
  const cps = await rt.checkpoints(id);
  const last = cps.at(-1)!;
  return { room: id, head: { size: last.size, rootHash: last.rootHash, note: last.note } };
}

/** Two entrants, two games, reported through the organizer's REST actions; `away` names a foreign room. */
async function finishedTournament(
  name: string,
  away: string | null,
  /** A match whose reported head is one entry short of its room's signed head. */
  shortHead: string | null = null,
  /** A match whose reported placements were edited: its entrants' places swapped. */
  swapped: string | null = null,
): Promise<string> {
  const admin = client(env, adminToken);
  const room = await admin.createRoom({
    protocol: 'arena',
    title: name,
    config: {
      name,
      game: 'sealed-bid',
      format: { kind: 'round-robin', games: 2 },
      entrants: ['ada', 'bob'].map((n) => ({ name: n, kind: 'person' })),
      seed: name,
      bootstrap: 10,
      // Its results are this test's to write (the server would play person entrants itself).
      runBy: 'organizer',
    },
  });
  const j = await admin.join(room.room_id, { seat: 'organizer' });
  const org = client(env, j.session_token);
  const state = (await org.state(room.room_id)) as { legal?: { actions: ArenaLegal[] } };
  const due = state.legal!.actions[0] as Extract<ArenaLegal, { type: 'schedule' }>;
  await org.act(room.room_id, { seat: 'organizer', action: due as never });
  for (const m of due.matches) {
    const played =
      m.id === away
        ? {
            room: 'room_played_elsewhere',
            head: { size: 9, rootHash: 'ef'.repeat(32), note: 'x\n9\n7+8=\n' },
          }
        : await playMatch(m.seed);
    if (m.id === shortHead) {
      const h = played.head as { size: number };
      played.head = { ...h, size: h.size - 1 };
    }
    // What the room's result gives (bidder 1 won at its bid), by the game's one scoring copy.
    const outcome = { winner: 'bidder_1', price: WINNING_BID };
    const placements = arenaScoring['sealed-bid']!.placements(outcome, m).map((p, i, all) =>
      m.id === swapped ? { ...p, place: all[1 - i]!.place, score: all[1 - i]!.score } : p,
    );
    await org.act(room.room_id, {
      seat: 'organizer',
      action: { type: 'result', match: m.id, ...played, placements } as never,
    });
  }
  await org.act(room.room_id, { seat: 'organizer', action: { type: 'close' } as never });
  return room.room_id;
}

describe('arena verify in the browser', () => {
  it('shows verified for a tournament whose matches were played here, on a laptop and a phone', async () => {
    const roomId = await finishedTournament('verify cup', null);
    const page = await newPage(env);
    for (const [w, h] of [
      [1366, 900],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      await page.goto(`${env.url}/rooms/${roomId}`);
      const badge = page.getByTestId('arena-verified');
      await badge.waitFor({ timeout: 30_000 });
      expect(await badge.textContent()).toContain('verified: 2 matches, standings recomputed');
      await badge.scrollIntoViewIfNeeded();
      await shot(page, `arena-verify-${w}`);
      const box = await badge.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(w);
    }
  });

  it('says a match played elsewhere is not on this server, without failing the tournament', async () => {
    const roomId = await finishedTournament('away cup', 'm2');
    const page = await newPage(env);
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(`${env.url}/rooms/${roomId}`);
    const badge = page.getByTestId('arena-verified');
    await badge.waitFor({ timeout: 30_000 });
    expect(await badge.textContent()).toContain(
      'verified: 1 matches, standings recomputed; 1 not on this server (m2)',
    );
  });

  it('names the first failing match and why', async () => {
    const roomId = await finishedTournament('short cup', null, 'm1');
    const page = await newPage(env);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${env.url}/rooms/${roomId}`);
    const badge = page.getByTestId('arena-unverified');
    await badge.waitFor({ timeout: 30_000 });
    expect(await badge.textContent()).toContain(
      'match m1: the reported tree head is not the bundle’s signed head',
    );
    expect(await page.getByTestId('arena-verified').count()).toBe(0);
    await badge.scrollIntoViewIfNeeded();
    await shot(page, 'arena-verify-failing-390');
  });

  it('names a match whose reported placements its log does not give', async () => {
    const roomId = await finishedTournament('edited cup', null, null, 'm2');
    const page = await newPage(env);
    for (const [w, h] of [
      [1366, 900],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      await page.goto(`${env.url}/rooms/${roomId}`);
      const badge = page.getByTestId('arena-unverified');
      await badge.waitFor({ timeout: 30_000 });
      expect(await badge.textContent()).toContain(
        'match m2: the reported placements are not the ones its log gives',
      );
      expect(await page.getByTestId('arena-verified').count()).toBe(0);
      await badge.scrollIntoViewIfNeeded();
      await shot(page, `arena-verify-placements-${w}`);
      const box = await badge.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(w);
    }
  });
});
