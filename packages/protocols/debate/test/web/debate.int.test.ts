import type { Db8Client } from '@db8/sdk';
import {
  adminLogin,
  buildWeb,
  bundle,
  client,
  cspViolations,
  type Env,
  newPage,
  shot,
  startEnv,
} from 'db8/test/web/browser.ts';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { html, type PageServer, pageServer } from '../server/research-server.ts';

// A debate in headless Chromium against a real server: the browser user is debater anon_1 (joined
// through an invite link); the other seats are agents driven through the SDK. It checks the
// countdown against the server's deadline, the editor's lock outside submit windows, validation
// as you type, a signed submission, that other debaters' content stays off the page until the
// reveal, both vote dialogs, the results (unmasked names, Elo, journal badge) and the leaderboard.

const SEC = 1000;
const TIMINGS = {
  // Setting up three browser profiles and five agents takes about 20 s on a loaded 2-core machine:
  // research must outlast it, since the test starts by checking the research phase.
  research_ms: 40 * SEC,
  submit_ms: 30 * SEC,
  verify_ms: 20 * SEC,
  continue_vote_ms: 30 * SEC,
  final_submit_ms: 20 * SEC,
  final_vote_ms: 15 * SEC,
  results_ms: 5 * SEC,
  reveal_ms: 5 * SEC,
};
/** The debating agents register under these names; the unmask shows them (the server binds identities). */
const NAMES: Record<string, string> = {
  anon_2: 'Grace Hopper',
  anon_3: 'Alan Turing',
};
const SECRET = {
  anon_2: 'SECRET-GRACE-R1 compilers make cities walkable',
  anon_3: 'SECRET-ALAN-R1 machines decide',
};

let env: Env;
let adminToken: string;
/** A page for the research tool, on localhost: allowed by DB8_RESEARCH_ALLOW_HOSTS (unsafe, tests only). */
let pages: PageServer;

beforeAll(async () => {
  buildWeb();
  pages = await pageServer({
    '/footfall': html(
      '<title>Footfall study</title><p>Retail footfall rose by a quarter after pedestrianisation.</p>',
    ),
  });
  env = await startEnv({ env: { DB8_RESEARCH_ALLOW_HOSTS: 'localhost' } });
  const page = await newPage(env);
  adminToken = await adminLogin(env, page);
  await page.context().close();
});

