import { ModelServer } from '@db8/agents/test/model-server.ts';
import { councilResponder } from '@db8/council/test/agent/council-responder.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATIENCE_MS } from '../../../test/patience.ts';
import type { Harness } from './app-harness.ts';
import { adminToken, call, routeApps } from './routes-fixtures.ts';

// Driver specs and the server's secrets. `mock` is a MOCK OF THE PROVIDER API (OpenAI wire) on
// 127.0.0.1 that records the Authorization header of every request: it stands in for a model
// endpoint an admin names in a spec's base_url.

const OPENAI_KEY = 'sk-server-openai-key-0123456789';
const LAB_KEY = 'sk-lab-endpoint-key-0123456789';
const URL_SECRET = 'url-secret-0123456789';
const env = { OPENAI_API_KEY: OPENAI_KEY, OPENROUTER_API_KEY: OPENAI_KEY, DB8_DRIVER_KEY_LAB: LAB_KEY };

const apps = routeApps();
let mock: ModelServer;
beforeAll(async () => {
  mock = await ModelServer.start();
  mock.respond(councilResponder());
});
afterAll(async () => {
  await mock.close();
});

async function councilWith(h: Harness, admin: string, spec: Record<string, unknown>) {
  const r = await call(h, 'POST', '/v1/rooms', {
    token: admin,
    body: {
      protocol: 'council',
      config: { question: 'Four-day week?', stageWindowMs: 60_000 },
      drivers: { proponent: { driver: 'model', provider: 'openai', model: 'gpt-x', ...spec } },
    },
  });
  // No deadline scheduler here: the first tick (due at once) opens Round1, and the driver speaks.
  if (r.status === 201) await h.runtime.tick(r.body.room_id);
  return r;
}

async function firstAuthorization(): Promise<string> {
  const end = Date.now() + PATIENCE_MS;
  while (mock.requests.length === 0) {
    if (Date.now() > end) throw new Error('the driver never called the mock provider API');
    await new Promise((r) => setTimeout(r, 20));
  }
  return String(mock.requests[0]!.headers.authorization);
}

describe("driver specs never carry the server's keys elsewhere", () => {
  it("an admin's base_url gets no OPENAI_API_KEY", async () => {
    mock.requests.length = 0;
    const h = await apps.make({ env, mountModules: true });
    const admin = await adminToken(h);
    const room = await councilWith(h, admin, { base_url: mock.openaiBaseUrl });
    expect(room.status, JSON.stringify(room.body)).toBe(201);
    const auth = await firstAuthorization();
    expect(auth).not.toContain(OPENAI_KEY);
    expect(auth).toBe('Bearer no-key');
  });

  it('a base_url gets the DB8_DRIVER_KEY_* its spec names, nothing else', async () => {
    mock.requests.length = 0;
    const h = await apps.make({ env, mountModules: true });
    const admin = await adminToken(h);
    const room = await councilWith(h, admin, {
      base_url: mock.openaiBaseUrl,
      api_key_env: 'DB8_DRIVER_KEY_LAB',
    });
    expect(room.status, JSON.stringify(room.body)).toBe(201);
    expect(await firstAuthorization()).toBe(`Bearer ${LAB_KEY}`);
    // Naming a server secret is refused before a room exists.
    for (const name of ['OPENAI_API_KEY', 'DATABASE_URL', 'DB8_SERVER_KEY']) {
      const bad = await councilWith(h, admin, { base_url: mock.openaiBaseUrl, api_key_env: name });
      expect(bad.status, name).toBe(400);
      expect(JSON.stringify(bad.body)).not.toContain(OPENAI_KEY);
    }
  });
});

describe('GET /v1/rooms/:id/drivers', () => {
  it("the room's admin only, with credentials in base_url redacted, in the answer and the logs", async () => {
    const h = await apps.make({ env, mountModules: true });
    const admin = await adminToken(h);
    const base = mock.openaiBaseUrl.replace('http://', `http://lab:${URL_SECRET}@`);
    const room = await councilWith(h, admin, { base_url: `${base}?api-key=${URL_SECRET}` });
    expect(room.status, JSON.stringify(room.body)).toBe(201);
    const id = room.body.room_id as string;
    const path = `/v1/rooms/${id}/drivers`;

    const anon = await call(h, 'GET', path);
    expect(anon.status).toBe(401);
    expect(anon.body.error.code).toBe('UNAUTHORIZED');
    const agent = await call(h, 'POST', '/v1/agents', { body: { name: 'nosy' } });
    const other = await call(h, 'GET', path, { token: agent.body.api_key });
    expect(other.status).toBe(403);
    expect(other.raw.body).not.toContain(URL_SECRET);

    const own = await call(h, 'GET', path, { token: admin });
    expect(own.status).toBe(200);
    expect(own.raw.body).not.toContain(URL_SECRET);
    const origin = new URL(mock.url).host;
    expect(own.body.drivers.proponent.base_url).toBe(`http://[redacted]@${origin}/v1?api-key=[redacted]`);
    await (h.app.db8.drivers as { idle(): Promise<void> } | null)?.idle();
    const logs = h.logs.join('');
    expect(logs).toContain('drivers attached');
    expect(logs).not.toContain(URL_SECRET);
  });
});
