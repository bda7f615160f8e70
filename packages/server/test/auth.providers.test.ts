import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../src/config.ts';
import { AuthProvidersResponseSchema } from '../src/schemas/rest.ts';
import type { Store } from '../src/store/index.ts';
import { type Harness, makeApp, sharedStore } from './app-harness.ts';

// GET /v1/auth/providers tells the web app how people sign in here; the page's policy lets it
// fetch from that issuer (discovery, token endpoint) and from no other.

let store: Store;
let h: Harness;
beforeAll(async () => {
  store = await sharedStore();
});
afterEach(async () => {
  await h?.close();
});
afterAll(async () => {
  await store.close();
});

async function providers(config: Record<string, unknown>) {
  h = await makeApp({ store, config });
  const r = await h.app.inject({ method: 'GET', url: '/v1/auth/providers' });
  expect(r.statusCode, r.body).toBe(200);
  return {
    body: AuthProvidersResponseSchema.parse(r.json()),
    csp: String(r.headers['content-security-policy']),
  };
}

describe('GET /v1/auth/providers', () => {
  it('says none without an issuer, and the page may fetch only from itself', async () => {
    const { body, csp } = await providers({});
    expect(body).toEqual({ oidc: null });
    expect(csp).toContain("connect-src 'self';");
  });

  it("names the issuer, the web client id (the audience by default) and the scopes; the policy allows the issuer's origin", async () => {
    const cfg = configFromEnv({ OIDC_ISSUER: 'https://id.example.org/realms/db8', OIDC_AUDIENCE: 'db8-web' });
    const { body, csp } = await providers(cfg);
    expect(body).toEqual({
      oidc: {
        issuer: 'https://id.example.org/realms/db8',
        client_id: 'db8-web',
        scopes: ['openid', 'profile', 'email'],
        credential: 'id_token',
      },
    });
    expect(csp).toContain("connect-src 'self' https://id.example.org;");
  });

  it('a client id other than the audience sends the access token; OIDC_SCOPES replaces the scopes', async () => {
    const cfg = configFromEnv({
      OIDC_ISSUER: 'https://id.example.org',
      OIDC_CLIENT_ID: 'web-app',
      OIDC_SCOPES: 'openid email',
    });
    const { body } = await providers(cfg);
    expect(body.oidc).toEqual({
      issuer: 'https://id.example.org',
      client_id: 'web-app',
      scopes: ['openid', 'email'],
      credential: 'access_token',
    });
  });

  it('Supabase Auth is offered only with a registered client id', async () => {
    expect((await providers(configFromEnv({ SUPABASE_URL: 'https://abc.supabase.co' }))).body).toEqual({
      oidc: null,
    });
    await h.close();
    const { body } = await providers(
      configFromEnv({ SUPABASE_URL: 'https://abc.supabase.co', OIDC_CLIENT_ID: 'db8-web' }),
    );
    expect(body.oidc).toMatchObject({
      issuer: 'https://abc.supabase.co/auth/v1',
      client_id: 'db8-web',
      credential: 'access_token',
    });
  });
});
