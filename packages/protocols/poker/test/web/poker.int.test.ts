import { Db8Error } from '@db8/sdk';
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
import { PokerSocket } from '../../client/index.ts';
import {
  type GameStatePayload,
  JoinTableResponseSchema,
  POKER_PROTOCOL_VERSION,
  TableSummarySchema,
} from '../../rules/index.ts';
import { cardGlyph } from '../../web/cards.tsx';

// A poker table in headless Chromium: three check/call bots play over the poker WebSocket while an
// observer page watches. Every frame the page receives and the DOM after every mutation are kept,
// and no seat's hole card may reach either before that hand's showdown (hand_complete).

let env: Env;
let adminToken: string;
/** The stored admin session (the login link is one-time): later pages start with it. */
let adminSession: string;

beforeAll(async () => {
  buildWeb();
  env = await startEnv();
  const page = await newPage(env);
  adminToken = await adminLogin(env, page);
  adminSession = (await page.evaluate(() => localStorage.getItem('db8.session'))) ?? '';
  await page.context().close();
}, 120_000);

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await shootOpenPages(`poker-${ctx.task.name}`);
});

afterAll(async () => {
  await env?.close();
});

interface Bot {
  seat: number;
  name: string;
  /** Hole cards by hand number, as this seat's own game_state gave them. */
  holes: Map<number, string[]>;
  actions: number;
  errors: string[];
  closed: Promise<void>;
}

