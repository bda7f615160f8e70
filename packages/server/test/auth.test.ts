import { spawnSync } from 'node:child_process';
import { createHash, createPrivateKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ed25519, formatOpenSshPrivateKey, formatSshPublicKey, signCertificate, signSshsig } from '@db8/core';
import { decodeProtectedHeader, importJWK, jwtVerify, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { issuerFor } from '../src/app.ts';
import type { Store } from '../src/store/index.ts';
import { bearer, type Harness, json, makeApp, sharedStore } from './app-harness.ts';
import { seedRoom } from './auth-fixtures.ts';

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

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  h.app.inject({
    method: 'POST',
    url,
    ...json(body),
    headers: { 'content-type': 'application/json', ...headers },
  });

async function newAgent(extra: Record<string, unknown> = {}) {
  const r = await post('/v1/agents', { name: 'bot', ...extra });
  expect(r.statusCode, r.body).toBe(201);
  return r.json() as { agent_id: string; api_key: string };
}

async function tokenFor(apiKey: string, body: Record<string, unknown> = {}) {
  const r = await post('/v1/auth/token', { api_key: apiKey, ...body });
  return r;
}

describe('agents and API keys', () => {
  it('registers an agent, shows the key once and stores only a peppered hash', async () => {
    h = await makeApp({ store });
    const a = await newAgent({ metadata: { model: 'x' } });
    expect(a.agent_id).toMatch(/^agt_[0-9a-f]{20}$/);
    expect(a.api_key).toMatch(/^db8k_[A-Za-z0-9_-]{43}$/);
    const rows = await store.db.query<{ key_hash: string; prefix: string }>(
      'SELECT key_hash, prefix FROM api_keys WHERE principal_id = $1',
      [a.agent_id],
    );
    expect(rows).toHaveLength(1);
    const dump = JSON.stringify(await store.db.query('SELECT * FROM api_keys'));
    expect(dump).not.toContain(a.api_key);
    // not a bare sha256 either: the hash is keyed by the server key
    expect(rows[0]!.key_hash).not.toBe(createHash('sha256').update(a.api_key).digest('hex'));
    expect(a.api_key.startsWith(rows[0]!.prefix)).toBe(true);
  });

  it('exchanges an API key for an EdDSA session JWT bound to the server key', async () => {
    h = await makeApp({ store });
    const a = await newAgent();
    const r = await tokenFor(a.api_key);
    expect(r.statusCode).toBe(200);
    const s = r.json();
    expect(s).toMatchObject({ principal: a.agent_id, role: 'agent', room_id: null, seat: null });
    expect(decodeProtectedHeader(s.token).alg).toBe('EdDSA');
    const pub = await importJWK(
      { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(h.serverKey.publicKey).toString('base64url') },
      'EdDSA',
    );
    const { payload } = await jwtVerify(s.token, pub, {
      issuer: issuerFor(h.serverKey.publicKey),
      audience: 'db8:session',
      currentDate: new Date(h.clock.now),
    });
    expect(payload.sub).toBe(a.agent_id);
    expect(payload.exp! - payload.iat!).toBe(3600);
    const me = await h.app.inject({ method: 'GET', url: '/v1/auth/me', headers: bearer(s.token) });
    expect(me.json()).toEqual({
      principal: a.agent_id,
      name: expect.any(String),
      role: 'agent',
      room_id: null,
      seat: null,
    });
    // the API key itself is also a bearer credential (seed 002: join with Bearer <api_key>)
    const me2 = await h.app.inject({ method: 'GET', url: '/v1/auth/me', headers: bearer(a.api_key) });
    expect(me2.json().principal).toBe(a.agent_id);
  });

  it('refuses unknown keys, and scopes tokens to a held seat only', async () => {
    h = await makeApp({ store });
    const a = await newAgent();
    expect((await tokenFor(`db8k_${randomBytes(32).toString('base64url')}`)).statusCode).toBe(401);
    const room = await seedRoom(store);
    expect(await store.rooms.takeSeat(room, 'anon_2', a.agent_id, 0, 1)).toBe(true);
    const scoped = (await tokenFor(a.api_key, { room_id: room })).json();
    expect(scoped).toMatchObject({ room_id: room, seat: 'anon_2' });
    const other = await tokenFor(a.api_key, { room_id: room, seat: 'anon_1' });
    expect(other.statusCode).toBe(403);
    expect(other.json().error.code).toBe('SEAT_NOT_HELD');
    expect((await tokenFor(a.api_key, { room_id: 'room_missing' })).statusCode).toBe(404);
    expect((await tokenFor(a.api_key, { seat: 'anon_1' })).statusCode).toBe(400);
  });

  it('rejects expired, tampered, foreign-key and alg=none tokens', async () => {
    h = await makeApp({ store, config: { sessionTtlSec: 60 } });
    const a = await newAgent();
    const { token } = (await tokenFor(a.api_key)).json();
    const me = (t: string) => h.app.inject({ method: 'GET', url: '/v1/auth/me', headers: bearer(t) });
    expect((await me(token)).statusCode).toBe(200);

    const [hd, body, sig] = token.split('.');
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, role: 'admin' })).toString('base64url');
    expect((await me(`${hd}.${forged}.${sig}`)).statusCode).toBe(401);

    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${forged}.`;
    expect((await me(none)).statusCode).toBe(401);

    // same issuer string, different key
    const other = generateKeyPairSync('ed25519');
    const foreign = await new SignJWT({ role: 'admin' })
      .setProtectedHeader({ alg: 'EdDSA' })
      .setIssuer(claims.iss)
      .setAudience('db8:session')
      .setSubject('x')
      .setExpirationTime(Math.floor(h.clock.now / 1000) + 60)
      .sign(other.privateKey);
    expect((await me(foreign)).statusCode).toBe(401);

    h.clock.advance(61_000);
    const expired = await me(token);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().error).toMatchObject({ code: 'INVALID_TOKEN', message: 'token expired' });
  });

  it('an invite token is not a session token', async () => {
    h = await makeApp({ store });
    const room = await seedRoom(store);
    const { token } = await h.app.db8.tokens.issueInvite(room, undefined, 600);
    const r = await h.app.inject({ method: 'GET', url: '/v1/auth/me', headers: bearer(token) });
    expect(r.statusCode).toBe(401);
  });

  it('can require an admin for registration', async () => {
    h = await makeApp({ store, config: { openRegistration: false } });
    const r = await post('/v1/agents', { name: 'x' });
    expect(r.statusCode).toBe(403);
  });
});

describe('admin login link', () => {
  it('is single use and yields an admin session', async () => {
    h = await makeApp({ store });
    const t = h.adminLinks.create(60_000);
    expect(h.adminLinks.url('http://127.0.0.1:8787', t)).toBe(`http://127.0.0.1:8787/login#token=${t}`);
    const r = await post('/v1/auth/login', { token: t });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ role: 'admin', principal: 'admin' });
    const me = await h.app.inject({ method: 'GET', url: '/v1/auth/me', headers: bearer(r.json().token) });
    expect(me.json().role).toBe('admin');
    expect((await post('/v1/auth/login', { token: t })).statusCode).toBe(401);
  });

  it('expires', async () => {
    h = await makeApp({ store });
    const t = h.adminLinks.create(1000);
    h.clock.advance(1001);
    expect((await post('/v1/auth/login', { token: t })).statusCode).toBe(401);
  });
});

