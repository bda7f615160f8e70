import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv, resolveConfig } from '../src/config.ts';
import { DISCOVERY_RETRY_MS, SignInOrigins } from '../src/routes/sign-in-origins.ts';
import type { Store } from '../src/store/index.ts';
import { type Harness, makeApp, sharedStore } from './app-harness.ts';

// The page's connect-src names the issuer's token endpoint's origin, read from its discovery document
// (Google's is another origin than its issuer). STAND-IN FOR THE IDENTITY PROVIDER: a real local HTTP
// server answering /.well-known/openid-configuration as the test sets it.

/** Where the stand-in's token endpoint is: another origin than the issuer (it need not answer). */
const TOKEN_ORIGIN = 'http://127.0.0.2:4999';

let server: Server;
let issuer: string;
let hits = 0;
/** How the discovery document answers now: a document, an error status, or never. */
let answer: 'ok' | 500 | 'hang' = 'ok';

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url !== '/.well-known/openid-configuration') return void res.writeHead(404).end();
    hits++;
    if (answer === 'hang') return;
    if (answer !== 'ok') return void res.writeHead(answer).end();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        issuer,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: `${TOKEN_ORIGIN}/token`,
        jwks_uri: `${issuer}/jwks`,
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const warnings: string[] = [];
const log = { warn: (_o: object, m: string) => void warnings.push(m) };
const cfg = () => ({
  oidc: {
    issuer,
    audience: 'db8-web',
    algorithms: ['RS256' as const],
    emailClaim: 'email',
    scopes: ['openid'],
  },
});

describe('SignInOrigins', () => {
  it("learns the token endpoint's origin once and keeps it", async () => {
    answer = 'ok';
    hits = 0;
    const o = new SignInOrigins(cfg(), log);
    expect(o.current()).toEqual([issuer]); // the look-up has only started
    await o.learn();
    expect(o.current()).toEqual([issuer, TOKEN_ORIGIN]);
    o.current();
    await o.learn();
    expect(hits).toBe(1);
  });

  it('a failed look-up leaves the issuer alone, is logged, and is asked again only after a while', async () => {
    answer = 500;
    hits = 0;
    warnings.length = 0;
    let now = 1_000_000;
    const o = new SignInOrigins(cfg(), log, () => now);
    o.current();
    await o.learn();
    expect(o.current()).toEqual([issuer]);
    expect(warnings).toEqual([expect.stringMatching(/discovery document could not be read/)]);
    expect(hits).toBe(1);
    answer = 'ok';
    o.current();
    await o.learn(); // learn() itself asks again: the wait is for pages, not for an explicit call
    expect(o.current()).toEqual([issuer, TOKEN_ORIGIN]);
    const p = new SignInOrigins(cfg(), log, () => now);
    answer = 500;
    await p.learn();
    hits = 0;
    p.current();
    await p.idle();
    expect(hits).toBe(0); // too soon: not asked again
    now += DISCOVERY_RETRY_MS;
    answer = 'ok';
    p.current();
    await p.idle();
    expect(hits).toBe(1);
    expect(p.current()).toEqual([issuer, TOKEN_ORIGIN]);
  });

  it('OIDC_CONNECT_ORIGINS are allowed from the start, beside what discovery finds', async () => {
    answer = 500;
    const c = resolveConfig(
      configFromEnv({
        OIDC_ISSUER: issuer,
        OIDC_CONNECT_ORIGINS: 'https://oauth2.example.com/token, http://127.0.0.3:8080',
      }),
    );
    const o = new SignInOrigins(c, log);
    expect(o.current()).toEqual([issuer, 'https://oauth2.example.com', 'http://127.0.0.3:8080']);
    await o.learn();
    expect(o.current()).toEqual([issuer, 'https://oauth2.example.com', 'http://127.0.0.3:8080']);
    expect(() =>
      resolveConfig(configFromEnv({ OIDC_ISSUER: issuer, OIDC_CONNECT_ORIGINS: 'javascript:x' })),
    ).toThrow();
  });

  it('a discovery document that never answers is given up after the bound', async () => {
    answer = 'hang';
    warnings.length = 0;
    const o = new SignInOrigins(cfg(), log, Date.now, 300);
    await o.learn();
    expect(o.current()).toEqual([issuer]);
    expect(warnings).toHaveLength(1);
  });
});

describe("the page's CSP", () => {
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

  it("allows the issuer's token endpoint's origin once the server has read its discovery document", async () => {
    answer = 'ok';
    hits = 0;
    h = await makeApp({ store, config: cfg() });
    const csp = async () =>
      String(
        (await h.app.inject({ method: 'GET', url: '/v1/auth/providers' })).headers['content-security-policy'],
      );
    expect(await csp()).toMatch(new RegExp(`connect-src 'self' ${issuer}( ${TOKEN_ORIGIN})?;`));
    await expect.poll(csp, { timeout: 10_000 }).toContain(`connect-src 'self' ${issuer} ${TOKEN_ORIGIN};`);
    await csp();
    expect(hits).toBe(1);
  });
});
