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

// Issue 23: the secretary role from the question room page, in headless Chromium against two real
// nodes on the local nats-server. On node A the asker delegates the role to B's participant (the
// Secretary card: a participant and "may close"); on node B a participant takes the role over once
// the asker lapsed (1-s presence lapse). Screenshots question-secretary-*.png at 1366×900 and 390×844.

const RUN = randomBytes(5).toString('hex');
const run = { prefix: `s${RUN}.`, stream: `SWARM_S${RUN}`, settings: { presenceLapseMs: 1000 } };

let env: Env;
let B: SwarmNode;
let pageA: Page;
let pageB: Page;

// biome-ignore lint/suspicious/noExplicitAny: REST answers read field by field.
const roomOn = async (base: string, qid: string): Promise<any> =>
  (await (await fetch(`${base}/v1/swarm/questions/${encodeURIComponent(qid)}`)).json()).room;

beforeAll(async () => {
  const webDist = buildWeb();
  env = await startEnv({ env: swarmEnv('a', run) });
  B = await startSwarmNode('b', run, { webDist });
  pageA = await newPage(env);
  await adminLogin(env, pageA);
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
  if (ctx.task.result?.state === 'fail') await shootOpenPages(`question-secretary-${ctx.task.name}`);
});

afterAll(async () => {
  await pageB?.context().close();
  await pageA?.context().close();
  await B?.close();
  await env?.close();
});

async function both(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.setViewportSize({ width: 1366, height: 900 });
  await shot(page, `${name}-1366`);
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, `${name}-390`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(overflow, `${name} is wider than the phone`).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1366, height: 900 });
}

/** Asks on A (as A's admin) and has B's admin join and answer; returns the question and room ids. */
async function askAndAnswer(text: string) {
  const token = JSON.parse((await pageA.evaluate(() => localStorage.getItem('db8.session'))) ?? '{}').token;
  const asked = await (
    await fetch(`${env.url}/v1/swarm/questions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ask: { text, tags: ['sec'], scope: 'federation-local', ttl_sec: 900 } }),
    })
  ).json();
  const qid = asked.question_id as string;
  await until(
    'on B',
    async () => (await B.call('GET', `/v1/swarm/questions/${encodeURIComponent(qid)}`)).status === 200,
  );
  const path = `/v1/swarm/questions/${encodeURIComponent(qid)}/inputs`;
  const join = {
    type: 'swarm/room-join',
    'responder/models': [],
    'responder/languages': ['en'],
    'responder/tags': ['sec'],
  };
  expect((await B.call('POST', path, { draft: join })).status).toBe(200);
  const say = {
    type: 'swarm/room-message',
    'message/kind': 'answer',
    'message/text': `An answer from B (${RUN}).`,
    'origin/class': 'node-generated',
    'origin/speaker': 'scripted',
  };
  expect((await B.call('POST', path, { draft: say })).status).toBe(200);
  return { qid, roomId: asked.room_id as string };
}

describe('the secretary role in the question room page', () => {
  it('the asker delegates the role to a participant, allowed to close', async () => {
    const { qid, roomId } = await askAndAnswer(`Who keeps the minutes (${RUN})?`);
    const bMe = (await B.call('GET', '/v1/swarm/node')).json.participant_id as string;
    await until('B joined on A', async () =>
      (await roomOn(env.url, qid)).participants.some((p: { id: string }) => p.id === bMe),
    );
    await pageA.goto(`${env.url}/rooms/${encodeURIComponent(roomId)}`);
    await pageA.getByRole('heading', { name: 'Secretary' }).waitFor();
    await expect.poll(() => pageA.locator('#q-delegate-to option').count()).toBe(1);
    expect(await pageA.locator('#q-delegate-to').inputValue()).toBe(bMe);
    await pageA.getByLabel('may close the question').check();
    await both(pageA, 'question-secretary-delegate');
    await pageA.getByRole('button', { name: 'Delegate' }).click();

    await expect
      .poll(async () => (await roomOn(env.url, qid)).secretary)
      .toMatchObject({ participant: bMe, node: 'node:b', via: 'delegation', closeAllowed: true });
    // The page follows the room: the card goes, the profile card names the secretary.
    await pageA.getByRole('heading', { name: 'Secretary' }).waitFor({ state: 'detached' });
    await expect.poll(() => pageA.getByText('via delegation, may close').count()).toBe(1);
    await both(pageA, 'question-secretary-delegated');
  });

  it('a participant takes the role over once the asker lapsed', async () => {
    const { qid, roomId } = await askAndAnswer(`Who steps in (${RUN})?`);
    const bMe = (await B.call('GET', '/v1/swarm/node')).json.participant_id as string;
    await pageB.goto(`${B.server.url}/rooms/${encodeURIComponent(roomId)}`);
    await expect.poll(() => pageB.getByTestId('q-my-role').textContent()).toBe('participant');
    const button = pageB.getByRole('button', { name: 'Take over as secretary' });
    await both(pageB, 'question-secretary-takeover');
    // Before the lapse (in stream time) the room says ASKER_PRESENT and nothing is written; the
    // person tries again, as they would.
    await expect
      .poll(async () => {
        const s = (await roomOn(B.server.url, qid)).secretary;
        if (!s && (await button.count())) await button.click();
        return s?.participant ?? null;
      })
      .toBe(bMe);
    expect((await roomOn(B.server.url, qid)).secretary).toMatchObject({ via: 'lapse', node: 'node:b' });
    await expect.poll(() => pageB.getByTestId('q-my-role').textContent()).toBe('secretary');
    await both(pageB, 'question-secretary-took-over');
  });
});
