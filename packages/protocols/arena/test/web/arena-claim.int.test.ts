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
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// A person entrant claimed in the browser: the organizer makes its invitation link on the
// tournament page, a person opens it (signed out first: the page keeps the invitation and asks them
// to sign in), claims the entrant and finds their matches linked to their rooms; the organizer then
// sees who claimed it, by name. A used invitation and a claimed entrant are said in words.

let env: Env;
let adminSession = '';

beforeAll(async () => {
  buildWeb();
  env = await startEnv({ env: { DB8_ARENA_SCAN_MS: '200' } });
  const page = await newPage(env);
  await adminLogin(env, page);
  adminSession = (await page.evaluate(() => localStorage.getItem('db8.session'))) ?? '';
  await page.context().close();
});
afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await shootOpenPages(`arena-claim-${ctx.task.name}`);
});
afterAll(async () => {
  await env?.close();
});

const adminToken = () => (JSON.parse(adminSession) as { token: string }).token;

/** A person's session as the browser stores it (an agent registered by name stands in for them). */
async function personSession(name: string): Promise<string> {
  const anon = client(env);
  const reg = await anon.registerAgent({ name });
  return JSON.stringify(await anon.sessionFromApiKey({ api_key: reg.api_key }));
}

/** A sealed-bid cup with one person entrant; its bidding window outlasts the test, so matches stay open. */
async function cup(name: string): Promise<string> {
  const room = await client(env, adminToken()).createRoom({
    protocol: 'arena',
    title: name,
    config: {
      name,
      game: 'sealed-bid',
      gameConfig: { biddingWindowMs: 30 * 60_000 },
      format: { kind: 'round-robin', games: 1 },
      entrants: [
        { name: 'truthful', kind: 'scripted', strategy: 'truthful' },
        { name: 'lowballer', kind: 'scripted', strategy: 'lowball' },
        { name: 'Grace', kind: 'person' },
      ],
      seed: name,
      concurrency: 3,
      bootstrap: 0,
    },
  });
  return room.room_id;
}

const Invites = z.object({ invites: z.array(z.object({ entrant: z.string(), invite: z.string() })) });

async function signedIn(raw: string): Promise<Page> {
  const page = await newPage(env);
  await page.addInitScript((s) => localStorage.setItem('db8.session', s), raw);
  return page;
}

