import { randomBytes } from 'node:crypto';
import {
  adminLogin,
  buildWeb,
  type Env,
  newPage,
  shootOpenPages,
  shot,
  startEnv,
} from 'db8/test/web/browser.ts';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type SwarmNode, startSwarmNode, swarmEnv, until } from '../server/swarm-node.ts';

// Swarm questions in headless Chromium against two real db8 nodes on the local nats-server
// (JetStream at 127.0.0.1:4222, a unique subject prefix and stream per run). A person signed in on
// node A asks through the form (a bad form and a refused envelope publish nothing), finds the
// question in the list and filters it by tag and scope. A person on node B opens the replicated
// room and answers; the answer appears on A's open page over the socket (no reload) with its origin
// class, speaker and gateway. A's person, the asker, publishes a summary and closes the question
// accepting it; both pages show them. Screenshots: question-*.png at 1280 and 390 px.

const RUN = randomBytes(5).toString('hex');
const run = { prefix: `w${RUN}.`, stream: `SWARM_W${RUN}`, settings: {} };
const TAG = `web-${RUN}`;
const OTHER = `other-${RUN}`;
const TEXT = `Which cache should the ${RUN} service use?`;

let env: Env;
let B: SwarmNode;
let pageA: Page;
let pageB: Page;
let questionId = '';
let roomId = '';

// biome-ignore lint/suspicious/noExplicitAny: REST answers read field by field.
const restA = async (path: string, init: RequestInit = {}): Promise<any> => {
  const r = await fetch(`${env.url}${path}`, init);
  return r.json();
};
const listA = (q: string) =>
  restA(`/v1/swarm/questions?${q}`).then((r) => r.questions as { question_id: string }[]);

beforeAll(async () => {
  const webDist = buildWeb();
  env = await startEnv({ env: swarmEnv('a', run) });
  B = await startSwarmNode('b', run, { webDist });
  pageA = await newPage(env);
  await adminLogin(env, pageA);
  // B's one-time link was spent by the helper's login: the person on B carries a fresh session.
  const session = await (
    await fetch(`${B.server.url}/v1/auth/session`, {
      method: 'POST',
      headers: { authorization: `Bearer ${B.admin}` },
    })
  ).json();
  pageB = await newPage(env);
  await pageB.addInitScript((s) => localStorage.setItem('db8.session', s), JSON.stringify(session));
}, 180_000);

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await shootOpenPages(`question-${ctx.task.name}`);
});

afterAll(async () => {
  // Pages first (their sockets would retry a closed node); B serves the build env.close() deletes.
  await pageB?.context().close();
  await pageA?.context().close();
  await B?.close();
  await env?.close();
});

async function both(page: Page, name: string) {
  // From the top: a full-page shot of a scrolled page draws the sticky top bar mid-page.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.setViewportSize({ width: 1280, height: 860 });
  await shot(page, `${name}-1280`);
  await page.setViewportSize({ width: 390, height: 860 });
  await shot(page, `${name}-390`);
  // Nothing may run off a phone's screen sideways.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(overflow, `${name} is wider than the phone`).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 860 });
}