describe('SSH challenge login', () => {
  const keyPair = () => ed25519.generateKeyPair();

  async function challenge(room?: string) {
    const r = await post('/v1/auth/challenge', room ? { room_id: room } : {});
    expect(r.statusCode, r.body).toBe(200);
    return r.json() as { nonce: string; expires_at: string; audience: string; room_id: string | null };
  }
  const sign = (seed: Uint8Array, text: string, extra: { certificate?: string; namespace?: string } = {}) =>
    signSshsig({
      seed,
      namespace: extra.namespace ?? 'db8',
      message: new TextEncoder().encode(text),
      ...(extra.certificate ? { certificate: extra.certificate } : {}),
    });

  it('logs in a registered plain key; the nonce is single use', async () => {
    h = await makeApp({ store });
    const k = keyPair();
    const a = await newAgent({ ssh_public_key: formatSshPublicKey(k.publicKey, 'me@host') });
    const c = await challenge();
    expect(c.audience).toBe('db8');
    expect(new Date(c.expires_at).getTime()).toBe(h.clock.now + 120_000);
    const signature = sign(k.seed, c.nonce);
    const ok = await post('/v1/auth/verify', { nonce: c.nonce, signature });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ principal: a.agent_id, role: 'agent' });
    const replay = await post('/v1/auth/verify', { nonce: c.nonce, signature });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error.code).toBe('NONCE_INVALID');
  });

  it('refuses an expired nonce, a wrong namespace, an unregistered key, and another nonce', async () => {
    h = await makeApp({ store });
    const k = keyPair();
    await newAgent({ ssh_public_key: formatSshPublicKey(k.publicKey) });

    const c1 = await challenge();
    h.clock.advance(121_000);
    const expired = await post('/v1/auth/verify', { nonce: c1.nonce, signature: sign(k.seed, c1.nonce) });
    expect(expired.json().error.code).toBe('NONCE_INVALID');

    const c2 = await challenge();
    const ns = await post('/v1/auth/verify', {
      nonce: c2.nonce,
      signature: sign(k.seed, c2.nonce, { namespace: 'git' }),
    });
    expect(ns.statusCode).toBe(401);
    expect(ns.json().error).toMatchObject({
      code: 'SIGNATURE_INVALID',
      details: { reason: 'NAMESPACE_MISMATCH' },
    });
    // burnt by the failed attempt
    const retry = await post('/v1/auth/verify', { nonce: c2.nonce, signature: sign(k.seed, c2.nonce) });
    expect(retry.json().error.code).toBe('NONCE_INVALID');

    const c3 = await challenge();
    const stranger = keyPair();
    const un = await post('/v1/auth/verify', { nonce: c3.nonce, signature: sign(stranger.seed, c3.nonce) });
    expect(un.json().error).toMatchObject({
      code: 'SIGNATURE_INVALID',
      details: { reason: 'UNTRUSTED_KEY' },
    });

    const c4 = await challenge();
    const c5 = await challenge();
    const swapped = await post('/v1/auth/verify', { nonce: c4.nonce, signature: sign(k.seed, c5.nonce) });
    expect(swapped.json().error).toMatchObject({
      code: 'SIGNATURE_INVALID',
      details: { reason: 'BAD_SIGNATURE' },
    });

    const fake = await post('/v1/auth/verify', { nonce: 'db8-login:*:nope', signature: sign(k.seed, 'x') });
    expect(fake.json().error.code).toBe('NONCE_INVALID');
  });

  it('refuses registering a key twice', async () => {
    h = await makeApp({ store });
    const k = keyPair();
    await newAgent({ ssh_public_key: formatSshPublicKey(k.publicKey) });
    const again = await post('/v1/agents', { ssh_public_key: formatSshPublicKey(k.publicKey) });
    expect(again.statusCode).toBe(409);
    const bad = await post('/v1/agents', { ssh_public_key: 'ssh-ed25519 AAAAnotakey' });
    expect(bad.statusCode).toBe(400);
  });

  it('interoperates with the real ssh-keygen -Y sign (nonce as jq -r writes it, base64 signature)', async () => {
    h = await makeApp({ store });
    const k = keyPair();
    const a = await newAgent({ ssh_public_key: formatSshPublicKey(k.publicKey) });
    const room = await seedRoom(store);
    expect(await store.rooms.takeSeat(room, 'anon_1', a.agent_id, 0, 1)).toBe(true);
    const c = await challenge(room);
    const dir = mkdtempSync(join(tmpdir(), 'db8-ssh-'));
    try {
      const keyFile = join(dir, 'id_ed25519');
      writeFileSync(keyFile, formatOpenSshPrivateKey(k.seed, 'test'), { mode: 0o600 });
      writeFileSync(join(dir, 'nonce.txt'), `${c.nonce}\n`);
      const r = spawnSync('ssh-keygen', ['-Y', 'sign', '-f', keyFile, '-n', 'db8', join(dir, 'nonce.txt')], {
        encoding: 'utf8',
      });
      if (r.status !== 0) throw new Error(`ssh-keygen failed: ${r.stderr} ${r.error?.message ?? ''}`);
      const armored = readFileSync(join(dir, 'nonce.txt.sig'), 'utf8');
      const ok = await post('/v1/auth/verify', {
        nonce: c.nonce,
        signature: Buffer.from(armored).toString('base64'),
      });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toMatchObject({ principal: a.agent_id, room_id: room, seat: 'anon_1' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('room certificates (server key is the room CA)', () => {
    const cert = (
      caSeed: Uint8Array,
      publicKey: Uint8Array,
      principals: string[],
      now: number,
      ttlMs = 3600_000,
    ) =>
      signCertificate({
        caSeed,
        publicKey,
        keyId: 'test',
        principals,
        validAfter: now - 60_000,
        validBefore: now + ttlMs,
      }).line;

    it('accepts anon_N@room_<id> for that room and scopes the session to the seat', async () => {
      h = await makeApp({ store });
      const room = await seedRoom(store);
      const k = keyPair();
      const line = cert(h.serverKey.seed, k.publicKey, [`anon_2@${room}`], h.clock.now);
      const c = await challenge(room);
      const r = await post('/v1/auth/verify', {
        nonce: c.nonce,
        signature: sign(k.seed, c.nonce, { certificate: line }),
        principal: `anon_2@${room}`,
      });
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json()).toMatchObject({ principal: `anon_2@${room}`, room_id: room, seat: 'anon_2' });
      // the principal may be left out: it is found in the certificate
      const c2 = await challenge(room);
      const r2 = await post('/v1/auth/verify', {
        nonce: c2.nonce,
        signature: sign(k.seed, c2.nonce, { certificate: line }),
      });
      expect(r2.json()).toMatchObject({ seat: 'anon_2', room_id: room });
    });

    it("refuses another room's certificate, an untrusted CA, an expired cert, and a roomless challenge", async () => {
      h = await makeApp({ store });
      const room = await seedRoom(store);
      const otherRoom = await seedRoom(store);
      const k = keyPair();
      const foreign = cert(h.serverKey.seed, k.publicKey, [`anon_1@${otherRoom}`], h.clock.now);

      const c1 = await challenge(room);
      const r1 = await post('/v1/auth/verify', {
        nonce: c1.nonce,
        signature: sign(k.seed, c1.nonce, { certificate: foreign }),
        principal: `anon_1@${otherRoom}`,
      });
      expect(r1.statusCode).toBe(403);
      const c1b = await challenge(room);
      const r1b = await post('/v1/auth/verify', {
        nonce: c1b.nonce,
        signature: sign(k.seed, c1b.nonce, { certificate: foreign }),
      });
      expect(r1b.statusCode).toBe(401);

      const rogue = ed25519.generateKeyPair();
      const untrusted = cert(rogue.seed, k.publicKey, [`anon_1@${room}`], h.clock.now);
      const c2 = await challenge(room);
      const r2 = await post('/v1/auth/verify', {
        nonce: c2.nonce,
        signature: sign(k.seed, c2.nonce, { certificate: untrusted }),
      });
      expect(r2.json().error).toMatchObject({
        code: 'SIGNATURE_INVALID',
        details: { reason: 'UNTRUSTED_CA' },
      });

      const short = cert(h.serverKey.seed, k.publicKey, [`anon_1@${room}`], h.clock.now, 1000);
      const c3 = await challenge(room);
      h.clock.advance(5000);
      const r3 = await post('/v1/auth/verify', {
        nonce: c3.nonce,
        signature: sign(k.seed, c3.nonce, { certificate: short }),
      });
      expect(r3.json().error).toMatchObject({ details: { reason: 'CERT_EXPIRED' } });

      const good = cert(h.serverKey.seed, k.publicKey, [`anon_1@${room}`], h.clock.now);
      const c4 = await challenge();
      const r4 = await post('/v1/auth/verify', {
        nonce: c4.nonce,
        signature: sign(k.seed, c4.nonce, { certificate: good }),
      });
      expect(r4.statusCode).toBe(401);

      const ghost = cert(h.serverKey.seed, k.publicKey, [`anon_9@${room}`], h.clock.now);
      const c5 = await challenge(room);
      const r5 = await post('/v1/auth/verify', {
        nonce: c5.nonce,
        signature: sign(k.seed, c5.nonce, { certificate: ghost }),
      });
      expect(r5.statusCode).toBe(403);
    });
  });

  it('keeps private keys out of reach: a PEM is not accepted as a public key', async () => {
    h = await makeApp({ store });
    const pem = createPrivateKey(
      generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }),
    )
      .export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const r = await post('/v1/agents', { ssh_public_key: pem });
    expect(r.statusCode).toBe(400);
  });
});

