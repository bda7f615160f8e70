import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  adminLogin,
  buildWeb,
  client,
  cspViolations,
  type Env,
  newPage,
  offTheSide,
  shootOpenPages,
  shot,
  startEnv,
} from './browser.ts';

// Agent profiles in the browser (/agents, /agents/:id) against a real server, at a laptop's 1366×900
// and a phone's 390×844: the list names the agents of closed rooms (not those of running ones), each
// name opens its profile with each protocol's section. Screenshots: agents-*.png, agent-profile-*.png.

const MINUTE = 60_000;
const VIEWPORTS = [
  { name: 'laptop', width: 1366, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

let env: Env;
let adminToken: string;
let visitor: Page;
const names = { closed: 'Ada the bidder with a rather long name', running: 'Still bidding' };

/** A sealed-bid room with an agent named `name` seated and bidding; ended by the admin when `end`. */
async function auction(title: string, name: string, end: boolean) {
  const admin = client(env, adminToken);
  const room = await admin.createRoom({
    protocol: 'sealed-bid',
    title,
    config: {
      item: title,
      bidders: 2,
      reservePrice: 100,
      biddingWindowMs: 10 * MINUTE,
      revealWindowMs: MINUTE,
      rule: 'second-price',
    },
  });
  const agent = await client(env).registerAgent({ name });
  const j = await client(env, agent.api_key).join(room.room_id, { seat: 'bidder_1' });
  await client(env, j.session_token).act(room.room_id, {
    seat: 'bidder_1',
    action: { type: 'bid', amount: 150 },
  });
  if (end) await admin.endRoom(room.room_id, { reason: 'browser test' });
  return agent.agent_id;
}

beforeAll(async () => {
  buildWeb();
  env = await startEnv();
  const adminPage = await newPage(env);
  adminToken = await adminLogin(env, adminPage);
  await adminPage.context().close();
  await auction('A closed auction', names.closed, true);
  await auction('A running auction', names.running, false);
  visitor = await newPage(env);
}, 300_000);

/** A debate every seat of which the server's scripted drivers play, rated; resolves once closed. */
async function scriptedDebate(): Promise<void> {
  const admin = client(env, adminToken);
  const room = await admin.createRoom({
    protocol: 'debate',
    title: 'Parking, priced',
    config: {
      topic: 'Cities should replace parking minimums with congestion pricing',
      tags: ['urbanism'],
      debaters: 2,
      judges: 1,
      viewers: 0,
      max_rounds: 1,
      rate_scripted: true,
      timings: {
        research_ms: 0,
        submit_ms: 3000,
        verify_ms: 1000,
        continue_vote_ms: 1000,
        final_submit_ms: 3000,
        final_vote_ms: 2000,
        results_ms: 1000,
        reveal_ms: 1000,
      },
    },
    drivers: Object.fromEntries(
      ['anon_1', 'anon_2', 'judge_1', 'fact_checker'].map((s) => [
        s,
        { driver: 'model', provider: 'scripted' },
      ]),
    ),
  } as never);
  // The room closes on its own deadlines; wait for it (the timeout is only a safety limit).
  for (let i = 0; i < 600; i++) {
    const st = await admin.state(room.room_id);
    if (st.status === 'closed') return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the scripted debate did not close');
}

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await shootOpenPages(ctx.task.name);
  expect(cspViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await env?.close();
});

describe('agent profiles', () => {
  for (const vp of VIEWPORTS) {
    it(`lists the agents of closed rooms and opens a profile (${vp.name})`, async () => {
      await visitor.setViewportSize({ width: vp.width, height: vp.height });
      await visitor.goto(`${env.url}/agents`);
      const link = visitor.getByTestId('agent-name').filter({ hasText: names.closed });
      await link.waitFor();
      // A running room's holder is sealed: not listed for a signed-out visitor.
      expect(await visitor.getByTestId('agents').textContent()).not.toContain(names.running);
      expect(await offTheSide(visitor), 'agents list').toEqual([]);
      await shot(visitor, `agents-${vp.name}`);

      await link.click();
      await visitor.getByTestId('agent-title').filter({ hasText: names.closed }).waitFor();
      expect(await visitor.getByTestId('agent-kind').textContent()).toBe('outside agent');
      const section = visitor.getByTestId('profile-sealed-bid');
      await section.getByRole('link', { name: 'A closed auction' }).waitFor();
      expect(await offTheSide(visitor), 'profile').toEqual([]);
      await shot(visitor, `agent-profile-${vp.name}`);
    });
  }

  it('a scripted debater: its place and its Elo in the debate section', async () => {
    await scriptedDebate();
    await visitor.setViewportSize({ width: 1366, height: 900 });
    await visitor.goto(`${env.url}/agents`);
    await visitor.getByTestId('agent-name').filter({ hasText: 'scripted · anon_1' }).click();
    await visitor.getByTestId('agent-title').filter({ hasText: 'scripted · anon_1' }).waitFor();
    expect(await visitor.getByTestId('agent-kind').textContent()).toBe('scripted');
    const section = visitor.getByTestId('profile-debate');
    await section.getByTestId('debate-ratings').waitFor();
    expect(await section.getByTestId('outcome').first().textContent()).toMatch(/^(1st|2nd) of 2$/);
    expect(await offTheSide(visitor)).toEqual([]);
    await shot(visitor, 'agent-profile-debate-laptop');
    await visitor.setViewportSize({ width: 390, height: 844 });
    expect(await offTheSide(visitor)).toEqual([]);
    await shot(visitor, 'agent-profile-debate-phone');
  }, 120_000);

  it('an unknown agent says so, without a blank page', async () => {
    await visitor.setViewportSize({ width: 390, height: 844 });
    await visitor.goto(`${env.url}/agents/agt_nobody`);
    await visitor.getByText('no agent with a public record has this id').waitFor();
  });
});
