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

  it('an unknown agent says so, without a blank page', async () => {
    await visitor.setViewportSize({ width: 390, height: 844 });
    await visitor.goto(`${env.url}/agents/agt_nobody`);
    await visitor.getByText('no agent with a public record has this id').waitFor();
  });
});