describe('session refresh', () => {
  it('POST /v1/auth/session re-issues for the current credential; anonymous is 401', async () => {
    h = await makeApp({ store });
    const a = await newAgent();
    const r = await h.app.inject({ method: 'POST', url: '/v1/auth/session', headers: bearer(a.api_key) });
    expect(r.statusCode).toBe(200);
    expect(r.json().principal).toBe(a.agent_id);
    const anon = await h.app.inject({ method: 'POST', url: '/v1/auth/session' });
    expect(anon.statusCode).toBe(401);
  });

  it('a chain of refreshes ends sessionMaxLifetimeSec after the login; an API key starts a new one', async () => {
    h = await makeApp({ store, config: { sessionTtlSec: 3600, sessionMaxLifetimeSec: 5400 } });
    const a = await newAgent();
    const login = await h.app.inject({ method: 'POST', url: '/v1/auth/session', headers: bearer(a.api_key) });
    const loginAt = h.clock.now;
    const chainEnd = loginAt + 5400_000;
    let token = login.json().token as string;
    // Refresh every 40 minutes: no token of the chain outlives login + 90 minutes.
    const ends: number[] = [];
    for (let i = 0; i < 2; i++) {
      h.clock.advance(40 * 60_000);
      const r = await h.app.inject({ method: 'POST', url: '/v1/auth/session', headers: bearer(token) });
      expect(r.statusCode, r.body).toBe(200);
      ends.push(Date.parse(r.json().expires_at));
      token = r.json().token;
    }
    expect(ends).toEqual([chainEnd, chainEnd]); // capped: an hour's TTL would have gone past it
    h.clock.advance(11 * 60_000); // 91 minutes after the login
    const late = await h.app.inject({ method: 'POST', url: '/v1/auth/session', headers: bearer(token) });
    expect(late.statusCode).toBe(401);
    // The credential itself still works: a new login, a new chain.
    const again = await h.app.inject({ method: 'POST', url: '/v1/auth/session', headers: bearer(a.api_key) });
    expect(again.statusCode).toBe(200);
    expect(Date.parse(again.json().expires_at)).toBe(h.clock.now + 3600_000);
  });
});
