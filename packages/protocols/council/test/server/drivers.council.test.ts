import { ModelServer } from '@db8/agents/test/model-server.ts';
import { type StartedServer, startEmbeddedServer } from '@db8/server/test/started-server.ts';
import type { RunningServer } from 'db8/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedRoles, TURN_STAGES } from '../../rules/index.ts';
import { councilResponder } from '../agent/council-responder.ts';

// A council room on a real server whose five roles are model drivers on a real local model server:
// Proponent, Analyst and Judge speak the OpenAI format, Critic and Synthesizer Anthropic's.

let server: RunningServer;
let models: ModelServer;
let started: StartedServer;
let admin: string;

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${admin}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {}
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely by tests.
  return { status: res.status, text, json: json as any };
}

beforeAll(async () => {
  models = await ModelServer.start();
  started = await startEmbeddedServer('db8-drivers-');
  server = started.server;
  admin = started.admin;
});

afterAll(async () => {
  await started?.close();
  await models?.close();
});

const spec = (wire: 'openai' | 'anthropic', persona?: string) => ({
  driver: 'model',
  provider: wire,
  model: `${wire}-model`,
  base_url: wire === 'openai' ? models.openaiBaseUrl : models.anthropicBaseUrl,
  ...(persona ? { persona } : {}),
});

async function waitFor<T>(fn: () => Promise<T | null>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== null) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('drivers: a council room run by model drivers', () => {
  it('runs live to completed, records every call, serves the packet as JSON and Markdown', async () => {
    models.respond(councilResponder());
    const created = await api('POST', '/v1/rooms', {
      protocol: 'council',
      config: { question: 'Should we adopt a four-day week?', stageWindowMs: 20_000 },
      drivers: {
        proponent: spec('openai'),
        critic: spec('anthropic'),
        analyst: spec('openai'),
        synthesizer: spec('anthropic'),
        judge: spec('openai'),
        operator: spec('openai'),
      },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.json.room_id as string;
    const room = await waitFor(async () => {
      const r = await api('GET', `/v1/rooms/${id}`);
      return r.json.status === 'closed' ? r.json : null;
    });
    expect(room.status).toBe('closed');
    const st = await api('GET', `/v1/rooms/${id}/state`);
    expect(st.json.view.status).toBe('completed');
    expect(st.json.view.writeback.recordPath).toBe(`/v1/rooms/${id}/council/packet.json`);
    // The roster names who played: the drivers' providers, not scripted.
    expect(st.json.view.config.roster.map((r: { provider: string }) => r.provider)).toEqual([
      'openai',
      'anthropic',
      'openai',
      'anthropic',
      'openai',
    ]);
    const wires = new Set(models.requests.map((r) => r.wire));
    expect(wires).toEqual(new Set(['openai', 'anthropic']));

    const drivers = await api('GET', `/v1/rooms/${id}/drivers`);
    // One call per expected role per turn stage, and the operator's writeback.
    const turns = TURN_STAGES.reduce((n, s) => n + expectedRoles(s).length, 0);
    expect(drivers.json.calls.filter((c: { ok: boolean }) => c.ok).length).toBe(turns + 1);
    expect(models.requests.length).toBe(turns);
    expect(drivers.json.totals.failures).toBe(0);
    expect(drivers.json.totals.inputTokens).toBeGreaterThan(0);
    expect(JSON.stringify(drivers.json)).not.toContain('sk-');

    const json = await api('GET', `/v1/rooms/${id}/council/packet.json`);
    expect(json.status).toBe(200);
    expect(json.json.question).toBe('Should we adopt a four-day week?');
    const md = await api('GET', `/v1/rooms/${id}/council/packet.md`);
    expect(md.status).toBe(200);
    expect(md.text).toContain('four-day week');
  }, 60_000);

  it('a role whose model returns garbage is recorded as failed, never given content', async () => {
    models.respond(
      councilResponder((r) => (r.role === 'Critic' ? { rawBody: '{"choices": [ garbage' } : null)),
    );
    const created = await api('POST', '/v1/rooms', {
      protocol: 'council',
      config: { question: 'Garbage critic?', stageWindowMs: 20_000 },
      drivers: {
        proponent: spec('openai'),
        critic: spec('anthropic'),
        analyst: spec('openai'),
        synthesizer: spec('anthropic'),
        judge: spec('openai'),
        operator: spec('openai'),
      },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.json.room_id as string;
    await waitFor(async () => ((await api('GET', `/v1/rooms/${id}`)).json.status === 'closed' ? true : null));
    const st = await api('GET', `/v1/rooms/${id}/state`);
    const critic = st.json.view.turns.filter((t: { role: string }) => t.role === 'Critic');
    expect(critic.length).toBeGreaterThan(0);
    expect(critic.every((t: { kind: string }) => t.kind === 'failed')).toBe(true);
    const drivers = await api('GET', `/v1/rooms/${id}/drivers`);
    const failures = drivers.json.calls.filter((c: { ok: boolean }) => !c.ok);
    expect(failures.length).toBeGreaterThan(0);
    const malformed = failures.filter((c: { errorCode: string }) => c.errorCode === 'malformed_response');
    expect(malformed.length).toBeGreaterThan(0);
    expect(malformed.every((c: { seat: string }) => c.seat === 'critic')).toBe(true);
  }, 60_000);

  it('refuses invalid drivers before creating a room', async () => {
    const bad = await api('POST', '/v1/rooms', {
      protocol: 'council',
      config: { question: 'x' },
      drivers: { proponent: { driver: 'model', provider: 'no-such-profile' } },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.code ?? bad.json.error?.code).toBe('BAD_DRIVERS');
    const key = await api('POST', '/v1/rooms', {
      protocol: 'council',
      config: { question: 'x' },
      drivers: { proponent: { driver: 'model', provider: 'openai', model: 'm', api_key: 'sk-nope' } },
    });
    expect(key.status).toBe(400);
  });
});
