import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb, client, type Env, newPage, shootOpenPages, shot, startEnv } from './browser.ts';
import { type Idp, listenIdp, passLogin, tokensFrom } from './oidc-provider.ts';

// People signing in from the web app with the server's OpenID Connect issuer: the code flow with
// PKCE in the browser, against a REAL local OIDC provider standing in for the identity provider
// (oidc-provider.ts). The person starts on a page, signs in there and lands back on it, named by the
// server; an answer whose state, nonce or issuer is not this sign-in's is refused in words, with no
// session; a session that ends (refused by the server, or past its expiry) says so and signs out.

let env: Env;
let idp: Idp;
/** A second, unrelated issuer: its tokens are valid, but not from the issuer this server trusts. */
let stranger: Idp;

beforeAll(async () => {
  buildWeb();
  idp = await listenIdp();
  stranger = await listenIdp();
  env = await startEnv({ env: idp.serverEnv });
  idp.start(env.url);
  stranger.start(env.url);
});
afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') await shootOpenPages(`signin-${ctx.task.name}`);
});
afterAll(async () => {
  await env?.close();
  await idp?.close();
  await stranger?.close();
});

const stored = (page: Page) => page.evaluate(() => localStorage.getItem('db8.session'));

/** From the page at `path`, the top bar's Sign in, then on to the provider's login page. */
async function toProvider(page: Page, path: string): Promise<void> {
  await page.goto(`${env.url}${path}`);
  await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).click();
  await page.waitForURL((u) => u.pathname === '/signin' && u.searchParams.get('to') === path);
  await page.getByRole('button', { name: 'Continue with 127.0.0.1' }).click();
  await page.waitForURL((u) => u.origin === idp.issuer);
}

/** The refusal on the callback page, once the sign-in has failed. */
async function refusal(page: Page): Promise<string> {
  const alert = page.getByTestId('signin-callback').getByRole('alert');
  await alert.waitFor();
  return (await alert.textContent()) ?? '';
}