describe('claiming a person entrant in the browser', () => {
  it('the organizer makes a link; the person signs in, claims and finds their match rooms', async () => {
    const id = await cup('claim cup');
    // The organizer's page: the person entrant, unclaimed, with its link made on request.
    const org = await signedIn(adminSession);
    await org.setViewportSize({ width: 1366, height: 900 });
    await org.goto(`${env.url}/rooms/${encodeURIComponent(id)}`);
    const row = org.getByTestId('arena-invite-Grace');
    await row.getByText('not claimed yet').waitFor();
    await row.getByRole('button', { name: 'Make invitation link' }).click();
    const field = row.getByLabel('invitation link for Grace');
    await field.waitFor();
    const link = await field.inputValue();
    expect(link).toMatch(new RegExp(`^${env.url}/rooms/${encodeURIComponent(id)}#arena-invite=[\\w.-]+$`));
    await shot(org, 'arena-claim-organizer-1366');
    await org.setViewportSize({ width: 390, height: 844 });
    expect(await offTheSide(org)).toEqual([]);
    await shot(org, 'arena-claim-organizer-390');

    // The person, signed out: the invitation leaves the address bar and waits in this browser.
    const person = await newPage(env);
    await person.setViewportSize({ width: 390, height: 844 });
    await person.goto(link);
    const claim = person.getByTestId('arena-claim');
    await claim.getByText('You are invited to play Grace').waitFor();
    await claim.getByText('Sign in to claim it').waitFor();
    expect(person.url()).toBe(`${env.url}/rooms/${encodeURIComponent(id)}`);
    expect(await claim.getByRole('button').count()).toBe(0);
    await shot(person, 'arena-claim-signed-out-390');
    // Its Sign in: this server has no identity provider, so the page says how people get in, no dead button.
    await claim.getByRole('link', { name: 'Sign in' }).click();
    const signin = person.getByTestId('signin');
    await signin.getByText('This server has no sign-in for people set up yet').waitFor();
    expect(await signin.getByRole('button').count()).toBe(0);
    await shot(person, 'arena-claim-signin-no-provider-390');
    await person.goBack();
    await claim.getByText('You are invited to play Grace').waitFor();
    // Signing in in another tab of the same browser: this page offers the claim.
    const session = await personSession('Grace Hopper');
    const other = await person.context().newPage();
    await other.goto(`${env.url}/`);
    await other.evaluate((s) => localStorage.setItem('db8.session', s), session);
    await other.close();
    const button = claim.getByRole('button', { name: 'Claim Grace' });
    await button.waitFor();
    await shot(person, 'arena-claim-signed-in-390');
    await button.click();
    await person.getByTestId('arena-claimed').getByText('You play Grace').waitFor();
    // Grace's two matches (one against each scripted entrant), each linked to its open room.
    const mine = person.getByTestId('arena-my-matches');
    await expect.poll(() => mine.getByRole('link', { name: 'your match room' }).count()).toBe(2);
    expect(await mine.textContent()).toContain('Grace vs truthful');
    expect(await mine.textContent()).toContain('Grace vs lowballer');
    expect(await offTheSide(person)).toEqual([]);
    await shot(person, 'arena-claim-matches-390');
    await person.setViewportSize({ width: 1366, height: 900 });
    await shot(person, 'arena-claim-matches-1366');
    // The invitation was spent: a reload offers nothing to claim.
    await person.reload();
    await mine.waitFor();
    expect(await person.getByTestId('arena-claim').count()).toBe(0);
    // A match link opens its room, where Grace holds her seat.
    const href = await mine.getByRole('link', { name: 'your match room' }).first().getAttribute('href');
    await mine.getByRole('link', { name: 'your match room' }).first().click();
    await person.waitForURL(`${env.url}${href}`);

    // The organizer sees who claimed Grace, by name (the page polls).
    await org.setViewportSize({ width: 1366, height: 900 });
    await row.getByText('claimed by Grace Hopper').waitFor();
    expect(await row.getByRole('button').count()).toBe(0);
    await org.context().close();

    // The used link, opened by someone else signed in: said in words, and the invitation dropped.
    const late = await signedIn(await personSession('Latecomer'));
    await late.goto(link);
    await late.getByRole('button', { name: 'Claim Grace' }).click();
    await late.getByRole('alert').getByText('This invitation was already used').waitFor();
    await shot(late, 'arena-claim-used-1366');
    await late.reload();
    await late.getByTestId('arena-standings').waitFor();
    expect(await late.getByTestId('arena-claim').count()).toBe(0);
    // A fresh invitation for an entrant someone already holds: 409 ENTRANT_CLAIMED, in words.
    const { invites } = await client(env, adminToken()).request(
      Invites,
      'POST',
      `/v1/arena/tournaments/${encodeURIComponent(id)}/invites`,
      { entrants: ['Grace'] },
    );
    await late.goto(`${env.url}/rooms/${encodeURIComponent(id)}#arena-invite=${invites[0]!.invite}`);
    await late.getByRole('button', { name: 'Claim Grace' }).click();
    await late.getByRole('alert').getByText('Someone else already claimed this entrant').waitFor();
    await late.context().close();
    await person.context().close();
  });

  it('shows the organizer view to no one else', async () => {
    const id = await cup('private cup');
    const page = await signedIn(await personSession('Onlooker'));
    // The page asks for the organizer's list and is refused: then it shows nothing of it.
    const asked = page.waitForResponse((r) => r.url().endsWith(`/${encodeURIComponent(id)}/entrants`));
    await page.goto(`${env.url}/rooms/${encodeURIComponent(id)}`);
    expect((await asked).status()).toBe(403);
    await page.getByTestId('arena-standings').waitFor();
    expect(await page.getByTestId('arena-invites').count()).toBe(0);
    await page.context().close();
  });
});
