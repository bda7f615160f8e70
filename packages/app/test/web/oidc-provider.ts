import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import type { BrowserContext, Page } from 'playwright-core';

// STAND-IN FOR THE IDENTITY PROVIDER. A real OpenID Connect provider (panva's oidc-provider, the
// certified implementation) on 127.0.0.1, in place of the issuer a deployment trusts (Keycloak,
// Auth0, Supabase…). It knows one client, the db8 web app: public (no secret), PKCE, code flow,
// redirecting to the db8 server's /signin/callback. Its login is the library's own development
// interaction (any login name is accepted, then a consent page): a browser test fills it in.

/** The people this provider knows: their login name → the claims it vouches for. */
export const PEOPLE: Record<string, { name: string; email: string }> = {
  grace: { name: 'Grace Hopper', email: 'grace@example.org' },
  ada: { name: 'Ada Lovelace', email: 'ada@example.org' },
  // A name as a careless (or hostile) provider may send it: a bidi override, a bell, runs of spaces.
  mallory: { name: '  Mallory\u202E\u0007   Mischief ', email: 'mallory@example.org' },
};

export const WEB_CLIENT_ID = 'db8-web';

export interface Idp {
  /** Its issuer identifier (`http://127.0.0.1:<port>`). */
  issuer: string;
  /** The db8 server settings that trust it (OIDC_ISSUER, OIDC_AUDIENCE = the web client id, OIDC_JWKS_URL). */
  serverEnv: Record<string, string>;
  /** Serve the protocol, with the web client redirecting to `dbUrl`'s /signin/callback. */
  start(dbUrl: string): void;
  close(): Promise<void>;
}

/**
 * Listens first (so the issuer, which holds the port, can go into the db8 server's settings), and
 * speaks OIDC once `start` names the db8 server the client returns to.
 */
export async function listenIdp(): Promise<Idp> {
  const server: Server = createServer((_req, res) => res.writeHead(503).end('not started'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    serverEnv: { OIDC_ISSUER: issuer, OIDC_AUDIENCE: WEB_CLIENT_ID, OIDC_JWKS_URL: `${issuer}/jwks` },
    start(dbUrl) {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: WEB_CLIENT_ID,
            token_endpoint_auth_method: 'none',
            redirect_uris: [`${dbUrl}/signin/callback`],
            response_types: ['code'],
            grant_types: ['authorization_code'],
          },
        ],
        pkce: { required: () => true, methods: ['S256'] },
        claims: { openid: ['sub'], profile: ['name'], email: ['email', 'email_verified'] },
        // The id_token carries the scopes' claims (the name the web app shows).
        conformIdTokenClaims: false,
        findAccount: async (_ctx, id) => ({
          accountId: id,
          claims: async () => ({
            sub: id,
            name: PEOPLE[id]?.name ?? id,
            email: PEOPLE[id]?.email ?? `${id}@example.org`,
            email_verified: true,
          }),
        }),
        // The browser calls the token endpoint from the db8 page's origin.
        clientBasedCORS: (_ctx, origin, client) =>
          client.redirectUris?.some((uri) => new URL(uri).origin === origin) ?? false,
        features: { devInteractions: { enabled: true } },
      });
      server.removeAllListeners('request');
      server.on('request', provider.callback());
    },
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/** The provider's login page as a person goes through it: their login name, then the consent. */
export async function passLogin(page: Page, login: string): Promise<void> {
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('anything');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

/**
 * A token response of `idp` obtained outside the db8 app (for refusal tests): the code flow run in
 * `ctx`, the code read off the redirect back to the db8 server (whose page, with no sign-in of its
 * own in that tab, leaves it unspent), the code exchanged here.
 */
export async function tokensFrom(
  idp: Pick<Idp, 'issuer'>,
  ctx: BrowserContext,
  dbUrl: string,
  login: string,
  nonce: string,
): Promise<{ id_token: string; access_token: string }> {
  const { createHash, randomBytes } = await import('node:crypto');
  const verifier = randomBytes(32).toString('base64url');
  const redirect = `${dbUrl}/signin/callback`;
  const auth = new URL(`${idp.issuer}/auth`);
  auth.search = new URLSearchParams({
    client_id: WEB_CLIENT_ID,
    redirect_uri: redirect,
    response_type: 'code',
    scope: 'openid profile email',
    state: 'outside',
    nonce,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  const page = await ctx.newPage();
  // The provider reaches the callback by a redirect, which a route does not see; the request event does.
  const back = page.waitForRequest((r) => r.url().startsWith(`${redirect}?`));
  await page.goto(auth.href);
  await passLogin(page, login);
  const code = new URL((await back).url()).searchParams.get('code');
  await page.close();
  if (!code) throw new Error('the provider sent no code');
  const res = await fetch(`${idp.issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirect,
      client_id: WEB_CLIENT_ID,
      code_verifier: verifier,
    }),
  });
  if (!res.ok) throw new Error(`token endpoint: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id_token: string; access_token: string };
}
