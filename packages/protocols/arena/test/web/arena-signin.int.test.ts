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
import { type Idp, listenIdp, passLogin } from 'db8/test/web/oidc-provider.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// A person invited to play an entrant, signed out, signs in from the invitation's page with the
// server's OpenID Connect issuer (a REAL local oidc-provider standing in for the identity provider)
// and comes back to that page, where the kept invitation is claimable, and claims it.

let env: Env;
let idp: Idp;
let adminToken = '';
/** The admin's stored session, to open the organizer's page in another browser profile. */
let adminSession = '';

beforeAll(async () => {
  buildWeb();
  idp = await listenIdp();
  env = await startEnv({ env: { ...idp.serverEnv, DB8_ARENA_SCAN_MS: '200' } });
  idp.start(env.url);
  const page = await newPage(env);
  adminToken = await adminLogin(env, page);
  adminSession = (await page.evaluate(() => localStorage.getItem('db8.session'))) ?? '';
  await page.context().close();
});
afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await shootOpenPages(`arena-signin-${ctx.task.name}`);
});
afterAll(async () => {
  await env?.close();
  await idp?.close();
});

const Invites = z.object({ invites: z.array(z.object({ entrant: z.string(), invite: z.string() })) });

describe('signing in from an arena invitation', () => {
  it('the invited person signs in with the issuer, lands back on the tournament and claims', async () => {
    const room = await client(env, adminToken).createRoom({
      protocol: 'arena',
      title: 'sign-in cup',
      config: {
        name: 'sign-in cup',
        game: 'sealed-bid',
        gameConfig: { biddingWindowMs: 30 * 60_000 },
        format: { kind: 'round-robin', games: 1 },
        entrants: [
          { name: 'truthful', kind: 'scripted', strategy: 'truthful' },
          { name: 'Grace', kind: 'person' },
        ],
        seed: 'sign-in cup',
        concurrency: 2,
        bootstrap: 0,
      },
    });
    const id = room.room_id;
    const { invites } = await client(env, adminToken).request(
      Invites,
      'POST',
      `/v1/arena/tournaments/${encodeURIComponent(id)}/invites`,
      { entrants: ['Grace'] },
    );
    const tournament = `${env.url}/rooms/${encodeURIComponent(id)}`;
    const page = await newPage(env);
    await page.goto(`${tournament}#arena-invite=${invites[0]!.invite}`);
    const claim = page.getByTestId('arena-claim');
    await claim.getByText('You are invited to play Grace').waitFor();
    await claim.getByRole('link', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Continue with 127.0.0.1' }).click();
    await page.waitForURL((u) => u.origin === idp.issuer);
    await passLogin(page, 'grace');
    // Back on the tournament page, signed in by name, the kept invitation offered for the claim.
    await page.waitForURL(tournament);
    await page.getByTestId('signed-in-as').getByText('Grace Hopper').waitFor();
    const button = claim.getByRole('button', { name: 'Claim Grace' });
    await button.waitFor();
    await shot(page, 'arena-signin-back-to-claim');
    await button.click();
    await page.getByTestId('arena-claimed').getByText('You play Grace').waitFor();
    await shot(page, 'arena-signin-claimed');
    await page.context().close();
    // The organizer's list has the entrant claimed, by the name the server keeps for the person.
    const Entrants = z.object({
      entrants: z.array(
        z.object({ entrant: z.string(), claimed: z.boolean(), claimed_by: z.string().nullable() }),
      ),
    });
    const list = await client(env, adminToken).request(
      Entrants,
      'GET',
      `/v1/arena/tournaments/${encodeURIComponent(id)}/entrants`,
    );
    expect(list.entrants.find((e) => e.entrant === 'Grace')).toMatchObject({
      claimed: true,
      claimed_by: 'Grace Hopper',
    });
    // And the organizer's page says so.
    const organizer = await newPage(env);
    await organizer.addInitScript((s) => localStorage.setItem('db8.session', s), adminSession);
    await organizer.goto(tournament);
    await organizer.getByText('claimed by Grace Hopper').waitFor();
    await shot(organizer, 'arena-signin-organizer-names-claimant');
    await organizer.context().close();
  });
});
