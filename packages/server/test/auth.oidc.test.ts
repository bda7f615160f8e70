import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../src/config.ts';
import type { Store } from '../src/store/index.ts';
import { bearer, type Harness, makeApp, sharedStore } from './app-harness.ts';

/** A real issuer: an HTTP server publishing a JWKS, and keys to sign people's tokens. */
let server: Server;
let issuer: string;
let jwksHits = 0;
let rsa: CryptoKeyPair;
let ec: CryptoKeyPair;
let stranger: CryptoKeyPair;
let store: Store;
let h: Harness;

beforeAll(async () => {
  store = await sharedStore();
  rsa = (await generateKeyPair('RS256')) as CryptoKeyPair;
  ec = (await generateKeyPair('ES256')) as CryptoKeyPair;
  stranger = (await generateKeyPair('RS256')) as CryptoKeyPair;
  const keys: JWK[] = [
    { ...(await exportJWK(rsa.publicKey)), kid: 'rsa1', alg: 'RS256', use: 'sig' },
    { ...(await exportJWK(ec.publicKey)), kid: 'ec1', alg: 'ES256', use: 'sig' },
  ];
  server = createServer((req, res) => {
    if (req.url === '/.well-known/jwks.json') {
      jwksHits++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys }));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await h?.close();
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await store.close();
});

const app = () =>
  makeApp({
    store,
    config: {
      oidc: { issuer, audience: 'db8-web', algorithms: ['RS256'] },
      adminEmails: ['Boss@Example.com'],
    },
  });

async function idToken(
  claims: Record<string, unknown>,
  opt: {
    key?: CryptoKey;
    alg?: string;
    kid?: string;
    iss?: string;
    aud?: string;
    expIn?: number;
    sub?: string;
  } = {},
) {
  const now = Math.floor(h.clock.now / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: opt.alg ?? 'RS256', kid: opt.kid ?? 'rsa1' })
    .setIssuer(opt.iss ?? issuer)
    .setAudience(opt.aud ?? 'db8-web')
    .setSubject(opt.sub ?? 'user-123')
    .setIssuedAt(now)
    .setExpirationTime(now + (opt.expIn ?? 300))
    .sign(opt.key ?? rsa.privateKey);
}

const me = (t: string) => h.app.inject({ method: 'GET', url: '/v1/auth/me', headers: bearer(t) });

describe('OIDC / Supabase JWTs via a real JWKS endpoint', () => {
  it('an allow-listed verified email is admin; others are people', async () => {
    h = await app();
    const before = jwksHits;
    const admin = await me(await idToken({ email: 'boss@example.com', email_verified: true }));
    expect(admin.statusCode, admin.body).toBe(200);
    expect(admin.json()).toEqual({
      principal: 'oidc:user-123',
      name: null,
      role: 'admin',
      room_id: null,
      seat: null,
    });
    expect(jwksHits).toBeGreaterThan(before);
    const person = await me(await idToken({ email: 'someone@example.com' }));
    expect(person.json().role).toBe('person');
    const unverified = await me(await idToken({ email: 'boss@example.com', email_verified: false }));
    expect(unverified.json().role).toBe('person');
  });

  it('a session minted from an OIDC token keeps the role', async () => {
    h = await app();
    const t = await idToken({ email: 'boss@example.com' });
    const r = await h.app.inject({ method: 'POST', url: '/v1/auth/session', headers: bearer(t) });
    expect(r.statusCode).toBe(200);
    expect((await me(r.json().token)).json()).toMatchObject({ role: 'admin', principal: 'oidc:user-123' });
  });

  it("a session made from a person's token keeps their name (name, else preferred_username), updated by a later sign-in", async () => {
    h = await app();
    const session = async (claims: Record<string, unknown>, sub: string) => {
      const r = await h.app.inject({
        method: 'POST',
        url: '/v1/auth/session',
        headers: bearer(await idToken(claims, { sub })),
      });
      expect(r.statusCode, r.body).toBe(200);
      return (await me(r.json().token)).json() as { principal: string; name: string | null };
    };
    // Control and bidi characters go, white space is one space, the length is bounded.
    const first = await session({ name: ' Grace\u0000\u202E  Hopper\n', email: 'g@example.org' }, 'p-grace');
    expect(first).toMatchObject({ principal: 'oidc:p-grace', name: 'Grace Hopper' });
    expect((await store.principals.get('oidc:p-grace'))?.kind).toBe('person');
    const renamed = await session({ name: `Grace ${'B'.repeat(100)}` }, 'p-grace');
    expect(renamed.name).toBe(`Grace ${'B'.repeat(58)}`);
    // A later token without a name keeps the one known.
    expect((await session({ email: 'g@example.org' }, 'p-grace')).name).toBe(renamed.name);
    expect((await session({ preferred_username: 'ada_l', email: 'a@example.org' }, 'p-ada')).name).toBe(
      'ada_l',
    );
    // Never the email nor the subject: no name at all.
    expect((await session({ email: 'x@example.org', name: ' \u0007 ' }, 'p-x')).name).toBeNull();
    expect((await store.principals.get('oidc:p-x'))?.displayName).toBe('');
    // An agent's principal with the same id as a person's is not renamed by a token.
    await store.principals.create({ id: 'oidc:p-agent', kind: 'agent', displayName: 'Bot', createdAt: 1 });
    expect((await session({ name: 'Impostor' }, 'p-agent')).name).toBe('Bot');
  });

  it('refuses wrong audience, wrong issuer, expiry, unpinned algorithms and unknown keys', async () => {
    h = await app();
    const email = { email: 'boss@example.com' };
    expect((await me(await idToken(email, { aud: 'someone-else' }))).statusCode).toBe(401);
    expect((await me(await idToken(email, { iss: 'http://evil.example' }))).statusCode).toBe(401);
    expect((await me(await idToken(email, { expIn: -10 }))).statusCode).toBe(401);
    // ES256 key is in the JWKS, but only RS256 is pinned
    expect(
      (await me(await idToken(email, { key: ec.privateKey, alg: 'ES256', kid: 'ec1' }))).statusCode,
    ).toBe(401);
    // a key the issuer never published, claiming the published kid
    expect((await me(await idToken(email, { key: stranger.privateKey }))).statusCode).toBe(401);
    // HS256 "signed" with the public key (algorithm confusion)
    const pubJwk = await exportJWK(rsa.publicKey);
    const secret = new TextEncoder().encode(JSON.stringify(pubJwk));
    const hs = await new SignJWT(email)
      .setProtectedHeader({ alg: 'HS256', kid: 'rsa1' })
      .setIssuer(issuer)
      .setAudience('db8-web')
      .setSubject('user-123')
      .setExpirationTime(Math.floor(h.clock.now / 1000) + 300)
      .sign(secret);
    expect((await me(hs)).statusCode).toBe(401);
  });

  it('derives Supabase settings from SUPABASE_URL', () => {
    const c = configFromEnv({ SUPABASE_URL: 'https://abc.supabase.co/', ADMIN_EMAILS: 'a@x.io, b@y.io' });
    expect(c.oidc).toEqual({
      issuer: 'https://abc.supabase.co/auth/v1',
      audience: 'authenticated',
      jwksUrl: 'https://abc.supabase.co/auth/v1/.well-known/jwks.json',
    });
    expect(c.adminEmails).toEqual(['a@x.io', 'b@y.io']);
  });
});