/** A seated agent that checks when it can and calls otherwise, after a pause so the page sees each step. */
async function startBot(tableId: string, name: string, delayMs: number): Promise<Bot> {
  const reg = await client(env).registerAgent({ name });
  const r = await fetch(`${env.url}/v1/tables/${tableId}/join`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${reg.api_key}` },
    body: JSON.stringify({ client_protocol_version: POKER_PROTOCOL_VERSION }),
  });
  if (!r.ok) throw new Error(`join failed: ${r.status} ${await r.text()}`);
  const join = JoinTableResponseSchema.parse(await r.json());
  const sock = await PokerSocket.connect({ url: join.ws_url, token: join.session_token });
  const bot: Bot = {
    seat: join.seat_id,
    name,
    holes: new Map(),
    actions: 0,
    errors: [],
    closed: new Promise((resolve) => sock.live.on('status', (s) => s === 'closed' && resolve())),
  };
  const answered = new Set<string>();
  sock.on((m) => {
    if (m.type !== 'game_state') return;
    const gs = m.payload as GameStatePayload;
    if (gs.status === 'stopped') return sock.close();
    if (gs.your_hole && gs.status === 'playing') bot.holes.set(gs.hand_number, gs.your_hole);
    const token = gs.turn_token;
    if (!token || gs.to_act !== bot.seat || answered.has(token)) return;
    answered.add(token);
    const kind = gs.legal_actions?.some((a) => a.kind === 'check') ? 'check' : 'call';
    setTimeout(() => {
      bot.actions++;
      sock
        .act({ turn_token: token, seat_id: bot.seat, kind })
        .catch((e: unknown) => bot.errors.push(e instanceof Db8Error ? e.code : String(e)));
    }, delayMs);
  });
  return bot;
}

interface Snap {
  hand: number;
  street: string;
  tableText: string;
  tableCards: string[];
  bodyText: string;
  summaries: number[];
}

/** Records the DOM after every mutation batch (installed before the app's scripts run). */
function recordDom() {
  const w = window as unknown as { __snaps: unknown[] };
  w.__snaps = [];
  const take = () => {
    const t = document.querySelector<HTMLElement>('[data-testid="poker-table"]');
    w.__snaps.push({
      hand: Number(t?.dataset.hand ?? -1),
      street: t?.dataset.street ?? '',
      tableText: t?.textContent ?? '',
      tableCards: t ? [...t.querySelectorAll<HTMLElement>('[data-card]')].map((e) => e.dataset.card) : [],
      bodyText: document.body.textContent ?? '',
      summaries: [...document.querySelectorAll<HTMLElement>('[data-testid="hand-summary"]')].map((e) =>
        Number(e.dataset.hand),
      ),
    });
  };
  const start = () => {
    new MutationObserver(take).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    });
    take();
  };
  if (document.body) start();
  else document.addEventListener('DOMContentLoaded', start);
}

const LIVE_STREETS = new Set(['preflop', 'flop', 'turn', 'river']);

async function createTable(body: Record<string, unknown>) {
  const r = await fetch(`${env.url}/v1/admin/tables`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
    body: JSON.stringify(body),
  });
  if (r.status !== 201) throw new Error(`create table: ${r.status} ${await r.text()}`);
  return TableSummarySchema.parse(await r.json());
}

let tableId = '';
let bots: Bot[] = [];

describe('observer table view', () => {
  it('watches bots play two hands; no hole card reaches the page before its showdown', async () => {
    const table = await createTable({
      title: 'Three bots',
      seats: 3,
      small_blind: 5,
      big_blind: 10,
      starting_stack: 1000,
      action_timeout_ms: 20_000,
      hand_interval_ms: 3000,
      max_hands: 2,
      min_players: 3,
    });
    tableId = table.table_id;

    const page = await newPage(env);
    await page.addInitScript(recordDom);
    const frames: string[] = [];
    page.on('websocket', (ws) => {
      ws.on('framereceived', (f) => frames.push(String(f.payload)));
    });
    await page.goto(`${env.url}/tables/${tableId}`);
    await page.getByTestId('table-live').filter({ hasText: 'live' }).waitFor();
    await expect(page.getByTestId('turn').textContent()).resolves.toContain('Waiting for players');

    bots = [];
    for (const name of ['bot-ann', 'bot-bob', 'bot-cat']) bots.push(await startBot(tableId, name, 350));
    expect(bots.map((b) => b.seat).sort()).toEqual([0, 1, 2]);

    // Mid-hand: the flop is out, the pot and whose turn it is show, every seat's cards are face down.
    const felt = page.getByTestId('poker-table');
    await page.locator('[data-testid="poker-table"][data-hand="1"][data-street="flop"]').waitFor();
    await expect(page.locator('[data-testid="board"] [data-card]').count()).resolves.toBe(3);
    await expect(page.getByTestId('pot').textContent()).resolves.toMatch(/^Pot \d+$/);
    await expect(page.getByTestId('turn').textContent()).resolves.toMatch(/^Seat \d to act$/);
    const deadline = Number(await page.locator('section.countdown').getAttribute('data-deadline-ms'));
    expect(deadline).toBeGreaterThan(Date.now() - 5000);
    expect(deadline).toBeLessThan(Date.now() + 25_000);
    await expect(page.locator('[data-testid^="hole-"] .pcard.back').count()).resolves.toBe(6);
    await expect(felt.locator('.dealer').count()).resolves.toBe(1);
    // Who sits where is the admin's while the table runs: an observer sees seat numbers only.
    expect(await page.locator('[data-testid^="seat-name-"]').count()).toBe(0);
    await shot(page, 'poker-table-flop');

    // The first hand ends: its summary lists the board, the hands shown and the pot won.
    const summary1 = page.locator('[data-testid="hand-summary"][data-hand="1"]');
    await summary1.waitFor({ timeout: 30_000 });
    await shot(page, 'poker-table-showdown');
    await page.locator('[data-testid="hand-summary"][data-hand="2"]').waitFor({ timeout: 40_000 });
    await page.getByTestId('turn').filter({ hasText: 'The table has stopped' }).waitFor();
    await shot(page, 'poker-table-stopped');
    await Promise.all(bots.map((b) => b.closed));

    // What the bots were dealt (each only saw its own).
    for (const hand of [1, 2]) {
      for (const b of bots) expect(b.holes.get(hand), `seat ${b.seat} hand ${hand}`).toHaveLength(2);
    }
    for (const b of bots) expect(b.errors).toEqual([]);
    const holesOf = (hand: number) => bots.flatMap((b) => b.holes.get(hand)!);

    // Check/call bots reach showdown every time: the summary shows every seat's real cards.
    const shownCards = await summary1
      .locator('.shown [data-card]')
      .evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.card));
    expect([...shownCards].sort()).toEqual([...holesOf(1)].sort());
    const s1 = (await summary1.textContent()) ?? '';
    expect(s1).toMatch(/wins pot \d+|split pot \d+/);
    expect(await summary1.locator('.hand-board [data-card]').count()).toBe(5);

    // Frames: parse every one; hole cards appear only in hand_complete (the deck and shown hands).
    const msgs = frames.map((f) => JSON.parse(f) as { type: string; payload: Record<string, unknown> });
    expect(msgs.some((m) => m.type === 'welcome')).toBe(true);
    const states = msgs.filter((m) => m.type === 'game_state').map((m) => m.payload as GameStatePayload);
    expect(states.length).toBeGreaterThan(10);
    for (const gs of states) {
      expect(gs.your_hole).toBeUndefined();
      if (gs.status === 'playing') for (const s of gs.seats) expect(s.hole).toBeNull();
    }
    for (const hand of [1, 2]) {
      const until = msgs.findIndex(
        (m) =>
          (m.type === 'hand_complete' && m.payload.hand_number === hand) ||
          (m.type === 'game_state' &&
            m.payload.hand_number === hand &&
            !LIVE_STREETS.has(String(m.payload.street))),
      );
      expect(until, `hand ${hand} completes`).toBeGreaterThan(0);
      const done = msgs.findIndex((m) => m.type === 'hand_complete' && m.payload.hand_number === hand);
      expect(done).toBeGreaterThanOrEqual(until);
      for (let i = 0; i < until; i++) {
        const m = msgs[i]!;
        // Earlier hands are the past: their boards, and the decks their hand_complete reveals,
        // hold this hand's cards too (the deck is reshuffled each hand).
        if (m.type === 'hand_complete' || Number(m.payload.hand_number) < hand) continue;
        for (const c of holesOf(hand)) expect(frames[i], `frame ${i} leaks ${c}`).not.toContain(`"${c}"`);
      }
    }
    // The board and pot were on the wire and on the page.
    expect(states.some((s) => s.hand_number === 1 && s.board.length === 5 && s.pot > 0)).toBe(true);

    // DOM after every mutation: no hole card of the hand in play, as a card or as text.
    const snaps = (await page.evaluate(
      () => (window as unknown as { __snaps: unknown[] }).__snaps,
    )) as Snap[];
    const live = snaps.filter((s) => LIVE_STREETS.has(s.street));
    expect(live.length).toBeGreaterThan(10);
    for (const s of live) {
      const holes = holesOf(s.hand);
      expect(s.tableCards.filter((c) => holes.includes(c))).toEqual([]);
      for (const c of holes) expect(s.tableText).not.toContain(cardGlyph(c)!);
    }
    // Until the first summary appears, nothing anywhere on the page shows a first-hand hole card.
    const beforeFirst = snaps.filter((s) => !s.summaries.includes(1));
    expect(beforeFirst.some((s) => s.hand === 1 && s.street === 'river')).toBe(true);
    for (const s of beforeFirst) for (const c of holesOf(1)) expect(s.bodyText).not.toContain(cardGlyph(c)!);
    // The board rendered at some point with all five cards, and the pot with chips in it.
    expect(live.some((s) => s.tableCards.length === 5 && /Pot [1-9]\d*/.test(s.tableText))).toBe(true);
    // Once the table has ended, the seats show the agents' names (read on load: no race with the close).
    await page.reload();
    for (const b of bots)
      await expect(page.getByTestId(`seat-name-${b.seat}`).textContent()).resolves.toBe(b.name);
    // The table's final standings: every seat that played, named, two hands each, nets summing to zero.
    const standings = page.getByTestId('final-standings');
    await standings.waitFor();
    const rows = standings.locator('tbody tr');
    expect(await rows.count()).toBe(3);
    let sum = 0;
    for (const b of bots) {
      const row = standings.locator(`tr[data-seat="${b.seat}"]`);
      await expect(row.textContent()).resolves.toContain(b.name);
      await expect(row.locator('[data-label="Hands"]').textContent()).resolves.toBe('2');
      sum += Number(await row.getByTestId('standing-net').textContent());
    }
    expect(sum).toBe(0);
    await shot(page, 'poker-table-standings');
  }, 120_000);
});

/** Accepts the confirm() the admin pages ask before stopping a table. */
const acceptDialogs = (page: Page) => page.on('dialog', (d) => void d.accept());

describe('admin pages', () => {
  it('lists tables, creates and stops one, shows a table feed, events and downloads, and the agents', async () => {
    expect(tableId, 'the observer test ran first').not.toBe('');
    const page = await newPage(env);
    acceptDialogs(page);
    await page.addInitScript((raw) => localStorage.setItem('db8.session', raw), adminSession);

    // Create a table through the form — the lobby's own (seconds, the REST defaults, seat drivers);
    // it opens the table, appears in the list, then Stop ends it.
    await page.goto(`${env.url}/admin/tables`);
    await page.locator(`tr[data-table="${tableId}"]`).waitFor();
    await expect(page.locator('#poker-idle').inputValue()).resolves.toBe('600');
    await expect(page.locator('#poker-interval').inputValue()).resolves.toBe('1');
    // A table made in a browser stops after 100 hands unless cleared (scripted seats never idle).
    await expect(page.locator('#poker-hands').inputValue()).resolves.toBe('100');
    await page.getByLabel('room title (optional, shown in the lobby)').fill('Made in the browser');
    await page.locator('#poker-seats').fill('4');
    await page.getByRole('button', { name: 'Create room' }).click();
    await page.waitForURL(/\/rooms\/[^/]+$/);
    const madeId = decodeURIComponent(page.url().split('/rooms/')[1]!);
    const config = (await client(env, adminToken).state(madeId)) as { view?: unknown };
    expect(config.view).toBeDefined();
    const made100 = (await (await fetch(`${env.url}/v1/rooms/${madeId}`)).json()) as {
      config: { maxHands: number | null };
    };
    expect(made100.config.maxHands).toBe(100);
    await page.goto(`${env.url}/admin/tables`);
    const made = page.locator('tr', { hasText: 'Made in the browser' });
    await made.waitFor();
    await expect(made.getByTestId('table-status').textContent()).resolves.toBe('waiting');
    await expect(made.textContent()).resolves.toContain('0/4');
    // The seat count agrees everywhere: the public tables list and the lobby say 0/4 too (the
    // house seat is the server's and is not counted).
    for (const [path, row] of [
      ['/tables', `tr[data-table="${madeId}"]`],
      ['/', `tr[data-room="${madeId}"]`],
    ] as const) {
      const other = await newPage(env);
      await other.goto(`${env.url}${path}`);
      await expect(other.locator(row).textContent()).resolves.toContain('0/4');
      await other.context().close();
    }
    // Seats the server's drivers play are filled in the tables list as in the lobby (2/3 both).
    const driven = await fetch(`${env.url}/v1/rooms`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        protocol: 'poker',
        config: { seats: 3, smallBlind: 5, bigBlind: 10, startingStack: 500, maxHands: 1 },
        drivers: {
          seat_0: { driver: 'model', provider: 'scripted' },
          seat_1: { driver: 'model', provider: 'scripted' },
        },
      }),
    });
    expect(driven.status, await driven.clone().text()).toBe(201);
    const drivenId = ((await driven.json()) as { room_id: string }).room_id;
    for (const [path, row] of [
      ['/tables', `tr[data-table="${drivenId}"]`],
      ['/', `tr[data-room="${drivenId}"]`],
    ] as const) {
      const other = await newPage(env);
      await other.goto(`${env.url}${path}`);
      await expect(other.locator(row).textContent()).resolves.toContain('2/3');
      await other.context().close();
    }
    await shot(page, 'poker-admin-tables');
    await made.getByRole('button', { name: 'Stop' }).click();
    await made.getByTestId('table-status').filter({ hasText: 'ended' }).waitFor();
    const listed = (await client(env).listRooms({ limit: 50 })).rooms.find(
      (r) => r.title === 'Made in the browser',
    );
    expect(listed?.protocol).toBe('poker');

    // The played table: its live feed (every entry, admin-readable), events page and downloads.
    await page.locator(`tr[data-table="${tableId}"] a`).first().click();
    await page.waitForURL(`${env.url}/admin/tables/${tableId}`);
    await page.locator('[data-testid="live-log"] [data-testid="entry"]').first().waitFor();
    const rows = page.locator('[data-testid="events"] tr[data-seq]');
    await rows.first().waitFor();
    expect(await rows.count()).toBeGreaterThan(10);
    await expect(rows.first().getAttribute('data-seq')).resolves.toBe('0');
    await page.locator('[data-testid="hand-summary"][data-hand="2"]').waitFor();
    // Entries in words: the live log and the events table say what happened, not only JSON.
    const words = page.locator('[data-testid="live-log"] [data-testid="entry-words"]');
    await expect
      .poll(() => words.allTextContents())
      .toContain('the table is closed after 2 hands: its last hand was played');
    const said = (await page.locator('[data-testid="events"]').textContent()) ?? '';
    expect(said).toContain('the table opens');
    expect(said).toMatch(/seat \d is taken/);
    expect(said).toMatch(/seat \d sits in/);
    expect(said).toMatch(/hand 1 is dealt \(deck committed [0-9a-f]{8}…\)/);
    expect(said).toMatch(/seat \d (checks|calls)/);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download JSONL' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${tableId}.jsonl`);
    const path = await download.path();
    const { readFileSync } = await import('node:fs');
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    expect(lines.length).toBeGreaterThan(2);
    for (const l of lines) JSON.parse(l);
    const [phh] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download PHH' }).click(),
    ]);
    expect(readFileSync(await phh.path(), 'utf8')).toContain('actions');
    await shot(page, 'poker-admin-table');

    // Agents: the three bots, with their seats at the played table and their results across
    // ended tables — one table, two hands each, chips that sum to zero.
    await page.goto(`${env.url}/admin/agents`);
    let nets = 0;
    for (const b of bots) {
      const row = page.locator('tr', { hasText: b.name });
      await row.waitFor();
      await expect(row.textContent()).resolves.toContain(`${tableId} seat ${b.seat}`);
      await expect(row.locator('[data-label="Ended tables"]').textContent()).resolves.toBe('1');
      await expect(row.locator('[data-label="Hands"]').textContent()).resolves.toBe('2');
      nets += Number(await row.getByTestId('agent-net').textContent());
    }
    expect(nets).toBe(0);
    await shot(page, 'poker-admin-agents');

    // Kick: a seated agent is removed from a running table with the button; the log says so.
    const kickTable = await createTable({
      title: 'Kick',
      seats: 2,
      small_blind: 5,
      big_blind: 10,
      starting_stack: 1000,
      min_players: 2,
      action_timeout_ms: 60_000,
    });
    const kickBot = await startBot(kickTable.table_id, 'bot-kicked', 50);
    await page.goto(`${env.url}/admin/tables/${kickTable.table_id}`);
    await page.getByRole('button', { name: `Remove seat ${kickBot.seat}` }).click();
    await page
      .getByTestId('kick')
      .getByRole('status')
      .filter({ hasText: `seat ${kickBot.seat} removed` })
      .waitFor();
    await expect
      .poll(() => page.locator('[data-testid="live-log"] [data-testid="entry-words"]').allTextContents())
      .toContain(`the house removes seat ${kickBot.seat}`);
    // The admin sees who sits at a running table.
    await expect(page.getByTestId(`seat-name-${kickBot.seat}`).textContent()).resolves.toBe('bot-kicked');
    await shot(page, 'poker-admin-kick');
    const stopped = await fetch(`${env.url}/v1/admin/tables/${kickTable.table_id}/stop`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
      body: '{}',
    });
    expect(stopped.status).toBe(200);
    await kickBot.closed;

    // Observers are refused the admin pages.
    const anon = await newPage(env);
    await anon.goto(`${env.url}/admin/tables`);
    await anon.getByRole('heading', { name: 'Admins only' }).waitFor();
  }, 120_000);
});