describe('signing in with the OIDC issuer', () => {
  it('from a page, through the provider, back on that page signed in by name; sign out ends it', async () => {
    const page = await newPage(env);
    await toProvider(page, '/agents?limit=5');
    await shot(page, 'signin-provider-login');
    await passLogin(page, 'grace');
    await page.waitForURL(`${env.url}/agents?limit=5`);
    const who = page.getByTestId('signed-in-as');
    await who.waitFor();
    expect(await who.textContent()).toBe('Grace Hopper');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await shot(page, 'signin-back-signed-in');
    // The session is the server's own, for the person the provider named.
    const session = JSON.parse((await stored(page)) ?? 'null') as { token: string; principal: string };
    expect(session.principal).toBe('oidc:grace');
    const me = await client(env, session.token).me();
    expect(me).toMatchObject({ principal: 'oidc:grace', role: 'person' });
    // Nothing of the flow is left in this tab, and the code left the address bar.
    expect(await page.evaluate(() => sessionStorage.getItem('db8.signin'))).toBeNull();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).waitFor();
    expect(await stored(page)).toBeNull();
    await expect
      .poll(() =>
        client(env, session.token)
          .me()
          .then(
            () => 'live',
            (e: Error) => e.message,
          ),
      )
      .toMatch(/logged out/);
    await page.context().close();
  });

  it('refuses an answer whose state was tampered with: no session', async () => {
    const page = await newPage(env);
    await page.route(`${idp.issuer}/auth?*`, (route) => {
      const url = new URL(route.request().url());
      url.searchParams.set('state', 'forged-by-someone-else');
      return route.continue({ url: url.href });
    });
    await toProvider(page, '/');
    await passLogin(page, 'grace');
    expect(await refusal(page)).toMatch(/does not belong to the sign-in this browser started \(its state/);
    await shot(page, 'signin-refused-state');
    expect(await stored(page)).toBeNull();
    await page.context().close();
  });

  it('refuses an id_token made for another sign-in (wrong nonce): no session', async () => {
    const page = await newPage(env);
    await page.route(`${idp.issuer}/auth?*`, (route) => {
      const url = new URL(route.request().url());
      url.searchParams.set('nonce', 'someone-elses-nonce');
      return route.continue({ url: url.href });
    });
    await toProvider(page, '/');
    await passLogin(page, 'grace');
    expect(await refusal(page)).toMatch(/not made for this sign-in \(its nonce/);
    expect(await stored(page)).toBeNull();
    await page.context().close();
  });

  it('refuses an id_token from another issuer, in the browser and at the server: no session', async () => {
    const page = await newPage(env);
    let nonce = '';
    await page.route(`${idp.issuer}/auth?*`, (route) => {
      nonce = new URL(route.request().url()).searchParams.get('nonce') ?? '';
      return route.continue();
    });
    await toProvider(page, '/');
    // A real token of the other issuer, for this very sign-in's nonce, sent as the trusted one's answer.
    // (In a browser profile of its own: cookies ignore ports, so the two providers' would mix.)
    const elsewhere = await env.browser.newContext();
    const foreign = await tokensFrom(stranger, elsewhere, env.url, 'grace', nonce);
    await elsewhere.close();
    await page.route(`${idp.issuer}/token`, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        headers: { 'access-control-allow-origin': env.url, 'cache-control': 'no-store' },
        body: JSON.stringify({ ...foreign, token_type: 'Bearer', expires_in: 3600 }),
      }),
    );
    await passLogin(page, 'grace');
    expect(await refusal(page)).toMatch(/comes from another issuer than this server trusts/);
    await shot(page, 'signin-refused-issuer');
    expect(await stored(page)).toBeNull();
    // Were the browser's check skipped, the server refuses the token too.
    await expect(client(env, foreign.id_token).refreshSession()).rejects.toMatchObject({ status: 401 });
    await page.context().close();
  });

  it('the name shown is the one the server keeps for the person (GET /v1/auth/me), cleaned of control characters', async () => {
    const page = await newPage(env);
    await toProvider(page, '/');
    await passLogin(page, 'mallory');
    await page.waitForURL(`${env.url}/`);
    const who = page.getByTestId('signed-in-as');
    await who.waitFor();
    // The provider sent '  Mallory\u202E\u0007   Mischief ': the server kept it cleaned, and the
    // web app shows the server's, not the raw claim.
    expect(await who.textContent()).toBe('Mallory Mischief');
    const session = JSON.parse((await stored(page)) ?? 'null') as { token: string };
    expect(await client(env, session.token).me()).toMatchObject({
      principal: 'oidc:mallory',
      name: 'Mallory Mischief',
    });
    await page.context().close();
  });

  it('a session the server refuses is dropped: signed out, a notice, Sign in back to the same page', async () => {
    const page = await newPage(env);
    await toProvider(page, '/agents?limit=5');
    await passLogin(page, 'ada');
    await page.waitForURL(`${env.url}/agents?limit=5`);
    await page.getByTestId('signed-in-as').getByText('Ada Lovelace').waitFor();
    const { token } = JSON.parse((await stored(page)) ?? 'null') as { token: string };
    // Ended on the server (as an expiry would, or a logout elsewhere); the page still holds it.
    await client(env, token).logout();
    const asked: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/v1/auth/me') asked.push(r.url());
    });
    await page.reload();
    const notice = page.getByTestId('session-ended');
    await notice.waitFor();
    expect(await notice.textContent()).toContain('Your session ended — sign in again');
    await shot(page, 'signin-session-ended');
    expect(await stored(page)).toBeNull();
    const back = `/signin?to=${encodeURIComponent('/agents?limit=5')}`;
    const banner = page.getByRole('banner').getByRole('link', { name: 'Sign in' });
    expect(await banner.getAttribute('href')).toBe(back);
    expect(await notice.getByRole('link', { name: 'sign in again' }).getAttribute('href')).toBe(back);
    // It signs in again from the notice, back on the page, and the notice is gone.
    await page.context().clearCookies(); // the provider's own login session: log in there afresh
    await notice.getByRole('link', { name: 'sign in again' }).click();
    await page.getByRole('button', { name: 'Continue with 127.0.0.1' }).click();
    await page.waitForURL((u) => u.origin === idp.issuer);
    await passLogin(page, 'ada');
    await page.waitForURL(`${env.url}/agents?limit=5`);
    await page.getByTestId('signed-in-as').getByText('Ada Lovelace').waitFor();
    expect(await page.getByTestId('session-ended').count()).toBe(0);
    // The refused session was asked about once (then dropped): no loop of refusals. (The new
    // sign-in asks once more, for the name.)
    expect(asked).toHaveLength(2);
    await page.context().close();
  });

  it('a session past its expiry shows the same notice; Dismiss clears it', async () => {
    const page = await newPage(env);
    await page.addInitScript(() => {
      if (sessionStorage.getItem('seeded')) return;
      sessionStorage.setItem('seeded', '1');
      localStorage.setItem(
        'db8.session',
        JSON.stringify({
          token: 'expired',
          expires_at: new Date(Date.now() - 60_000).toISOString(),
          principal: 'oidc:ada',
          role: 'person',
          room_id: null,
          seat: null,
        }),
      );
    });
    await page.goto(`${env.url}/rooms`);
    const notice = page.getByTestId('session-ended');
    await notice.waitFor();
    expect(await notice.getByRole('link', { name: 'sign in again' }).getAttribute('href')).toBe(
      `/signin?to=${encodeURIComponent('/rooms')}`,
    );
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).waitFor();
    expect(await page.getByTestId('session-ended').count()).toBe(0);
    expect(await stored(page)).toBeNull();
    await page.context().close();
  });

  it('a return path to another site is not followed: the lobby instead', async () => {
    const page = await newPage(env);
    await page.goto(`${env.url}/signin?to=${encodeURIComponent('//evil.example/x')}`);
    await page.getByRole('button', { name: 'Continue with 127.0.0.1' }).click();
    await page.waitForURL((u) => u.origin === idp.issuer);
    await passLogin(page, 'ada');
    await page.waitForURL(`${env.url}/`);
    await page.getByTestId('signed-in-as').getByText('Ada Lovelace').waitFor();
    await page.context().close();
  });
});
