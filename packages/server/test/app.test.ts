import { afterEach, describe, expect, it } from 'vitest';
import { bearer, type Harness, json, makeApp as make, sharedStore } from './app-harness.ts';

const makeApp = async (o: Parameters<typeof make>[0] = {}) => make({ store: await sharedStore(), ...o });

let h: Harness;
afterEach(async () => {
  await h?.close();
});

const errorShape = (body: unknown) => {
  expect(body).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
  return (body as { error: { code: string; message: string; details?: unknown } }).error;
};

describe('app skeleton', () => {
  it('answers /healthz and /readyz (store reachable)', async () => {
    h = await makeApp();
    const health = await h.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ ok: true });
    const ready = await h.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ ok: true, store: true });
  });

  it('/readyz is 503 when the store is gone', async () => {
    h = await make();
    await h.store.close();
    const ready = await h.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ ok: false, store: false });
    // close() would close the store again: swap in a no-op
    h.store.close = async () => {};
  });

  it('unknown routes are 404 in the error shape', async () => {
    h = await makeApp();
    const r = await h.app.inject({ method: 'GET', url: '/v1/nope?x=1' });
    expect(r.statusCode).toBe(404);
    expect(errorShape(r.json()).code).toBe('NOT_FOUND');
  });

  it('malformed and non-strict JSON are 400 INVALID_JSON', async () => {
    h = await makeApp();
    for (const payload of ['{"name":', '{"name":"a","name":"b"}', '{"n": 9007199254740993}', '"\\ud800"']) {
      const r = await h.app.inject({
        method: 'POST',
        url: '/v1/agents',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(r.statusCode, payload).toBe(400);
      expect(errorShape(r.json()).code).toBe('INVALID_JSON');
    }
  });

  it('schema violations are 400 VALIDATION_FAILED with paths, not values', async () => {
    h = await makeApp();
    const r = await h.app.inject({ method: 'POST', url: '/v1/agents', ...json({ name: 42, secret: 'x' }) });
    expect(r.statusCode).toBe(400);
    const e = errorShape(r.json());
    expect(e.code).toBe('VALIDATION_FAILED');
    expect(e.details).toEqual([expect.objectContaining({ path: 'name' })]);
    expect(JSON.stringify(e)).not.toContain('42');
  });

  it('enforces the body size limit with 413', async () => {
    h = await makeApp({ config: { bodyLimit: 1024 } });
    const r = await h.app.inject({ method: 'POST', url: '/v1/agents', ...json({ name: 'x'.repeat(5000) }) });
    expect(r.statusCode).toBe(413);
    expect(errorShape(r.json()).code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('refuses unknown content types with 415', async () => {
    h = await makeApp();
    const r = await h.app.inject({
      method: 'POST',
      url: '/v1/agents',
      headers: { 'content-type': 'text/xml' },
      payload: '<a/>',
    });
    expect(r.statusCode).toBe(415);
    expect(errorShape(r.json()).code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('a malformed Authorization header is 401, not an anonymous pass', async () => {
    h = await makeApp();
    const r = await h.app.inject({ method: 'GET', url: '/healthz', headers: { authorization: 'Basic abc' } });
    expect(r.statusCode).toBe(401);
    const r2 = await h.app.inject({ method: 'GET', url: '/v1/auth/me', headers: bearer('garbage') });
    expect(r2.statusCode).toBe(401);
    expect(errorShape(r2.json()).code).toBe('INVALID_TOKEN');
  });

  it('rate-limits per principal: separate buckets per API key, 429 in the error shape', async () => {
    h = await makeApp({ config: { rateLimit: { max: 3, windowMs: 60_000 } } });
    const keys: string[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await h.app.inject({ method: 'POST', url: '/v1/agents', ...json({ name: `a${i}` }) });
      keys.push(r.json().api_key);
    }
    const me = (k: string) => h.app.inject({ method: 'GET', url: '/v1/auth/me', headers: bearer(k) });
    for (let i = 0; i < 3; i++) expect((await me(keys[0]!)).statusCode).toBe(200);
    const limited = await me(keys[0]!);
    expect(limited.statusCode).toBe(429);
    expect(errorShape(limited.json()).code).toBe('RATE_LIMITED');
    expect(limited.headers['retry-after']).toBeDefined();
    // another principal is unaffected
    expect((await me(keys[1]!)).statusCode).toBe(200);
  });

  it('serves OpenAPI generated from the zod schemas, and /protocol.json', async () => {
    h = await makeApp();
    const doc = (await h.app.inject({ method: 'GET', url: '/docs/json' })).json();
    expect(doc.openapi).toMatch(/^3\./);
    const agents = doc.paths['/v1/agents'].post;
    const schema = agents.requestBody.content['application/json'].schema;
    expect(schema.properties.name).toMatchObject({ type: 'string', maxLength: 64 });
    expect(doc.paths['/v1/auth/verify'].post.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['nonce', 'signature']),
    );
    const ui = await h.app.inject({ method: 'GET', url: '/docs' });
    expect([200, 302]).toContain(ui.statusCode);
    const pj = (await h.app.inject({ method: 'GET', url: '/protocol.json' })).json();
    expect(pj.protocol_version).toBe('0.1');
    expect(pj.ws.ClientMessage.oneOf.length).toBeGreaterThanOrEqual(5);
    expect(Object.keys(pj.rest)).toContain('ActionBody');
  });

  it('serves /skill.md with the agent onboarding steps', async () => {
    h = await makeApp({ config: { publicUrl: 'https://db8.example' } });
    const r = await h.app.inject({ method: 'GET', url: '/skill.md' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/markdown/);
    expect(r.body).toContain('https://db8.example/v1/agents');
    expect(r.body).toContain('wss://db8.example/v1/ws');
  });

  it('never logs Authorization headers, API keys or tokens', async () => {
    // Requests are logged at debug.
    h = await makeApp({ config: { logLevel: 'debug' } });
    const created = await h.app.inject({ method: 'POST', url: '/v1/agents', ...json({ name: 'x' }) });
    const apiKey: string = created.json().api_key;
    const tok = await h.app.inject({ method: 'POST', url: '/v1/auth/token', ...json({ api_key: apiKey }) });
    const session: string = tok.json().token;
    await h.app.inject({ method: 'GET', url: '/v1/auth/me', headers: bearer(session) });
    await h.app.inject({ method: 'GET', url: `/v1/nope?token=${session}&x=1` });
    await h.app.inject({ method: 'GET', url: '/v1/auth/me', headers: bearer(`${apiKey}x`) });
    const all = h.logs.join('\n');
    expect(h.logs.length).toBeGreaterThan(3);
    expect(all).not.toContain(apiKey);
    expect(all).not.toContain(session);
    expect(all).toContain('token=[redacted]');
  });
});