// Every page, the leaderboard's chart (recharts) too, renders under the strict policy.
afterEach(() => {
  expect(cspViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await env?.close();
  await pages?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A full-page screenshot from the top: sticky bars would otherwise be drawn mid-page. */
async function snap(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, name);
}

type Legal = { type: string; [k: string]: unknown };
type SeatClient = { seat: string; c: Db8Client };

/** An agent in its own seat. */
async function seatAgent(roomId: string, seat: string): Promise<SeatClient> {
  const agent = await client(env).registerAgent({ name: NAMES[seat] ?? `debate-${seat}` });
  // The moderator's and fact-checker's seats are given (privileged): the admin's invite for the seat.
  const invite = ['moderator', 'fact_checker'].includes(seat)
    ? (await client(env, adminToken).createInvite(roomId, { seat })).invite
    : undefined;
  const j = await client(env, agent.api_key).join(roomId, { seat, ...(invite ? { invite } : {}) });
  return { seat, c: client(env, j.session_token) };
}

async function view(a: SeatClient, roomId: string) {
  const s = await a.c.state(roomId);
  return {
    state: s,
    view: s.view as { phase: string; round: number },
    legal: (s.legal?.actions ?? []) as Legal[],
  };
}

/** Poll the server (not the page) until `seat` has a legal action of `type`. */
async function legalWhen(a: SeatClient, roomId: string, type: string, timeout = 60 * SEC): Promise<Legal[]> {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await view(a, roomId);
    const found = v.legal.filter((l) => l.type === type);
    if (found.length) return found;
    if (Date.now() > end) throw new Error(`${a.seat}: no legal ${type} (phase ${v.view.phase})`);
    await sleep(200);
  }
}

/** Seat → identity, as the results unmask them. */
async function unmasked(a: SeatClient, roomId: string): Promise<Record<string, string>> {
  const v = (await a.c.state(roomId)).view as { results?: { identities?: Record<string, string> | null } };
  const ids = v.results?.identities ?? {};
  for (const seat of ['anon_1', 'anon_2', 'anon_3']) expect(ids[seat], seat).toBeTruthy();
  return ids;
}

async function act(a: SeatClient, roomId: string, action: object) {
  return a.c.act(roomId, { seat: a.seat, action: action as never });
}

async function agentSubmit(a: SeatClient, roomId: string, content: string) {
  const [l] = await legalWhen(a, roomId, 'submit');
  await act(a, roomId, {
    type: 'submit',
    room_id: (l!.room_id as string | null) ?? roomId,
    round_id: l!.round_id,
    author_id: a.seat,
    phase: l!.phase,
    deadline_unix: l!.deadline_unix,
    content,
    claims: [
      {
        id: 'c1',
        text: `${a.seat} says: ${content.slice(0, 40)}`,
        support: [{ kind: 'logic', ref: 'first principles' }],
        confidence: 70,
      },
    ],
    citations: [
      { url: `https://example.org/${a.seat}/1`, title: 'A source' },
      { url: `https://example.org/${a.seat}/2` },
    ],
    client_nonce: `${a.seat}-${l!.round_id}`,
  });
}

/** The fact-checker judges every pending submission: anon_3's claims are false, the rest true. */
async function checkAll(fc: SeatClient, roomId: string) {
  for (const l of await legalWhen(fc, roomId, 'verdict')) {
    const author = l.author as string;
    await act(fc, roomId, {
      type: 'verdict',
      author,
      canonical_sha256: l.canonical_sha256,
      claims: (l.claim_ids as string[]).map((claim_id) => ({
        claim_id,
        verdict: author === 'anon_3' ? 'false' : 'true',
        reason: author === 'anon_3' ? 'The cited source says the opposite.' : 'Matches the cited source.',
      })),
    });
  }
}

const phaseIs = (page: Page, phase: string, timeout = 60 * SEC) =>
  page.locator(`[data-testid="phase"][data-phase="${phase}"]`).waitFor({ timeout });

/** Seconds shown by the countdown (mm:ss). */
async function shownSeconds(page: Page): Promise<number> {
  const text = (await page.getByTestId('countdown').textContent()) ?? '';
  expect(text).toMatch(/^\d\d:\d\d$/);
  const [m, s] = text.split(':').map(Number) as [number, number];
  return m * 60 + s;
}

/** The countdown shows the server's deadline (attribute and text), and counts down. */
async function checkCountdown(page: Page, roomId: string, who: SeatClient) {
  const { state } = await view(who, roomId);
  expect(state.deadline_ms).not.toBeNull();
  const bar = page.locator('section.countdown');
  await expect.poll(() => bar.getAttribute('data-deadline-ms').then(Number)).toBe(state.deadline_ms);
  const first = await shownSeconds(page);
  const expected = Math.ceil((state.deadline_ms! - Date.now()) / SEC);
  expect(Math.abs(first - expected)).toBeLessThanOrEqual(2);
  await sleep(2200);
  const later = await shownSeconds(page);
  expect(first - later).toBeGreaterThanOrEqual(1);
  expect(first - later).toBeLessThanOrEqual(4);
}

describe('the built bundle', () => {
  it("carries the debate protocol's own schemas, with no node: module", () => {
    const { js, sources } = bundle();
    for (const f of ['view.ts', 'legal.ts', 'submission.ts'])
      expect(sources.some((s) => s.endsWith(`protocols/debate/rules/${f}`))).toBe(true);
    expect(sources.some((s) => s.endsWith('protocols/debate/web/DraftEditor.tsx'))).toBe(true);
    expect(js).not.toMatch(/["']node:[a-z_]+["']/);
  });
});

describe('a debate played in the browser', () => {
  it('drives anon_1 through a round, the reveal, both votes and the results', {
    timeout: 300 * SEC,
  }, async () => {
    const admin = client(env, adminToken);
    const room = await admin.createRoom({
      protocol: 'debate',
      title: 'Car-free city centres',
      config: {
        topic: 'Should cities ban cars from their centres?',
        tags: ['urbanism'],
        debaters: 3,
        judges: 1,
        viewers: 1,
        max_rounds: 2,
        final_voters: ['debater', 'judge', 'viewer'],
        timings: TIMINGS,
      },
    });
    const roomId = room.room_id;
    const inv = await admin.createInvite(roomId, { seat: 'anon_1' });

    // The browser user opens the invite link and accepts it.
    const page = await newPage(env);
    await page.goto(`${env.url}/rooms/${roomId}/join#invite=${inv.invite}`);
    await page.getByRole('button', { name: 'Accept invite' }).click();
    await page.getByTestId('my-seat').filter({ hasText: 'anon_1' }).waitFor();
    await page.getByTestId('live-status').filter({ hasText: 'live' }).waitFor();

    // The judge is a person too, in a profile of their own.
    const judgeInv = await admin.createInvite(roomId, { seat: 'judge_1' });
    const judge = await newPage(env);
    await judge.goto(`${env.url}/rooms/${roomId}/join#invite=${judgeInv.invite}`);
    await judge.getByRole('button', { name: 'Accept invite' }).click();
    await judge.getByTestId('my-seat').filter({ hasText: 'judge_1' }).waitFor();

    const [grace, alan, _moderator, fc, viewer] = await Promise.all(
      ['anon_2', 'anon_3', 'moderator', 'fact_checker', 'viewer_1'].map((s) => seatAgent(roomId, s)),
    );
    // An observer in another profile (dark scheme) watches without a seat.
    const watcher = await newPage(env, 'dark');
    await watcher.goto(`${env.url}/rooms/${roomId}`);
    await watcher.getByTestId('live-status').filter({ hasText: 'live' }).waitFor();
    // Identities are bound by the server as each debater joins (no seat may bind one itself).

    // Research: the editor is locked and the countdown follows the server's research deadline.
    await phaseIs(page, 'research', 5 * SEC);
    await expect(page.getByTestId('editor-state').textContent()).resolves.toBe('locked');
    await expect(page.locator('#draft-content').isDisabled()).resolves.toBe(true);
    await expect(page.getByTestId('editor-lock').textContent()).resolves.toContain('Research phase');
    await checkCountdown(page, roomId, grace!);
    await snap(page, 'debate-1-research');
    // The research drawer: the server refuses a private (cloud metadata) address, and says why.
    await page.locator('#research-url').fill('http://169.254.169.254/latest/meta-data/');
    await page.getByRole('button', { name: 'Fetch' }).click();
    await page.getByRole('alert').filter({ hasText: 'PRIVATE_ADDRESS' }).waitFor();
    await expect(watcher.locator('#research-h').count()).resolves.toBe(0);
    await snap(page, 'debate-1b-research-refused');

    // Submit opens: the editor unlocks, the countdown moves to the submit deadline.
    // Research lasts 40 s from creation (TIMINGS): wait out what the setup left of it.
    await phaseIs(page, 'submit', 45 * SEC);
    await expect(page.getByTestId('editor-state').textContent()).resolves.toBe('open');
    await expect(page.locator('#draft-content').isDisabled()).resolves.toBe(false);
    await checkCountdown(page, roomId, grace!);

    // The other debaters submit through the SDK; their text never reaches this page before the reveal.
    await agentSubmit(grace!, roomId, SECRET.anon_2);
    await agentSubmit(alan!, roomId, SECRET.anon_3);
    for (const seat of ['anon_2', 'anon_3']) {
      const card = page.locator(`[data-testid="submission"][data-author="${seat}"]`).first();
      await card.getByTestId('submission-status').filter({ hasText: 'submitted' }).waitFor();
      await expect(card.getAttribute('data-sealed')).resolves.toBe('true');
    }

    // Research while submitting: anon_1 fetches a page into the room's cache, then quotes it.
    await page.locator('#research-url').fill(pages.url('/footfall'));
    await page.getByRole('button', { name: 'Fetch' }).click();
    await page.getByRole('status').filter({ hasText: 'Fetched: sha256' }).waitFor();
    await page.getByTestId('research-entry').filter({ hasText: 'Footfall study' }).waitFor();
    expect(pages.hits.get('/footfall')).toBe(1);

    // Validation as you type: a bad URL is flagged at once and blocks the submit.
    const submitButton = page.getByRole('button', { name: 'Submit', exact: true });
    await page.locator('#draft-content').fill('Car-free centres are safer, cleaner and better for trade.');
    await page.getByLabel('claim 1', { exact: true }).fill('Pedestrian zones raise retail footfall');
    await page.getByLabel('citation 1 URL').fill('not a url');
    await page.locator('#err-citations\\.0\\.url').filter({ hasText: 'an http(s) URL' }).waitFor();
    await expect(submitButton.isDisabled()).resolves.toBe(true);
    await page.getByLabel('claim 1 support 1', { exact: true }).fill('https://example.org/footfall-study');
    await page.getByLabel('claim 1', { exact: true }).fill('Pedestrian zones raise retail footfall');
    await page.getByLabel('confidence % (optional)').fill('75');
    await page.getByLabel('citation 1 URL').fill(pages.url('/footfall'));
    await page.getByLabel('citation 1 title').fill('Footfall after pedestrianisation');
    await page.getByLabel('citation 1 quote').fill('footfall rose  by a quarter');
    await page.getByLabel('citation 2 URL').fill('https://example.org/air-quality');
    await page.getByTestId('validation-summary').filter({ hasText: 'ready to submit' }).waitFor();
    await expect(page.locator('#err-citations\\.0\\.url').count()).resolves.toBe(0);

    // Opt in to browser signing: a WebCrypto key is made and registered before the submit.
    await page.getByLabel('Sign in this browser', { exact: false }).check();
    await page.getByTestId('signing').filter({ hasText: 'registered' }).waitFor();
    await snap(page, 'debate-2-editor');
    await submitButton.click();
    await page
      .getByTestId('editor-result')
      .filter({ hasText: 'Submitted version 1, signed in this browser' })
      .waitFor();
    const mine = page.locator('[data-testid="submission"][data-author="anon_1"]').first();
    await mine.getByTestId('private-note').waitFor();
    await mine.getByText('signed · ed25519').waitFor();
    // The quote is checked against the cached snapshot (whitespace normalised).
    await mine.locator('[data-testid="citation-check"][data-result="found"]').waitFor();
    // The server holds it as signed by the registered browser key.
    const own = (await view({ seat: 'anon_1', c: admin }, roomId)).state.view as {
      rounds: { submissions: { author: string; signature?: { kind: string } }[] }[];
    };
    expect(own.rounds[0]!.submissions.find((s) => s.author === 'anon_1')?.signature?.kind).toBe('ed25519');

    expect(await page.content()).not.toContain('SECRET-');
    await snap(page, 'debate-3-sealed');
    await page.setViewportSize({ width: 390, height: 844 });
    await snap(page, 'debate-3-sealed-narrow');
    await page.setViewportSize({ width: 1366, height: 900 });

    // The deadline passes: verify, and the editor locks again.
    await phaseIs(page, 'verify', 40 * SEC);
    await expect(page.locator('#draft-content').isDisabled()).resolves.toBe(true);
    await expect(page.getByTestId('editor-state').textContent()).resolves.toBe('locked');
    expect(await page.content()).not.toContain('SECRET-');
    expect(await watcher.content()).not.toContain('SECRET-');
    await checkAll(fc!, roomId);

    // The reveal: every submission of the round appears at once, with the verdicts.
    await page
      .locator('[data-testid="round"][data-round="1"][data-published="true"]')
      .waitFor({ timeout: 20 * SEC });
    const r1 = page.locator('[data-testid="round"][data-round="1"]');
    for (const [seat, text] of Object.entries(SECRET)) {
      const card = r1.locator(`[data-testid="submission"][data-author="${seat}"]`);
      await expect(card.getAttribute('data-sealed')).resolves.toBe('false');
      await expect(card.getByTestId('content').textContent()).resolves.toBe(text);
    }
    await expect(
      r1.locator('[data-author="anon_3"] [data-testid="verdict"]').getAttribute('data-verdict'),
    ).resolves.toBe('false');
    await expect(
      r1.locator('[data-author="anon_3"] [data-testid="submission-status"]').textContent(),
    ).resolves.toBe('rejected');
    await expect(
      r1.locator('[data-author="anon_1"] [data-testid="submission-status"]').textContent(),
    ).resolves.toBe('verified');
    await expect(r1.locator('[data-testid="private-note"]').count()).resolves.toBe(0);
    const seen = watcher.locator(
      '[data-testid="round"][data-round="1"] [data-author="anon_2"] [data-testid="content"]',
    );
    await expect(seen.textContent()).resolves.toBe(SECRET.anon_2);
    await snap(watcher, 'debate-observer-dark');
    await watcher.context().close();

    // The continue vote opens a dialog by itself; the editor stays locked until the next window.
    const dialog = page.getByTestId('continue-dialog');
    await dialog.waitFor({ state: 'visible', timeout: 10 * SEC });
    await expect(page.getByTestId('editor-state').textContent()).resolves.toBe('locked');
    await snap(page, 'debate-4-continue-vote');
    // The judge scores the rubric in the browser once a round is public.
    await judge.getByRole('heading', { name: 'Your rubric cards' }).waitFor({ timeout: 10 * SEC });
    const cards: Record<string, number[]> = {
      anon_1: [80, 75, 90, 95, 70],
      anon_2: [70, 80, 70, 90, 60],
      anon_3: [40, 50, 60, 80, 40],
    };
    for (const [d, values] of Object.entries(cards)) {
      for (const [i, dim] of ['Evidence', 'Reasoning', 'Clarity', 'Civility', 'Yielding'].entries()) {
        await judge.getByLabel(`${d} ${dim}`).fill(String(values[i]));
      }
    }
    await judge.getByRole('button', { name: 'Send cards' }).click();
    await judge.getByRole('status').filter({ hasText: 'Cards recorded' }).waitFor();
    await snap(judge, 'debate-judge-cards');
    await act(viewer!, roomId, {
      type: 'stance',
      when: 'before',
      stances: ['anon_1', 'anon_2', 'anon_3'].map((debater) => ({ debater, value: 50 })),
    });
    await dialog.getByRole('button', { name: 'End: go to closing statements' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByTestId('my-continue-vote').filter({ hasText: 'end' }).waitFor();
    await act(grace!, roomId, { type: 'vote_continue', choice: 'end' });
    await act(alan!, roomId, { type: 'vote_continue', choice: 'continue' });
    await page
      .getByTestId('continue-tally')
      .filter({ hasText: '1 continue · 2 end' })
      .waitFor({ timeout: 10 * SEC });

    // The final round: a new, empty editor.
    await phaseIs(page, 'final_submit', 10 * SEC);
    await expect(page.locator('#draft-content').inputValue()).resolves.toBe('');
    await agentSubmit(grace!, roomId, 'Closing: start with one street and measure.');
    await agentSubmit(alan!, roomId, 'Closing: let the data decide, street by street.');
    await page.locator('#draft-content').fill('Closing: the evidence favours car-free centres.');
    // A private draft first (drafts are never published; only a submit counts).
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByTestId('editor-result').filter({ hasText: 'Draft saved privately' }).waitFor();
    const finalStatus = page.locator(
      '[data-testid="round"][data-round="2"] [data-author="anon_1"] [data-testid="submission-status"]',
    );
    await expect.poll(() => finalStatus.textContent()).toBe('draft');
    await page.getByLabel('claim 1', { exact: true }).fill('Footfall rose where cars left');
    await page.getByLabel('claim 1 support 1', { exact: true }).fill('https://example.org/footfall-study');
    await page.getByLabel('citation 1 URL').fill('https://example.org/footfall-study');
    await page.getByLabel('citation 2 URL').fill('https://example.org/air-quality');
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    await page.getByTestId('editor-result').filter({ hasText: 'Submitted version 1' }).waitFor();
    await phaseIs(page, 'final_verify', 30 * SEC);
    await checkAll(fc!, roomId);

    // The final vote: a dialog with approvals (never oneself) and a ranking.
    const final = page.getByTestId('final-dialog');
    await final.waitFor({ state: 'visible', timeout: 20 * SEC });
    await expect(final.getByLabel('Approve anon_1').count()).resolves.toBe(0);
    await final.getByLabel('Approve anon_2').check();
    await snap(page, 'debate-5-final-vote');
    await final.getByRole('button', { name: 'Cast ballot' }).click();
    await final.waitFor({ state: 'hidden' });
    await page.getByTestId('my-final-vote').filter({ hasText: 'anon_2' }).waitFor();
    await act(grace!, roomId, { type: 'final_vote', approval: ['anon_1'], ranking: ['anon_1', 'anon_3'] });
    await act(alan!, roomId, {
      type: 'final_vote',
      approval: ['anon_1', 'anon_2'],
      ranking: ['anon_2', 'anon_1'],
    });
    const judgeBallot = judge.getByTestId('final-dialog');
    await judgeBallot.waitFor({ state: 'visible' });
    await judgeBallot.getByLabel('Approve anon_1').check();
    await judgeBallot.getByRole('button', { name: 'Cast ballot' }).click();
    await judge.getByTestId('my-final-vote').filter({ hasText: 'anon_1' }).waitFor();
    await judge.context().close();
    await act(viewer!, roomId, {
      type: 'stance',
      when: 'after',
      stances: [
        { debater: 'anon_1', value: 80 },
        { debater: 'anon_2', value: 60 },
        { debater: 'anon_3', value: 30 },
      ],
    });

    // Results: placements first with names masked, then unmasked.
    await page.getByTestId('results').waitFor({ timeout: 30 * SEC });
    await phaseIs(page, 'results');
    const names = page.getByTestId('placement-name');
    await expect(names.allTextContents()).resolves.toEqual(['anon_1', 'anon_2', 'anon_3']);
    await snap(page, 'debate-6-results-masked');
    await phaseIs(page, 'stats_and_reveal', 15 * SEC);
    // The browser guest has no registered name: its identity shows; the agents show their names.
    const ids = await unmasked(grace!, roomId);
    await expect.poll(() => names.allTextContents()).toEqual([ids.anon_1, 'Grace Hopper', 'Alan Turing']);
    // The judge's browser-sent card: (35·80 + 30·75 + 20·90 + 5·95 + 10·70) / 100 = 80.25.
    await expect(page.locator('[data-testid="scores"] tbody tr').first().textContent()).resolves.toContain(
      '80.25',
    );
    await phaseIs(page, 'closed', 15 * SEC);
    await page.getByTestId('room-status').filter({ hasText: 'closed' }).waitFor();
    await expect(page.getByTestId('journal-badge').textContent()).resolves.toMatch(
      /✓ chain verified here · 6 submissions in 2 rounds.*journal published/,
    );
    // Elo from the server's ratings: the winner gains, the last loses.
    const elo = page.getByTestId('elo');
    await expect.poll(() => elo.first().textContent(), { timeout: 15 * SEC }).toMatch(/^\+\d+\.\d\d/);
    await expect(elo.last().textContent()).resolves.toMatch(/^−\d+\.\d\d/);
    await snap(page, 'debate-7-closed');

    // The results page, and the leaderboard with its chart.
    await page.goto(`${env.url}/rooms/${roomId}/results`);
    await page.getByTestId('placements').waitFor();
    await expect(page.getByTestId('placement-name').first().textContent()).resolves.toBe(ids.anon_1);
    await snap(page, 'debate-8-results-page');
    await page.getByRole('link', { name: 'Leaderboard' }).first().click();
    await page.getByTestId('leaderboard').waitFor();
    const rows = page.locator('[data-testid="leaderboard"] tbody tr');
    await expect(
      rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-identity'))),
    ).resolves.toEqual([ids.anon_1, ids.anon_2, ids.anon_3]);
    await page.getByTestId('rating-chart').waitFor();
    await expect(page.locator('[data-testid="rating-chart"] circle').count()).resolves.toBe(3);
    await snap(page, 'debate-9-leaderboard');
    await page.context().close();
  });
});