describe('swarm questions in the web app', () => {
  it('asks through the form: bad input is refused with nothing published, a good one opens its room', async () => {
    await pageA.goto(`${env.url}/`);
    await pageA.getByRole('navigation', { name: 'main' }).getByRole('link', { name: 'Questions' }).click();
    await pageA.waitForURL(`${env.url}/questions`);
    await pageA.getByRole('button', { name: 'Ask the swarm' }).click();

    // Empty form: the ask schema's messages, and no request reaches the server.
    await pageA.getByRole('button', { name: 'Ask', exact: true }).click();
    await pageA.getByTestId('error-q-text').waitFor();
    await pageA.getByTestId('error-q-tags').waitFor();

    // A global room may never admit live humans: the node's gate refuses, nothing is published.
    await pageA.locator('#q-text').fill(`${TEXT} (refused)`);
    await pageA.locator('#q-tags').fill(TAG);
    await pageA.locator('#q-scope').selectOption('global');
    await pageA.locator('#q-profile').selectOption('direct-live-allowed');
    await pageA.getByRole('button', { name: 'Ask', exact: true }).click();
    const refused = (await pageA.getByTestId('ask-error').textContent()) ?? '';
    await both(pageA, 'question-ask-refused');
    // The page shows the code the REST API gives the same ask.
    const admin = JSON.parse((await pageA.evaluate(() => localStorage.getItem('db8.session'))) ?? '{}');
    const same = await fetch(`${env.url}/v1/swarm/questions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        ask: { text: 'x', tags: [TAG], scope: 'global', ttl_sec: 3600, profile: 'direct-live-allowed' },
      }),
    });
    expect(same.status).toBeGreaterThanOrEqual(400);
    const code = ((await same.json()) as { error: { code: string } }).error.code;
    expect(refused.startsWith(`${code}: `)).toBe(true);
    expect(await listA('status=all')).toEqual([]);

    await pageA.locator('#q-text').fill(TEXT);
    await pageA.locator('#q-tags').fill(`${TAG}, storage`);
    await pageA.locator('#q-scope').selectOption('federation-local');
    await pageA.locator('#q-profile').selectOption('');
    await pageA.locator('#q-ttl').fill('900');
    await pageA.getByRole('button', { name: 'Ask', exact: true }).click();
    await pageA.waitForURL(/\/rooms\/[^/]+$/);
    roomId = decodeURIComponent(new URL(pageA.url()).pathname.split('/')[2] ?? '');
    const listed = await listA('status=all');
    expect(listed).toHaveLength(1);
    questionId = listed[0]!.question_id;
    await expect.poll(() => pageA.getByTestId('q-text').textContent()).toBe(TEXT);
    // The scope's default profile (mediated-only) is the server's, read back from the room.
    const room = await restA(`/v1/swarm/questions/${encodeURIComponent(questionId)}`);
    expect(await pageA.getByTestId('q-profile').textContent()).toBe(room.room.profile);
    expect(await pageA.getByTestId('q-my-role').textContent()).toBe('asker');
    expect(room.room_id).toBe(roomId);
    // The envelope's facts, as the node folded them.
    const facts = (await pageA.getByRole('definition').allTextContents()).join(' | ');
    expect(facts).toContain(questionId);
    for (const t of room.room.question.tags) expect(facts).toContain(`#${t}`);
    expect(facts).toContain(room.room.question.scope);
  });

  it('lists the question with its TTL and answer count, filtered by tag and scope', async () => {
    // A second question with another tag, asked over REST, so the tag filter has something to hide.
    const admin = JSON.parse((await pageA.evaluate(() => localStorage.getItem('db8.session'))) ?? '{}');
    const other = await fetch(`${env.url}/v1/swarm/questions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ask: { text: `Other ${RUN}`, tags: [OTHER], scope: 'global', ttl_sec: 900 } }),
    });
    expect(other.status).toBe(201);

    await pageA.goto(`${env.url}/questions`);
    const rows = pageA.locator('[data-question]');
    await expect.poll(() => rows.count()).toBe(2);
    const mine = pageA.locator(`[data-question="${questionId}"]`);
    expect(await mine.getByTestId('q-status').textContent()).toBe('open');
    expect(await mine.getByTestId('q-answers').textContent()).toBe('0');
    // The TTL counts down from the server's deadline (900 s from the ask): mm:ss, under 15 minutes.
    const ttl = (await mine.getByTestId('q-ttl').textContent()) ?? '';
    expect(ttl).toMatch(/^1[0-4]:\d\d$|^0\d:\d\d$/);

    await pageA.getByRole('searchbox', { name: 'tag' }).fill(TAG);
    await pageA.getByRole('button', { name: 'Filter' }).click();
    await pageA.waitForURL(`${env.url}/questions?tag=${TAG}`);
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().getAttribute('data-question')).toBe(questionId);
    await both(pageA, 'question-list-tag');

    // A tag chip filters by that tag; a scope the question is not in shows none.
    await pageA.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => rows.count()).toBe(2);
    await pageA.getByRole('button', { name: `#${OTHER}` }).click();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().getAttribute('data-question')).not.toBe(questionId);
    await pageA.getByRole('button', { name: 'Clear' }).click();
    await pageA.getByRole('combobox', { name: 'scope' }).selectOption('cross-federation');
    await pageA.getByTestId('q-empty').waitFor();
    await pageA.getByRole('combobox', { name: 'scope' }).selectOption('federation-local');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().getAttribute('data-question')).toBe(questionId);
  });

  it("answers on node B; A's open room shows it live with origin class, speaker and gateway", async () => {
    await pageA.goto(`${env.url}/rooms/${encodeURIComponent(roomId)}`);
    await pageA.getByTestId('q-no-messages').waitFor();
    await expect.poll(() => pageA.getByTestId('live-status').textContent()).toBe('live');
    // Marks this page load: still there after the answer means the page was not reloaded.
    await pageA.evaluate(() => {
      (window as unknown as { marker: number }).marker = 1;
    });

    await pageB.goto(`${B.server.url}/questions?tag=${TAG}`);
    await pageB.locator(`[data-question="${questionId}"] a`).first().click();
    await pageB.getByTestId('q-text').waitFor();
    expect(await pageB.getByTestId('q-text').textContent()).toBe(TEXT);
    await pageB.getByText('This node has not joined.').waitFor();
    // The room admits what its profile admits: no live humans under mediated-only.
    const origins = await pageB.locator('#q-msg-origin option').allTextContents();
    expect(origins).toContain('node-mediated-human');
    expect(origins).not.toContain('human-live');

    // An empty answer is the form's to refuse; nothing is sent.
    await pageB.getByRole('button', { name: 'Send' }).click();
    await pageB.getByTestId('error-q-msg-text').waitFor();
    expect((await restA(`/v1/swarm/questions/${encodeURIComponent(questionId)}`)).room.messages).toEqual([]);

    const answer = `Use a write-through LRU (${RUN}).`;
    await pageB.locator('#q-msg-text').fill(answer);
    await pageB.locator('#q-msg-origin').selectOption('node-mediated-human');
    await pageB.getByRole('button', { name: 'Send' }).click();
    await pageB.getByTestId('q-message').waitFor();
    expect(await pageB.getByTestId('q-my-role').textContent()).toBe('participant');

    const msgA = pageA.getByTestId('q-message');
    await msgA.waitFor({ timeout: 15_000 });
    expect(await msgA.locator('.q-msg-text').textContent()).toBe(answer);
    expect(await msgA.getByTestId('origin').textContent()).toBe('node-mediated-human');
    const bNode = await (await fetch(`${B.server.url}/v1/swarm/node`)).json();
    const bSession = JSON.parse((await pageB.evaluate(() => localStorage.getItem('db8.session'))) ?? '{}');
    expect(await msgA.getByTestId('gateway').getAttribute('title')).toBe(bNode.node_id);
    expect(await msgA.getByTestId('speaker').textContent()).toBe(bSession.principal);
    expect(await pageA.getByTestId('q-answer-count').textContent()).toBe('1 answer');
    expect(await pageA.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    // A signed-out visitor reads the room (no form, a sign-in hint).
    const anon = await newPage(env);
    await anon.goto(`${env.url}/rooms/${encodeURIComponent(roomId)}`);
    await anon.getByTestId('q-message').waitFor();
    expect(await anon.getByTestId('q-message').getByTestId('origin').textContent()).toBe(
      'node-mediated-human',
    );
    expect(await anon.getByRole('button', { name: 'Send' }).count()).toBe(0);
    await anon.getByText('to answer.').waitFor();
    // Its Sign in goes to the sign-in page, which brings the visitor back to this room.
    expect(await anon.getByRole('main').getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(
      `/signin?to=${encodeURIComponent(`/rooms/${encodeURIComponent(roomId)}`)}`,
    );
    await anon.context().close();
    await both(pageA, 'question-room-answer');
    await both(pageB, 'question-room-b');
  });

  it('the asker accepts the answer and changes the profile; B sees both live', async () => {
    await pageA.getByTestId('q-message').getByRole('button', { name: 'Accept' }).click();
    for (const page of [pageA, pageB])
      await page.getByTestId('q-message').getByTestId('verdict').waitFor({ timeout: 15_000 });
    const judged = await restA(`/v1/swarm/questions/${encodeURIComponent(questionId)}`);
    expect(judged.room.messages[0].verdict).toBe('accept');
    expect(await pageB.getByTestId('verdict').textContent()).toBe(`${judged.room.messages[0].verdict}ed`);

    // Down to `none`: B's form now offers only what the new profile admits (node-generated).
    await pageA.locator('#q-policy').selectOption('none');
    await pageA.getByRole('button', { name: 'Set profile' }).click();
    await expect.poll(() => pageB.getByTestId('q-profile').textContent(), { timeout: 15_000 }).toBe('none');
    const changed = await restA(`/v1/swarm/questions/${encodeURIComponent(questionId)}`);
    expect(changed.room.profiles.map((p: { profile: string }) => p.profile)).toEqual([
      'mediated-only',
      'none',
    ]);
    expect(await pageB.locator('.q-history li').count()).toBe(changed.room.profiles.length);
    expect(await pageB.locator('#q-msg-origin option').allTextContents()).toEqual(['node-generated']);
    await both(pageB, 'question-room-verdict-b');
  });

  it('the asker summarises and closes on A; both pages show the summary and the close', async () => {
    const summaries = pageA.getByTestId('q-summary');
    // Out of range: the summary schema's message, nothing published.
    await pageA.locator('#q-sum-facts').fill('LRU fits the working set');
    await pageA.locator('#q-sum-unc').fill('1.5');
    await pageA.getByRole('button', { name: 'Publish summary' }).click();
    await pageA.getByTestId('error-q-sum-unc').waitFor();
    expect(await summaries.count()).toBe(0);

    await pageA.locator('#q-sum-facts').fill('LRU fits the working set\nWrites are rare');
    await pageA.locator('#q-sum-hypotheses').fill('Write-through keeps reads consistent');
    await pageA.locator('#q-sum-recommendations').fill('Ship the LRU behind a flag');
    await pageA.locator('#q-sum-unc').fill('0.3');
    await pageA.locator('#q-sum-status').selectOption('final');
    await pageA.getByRole('button', { name: 'Publish summary' }).click();
    await summaries.waitFor();
    // A published summary clears the form, list boxes included (they remount on reset).
    await expect.poll(() => pageA.locator('#q-sum-facts').inputValue()).toBe('');
    const room = await restA(`/v1/swarm/questions/${encodeURIComponent(questionId)}`);
    const summary = room.room.summaries[0];
    expect(summary.facts).toEqual(['LRU fits the working set', 'Writes are rare']);
    expect(await summaries.getByTestId('q-uncertainty').textContent()).toContain(
      `${Math.round(summary.uncertainty * 100)}%`,
    );
    await pageB.getByTestId('q-summary').waitFor({ timeout: 15_000 });
    expect(await pageB.getByTestId('q-summary').textContent()).toContain('Ship the LRU behind a flag');

    await pageA.locator('#q-close-res').selectOption('accepted-answer');
    await pageA.locator('#q-close-sum').selectOption(summary.key);
    await pageA.getByRole('button', { name: 'Close the question' }).click();
    for (const page of [pageA, pageB]) {
      await page.getByTestId('q-close').waitFor({ timeout: 15_000 });
      expect(await page.getByTestId('q-resolution').textContent()).toBe('accepted-answer');
      // The accepted summary is shown by its content, not its id.
      expect(await page.getByTestId('q-accepted').textContent()).toContain('LRU fits the working set');
      expect(await page.getByTestId('q-room-status').textContent()).toBe('closed');
      expect(await page.getByRole('button', { name: 'Send' }).count()).toBe(0);
    }
    await both(pageA, 'question-room-closed');
    await both(pageB, 'question-room-closed-b');

    // The list follows: not active any more, listed as closed with its one answer.
    await until('closed in the list', async () => (await listA('status=active')).length === 1);
    await pageA.goto(`${env.url}/questions?status=closed`);
    const row = pageA.locator(`[data-question="${questionId}"]`);
    await row.waitFor();
    expect(await row.getByTestId('q-status').textContent()).toBe('closed');
    expect(await row.getByTestId('q-answers').textContent()).toBe('1');
  });

  it("asks from the lobby's create form, with answerer filters; the room it opens carries them", async () => {
    const lobbyTag = `lobby-${RUN}`;
    await pageA.goto(`${env.url}/`);
    await pageA.getByRole('heading', { name: 'New room' }).waitFor();
    await pageA.getByLabel('protocol', { exact: true }).selectOption('question');
    // Its own form, not the generated one that asked for a signed envelope.
    await pageA.locator('.create-room #q-text').waitFor();
    expect(await pageA.locator('#cfg-envelope').count()).toBe(0);
    await pageA.locator('#q-text').fill(`Asked from the lobby, ${RUN}?`);
    await pageA.locator('#q-tags').fill(lobbyTag);
    await pageA.locator('#q-ttl').fill('600');
    await pageA.locator('#q-languages').fill('en, de');
    await pageA.locator('#q-models_exclude').fill('old-model');
    await pageA.locator('#q-min-rep').fill('0.5');
    await pageA.locator('#q-urgency').selectOption('high');
    await both(pageA, 'question-lobby-form');
    await pageA.getByRole('button', { name: 'Ask and open its room' }).click();
    await pageA.waitForURL(/\/rooms\/[^/]+$/);
    const opened = decodeURIComponent(new URL(pageA.url()).pathname.split('/')[2] ?? '');
    const [row] = await listA(`status=all&tag=${lobbyTag}`);
    expect(row?.question_id).toBeDefined();
    const room = await restA(`/v1/swarm/questions/${encodeURIComponent(row!.question_id)}`);
    expect(room.room_id).toBe(opened);
    expect(room.room.question).toMatchObject({
      tags: [lobbyTag],
      languages: ['en', 'de'],
      modelsRequire: [],
      modelsExclude: ['old-model'],
      minReputation: 0.5,
    });
    expect(room.room.question.deadline - room.room.question.createdAt).toBe(600_000);
    await expect.poll(() => pageA.getByTestId('q-text').textContent()).toBe(`Asked from the lobby, ${RUN}?`);
  });

  it('a node without NATS says SWARM_OFFLINE before the ask form, not after a submit', async () => {
    const offline = await startEnv({ env: {} });
    const page = await newPage(offline);
    try {
      await adminLogin(offline, page);
      await page.goto(`${offline.url}/questions`);
      await page.getByTestId('q-offline').waitFor({ timeout: 15_000 });
      expect(await page.getByTestId('q-offline').textContent()).toContain('SWARM_OFFLINE');
      expect(await page.getByRole('button', { name: 'Ask the swarm' }).count()).toBe(0);
    } finally {
      await page.context().close();
      await offline.close();
    }
  });
});
