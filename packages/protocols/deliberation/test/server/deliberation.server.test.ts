import { ModelServer } from '@db8/agents/test/model-server.ts';
import { type StartedServer, startEmbeddedServer } from '@db8/server/test/started-server.ts';
import type { RunningServer } from 'db8/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliberationScriptReply } from '../../server/scripted.ts';

// Deliberation on a real server: upstream-shaped REST (/v1/debates) mapped onto rooms, scripted
// seats of every role played by the driver host, the sandbox's measurements recorded by the
// operator, gates approved and rejected over REST, a failed model call recorded as a failed turn,
// the audit trail and the storage projection fed by the committed-entry hook (DELETE and purge:
// deliberation.lifecycle.test.ts).

let server: RunningServer;
let started: StartedServer;
let admin: string;
let models: ModelServer;

// biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely by tests.
type Json = any;

async function api(
  method: string,
  path: string,
  body?: unknown,
  token = admin,
): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

async function until<T>(what: string, fn: () => Promise<T | null>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== null) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const SIX = [
  { name: 'ana', role: 'architect', score: 9.5 },
  { name: 'ben', role: 'critic', score: 9.1 },
  { name: 'cai', role: 'reviewer', score: 8.7 },
  { name: 'dee', role: 'optimizer', score: 8.6 },
  { name: 'eli', role: 'red_team', score: 8.2 },
  { name: 'fay', role: 'moderator', score: 7.9 },
];
const scripted = SIX.map((p) => ({ ...p, provider: 'scripted' }));

const statusOf = async (id: string) => (await api('GET', `/v1/debates/${id}/status`)).json;
const over = (s: { status: string }) => ['completed', 'failed', 'cancelled'].includes(s.status);

beforeAll(async () => {
  models = await ModelServer.start();
  started = await startEmbeddedServer('db8-deliberation-');
  server = started.server;
  admin = started.admin;
});

afterAll(async () => {
  await started?.close();
  await models?.close();
});

describe('deliberation over REST', () => {
  it('refuses a bad body at the edge (zod): 400, nothing created', async () => {
    const before = (await api('GET', '/v1/debates')).json.total;
    const r = await api('POST', '/v1/debates', { topic: 'x', participants: scripted.slice(0, 2) });
    expect(r.status).toBe(400);
    const r2 = await api('POST', '/v1/debates', {
      topic: 'x',
      participants: scripted,
      topology_type: 'ring',
    });
    expect(r2.status).toBe(400);
    expect((await api('GET', '/v1/debates')).json.total).toBe(before);
  });

  it('six scripted seats (star, adaptive) deliberate to completion; status, results, audit, projection', async () => {
    const created = await api('POST', '/v1/debates', {
      topic: 'Design a rate limiter for the public API',
      participants: scripted,
      topology_type: 'star',
      coordination_protocol: 'adaptive',
      max_rounds: 3,
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const id = created.json.id as string;
    expect(created.json).toMatchObject({ room_id: id, status: 'running', topology_type: 'star' });
    expect(
      created.json.participants.every(
        (p: { driven: boolean; provider: string }) => p.driven && p.provider === 'scripted',
      ),
    ).toBe(true);
    const done = await until('completion', async () => {
      const s = await statusOf(id);
      return over(s) ? s : null;
    });
    expect(done).toMatchObject({ status: 'completed', progress: 100 });
    const results = (await api('GET', `/v1/debates/${id}/results`)).json;
    expect(results.winner).not.toBeNull();
    expect(results.reached_consensus).toBe(true);
    expect(
      results.phases.filter((p: { round: number }) => p.round === 1).map((p: { phase: string }) => p.phase),
    ).toEqual([
      'dehallucination',
      'self_evolvement',
      'proposal',
      'critique',
      'review',
      'optimization',
      'adversarial',
      'convergence',
    ]);
    // Every turn the scripted cast wrote says so.
    const details = (await api('GET', `/v1/debates/${id}`)).json;
    const turns = details.rounds.flatMap((r: { responses: unknown[] }) => r.responses);
    expect(turns.length).toBeGreaterThan(30);
    for (const t of turns) if (t.action.type !== 'plan') expect(t.action.content).toMatch(/^\[scripted\]/);
    const drivers = (await api('GET', `/v1/rooms/${id}/drivers`)).json;
    expect(drivers.totals.failures).toBe(0);
    expect(drivers.totals.calls).toBe(turns.length);
    const audit = (await api('GET', `/v1/debates/${id}/audit`)).json;
    expect(audit.events[0].type).toBe('genesis');
    expect(audit.events.some((e: { type: string }) => e.type === 'propose')).toBe(true);
    expect(audit.total_events).toBe(audit.events.length);
    // The storage projection, fed by the committed-entry hook.
    await until('the projection', async () => {
      const history = (await api('GET', '/v1/deliberation/history?status=completed')).json;
      return JSON.stringify(history).includes(id) ? true : null;
    });
  }, 90_000);

  it('a gate pauses the session; approve over REST resumes it; reject cancels with the reason', async () => {
    const body = {
      topic: 'Pick a database',
      participants: scripted,
      enable_approval_gates: true,
      gate_phases: ['proposal'],
      max_rounds: 1,
    };
    const a = (await api('POST', '/v1/debates', body)).json.id as string;
    await until('the gate', async () => ((await statusOf(a)).status === 'paused' ? true : null));
    const gates = (await api('GET', `/v1/debates/${a}/gates`)).json;
    expect(gates.gates).toEqual([expect.objectContaining({ phase: 'proposal', status: 'pending' })]);
    // A principal that holds no reviewer seat may not decide.
    const agent = (await api('POST', '/v1/agents', { name: 'nosy' })).json;
    const nosy = await api('POST', `/v1/debates/${a}/approve`, { reason: 'me' }, agent.api_key);
    expect(nosy.status).toBe(403);
    const ok = await api('POST', `/v1/debates/${a}/approve`, { reason: 'plan looks right' });
    expect(ok.status, JSON.stringify(ok.json)).toBe(200);
    expect(ok.json).toMatchObject({
      gate: 'proposal',
      approved: true,
      decided_by: 'operator',
      status: 'running',
    });
    await until('completion', async () => (over(await statusOf(a)) ? true : null));
    expect((await statusOf(a)).status).toBe('completed');

    const b = (await api('POST', '/v1/debates', body)).json.id as string;
    await until('the gate', async () => ((await statusOf(b)).status === 'paused' ? true : null));
    expect((await api('POST', `/v1/debates/${b}/reject`, {})).status).toBe(400); // a reason is required
    const no = await api('POST', `/v1/debates/${b}/reject`, { reason: 'wrong direction' });
    expect(no.json).toMatchObject({ approved: false, status: 'cancelled' });
    const res = (await api('GET', `/v1/debates/${b}/results`)).json;
    expect(res.cancellation).toEqual({ by: 'operator', reason: 'wrong direction' });
    expect((await api('POST', `/v1/debates/${b}/approve`, {})).status).toBe(409);
  }, 90_000);

  it('a code task: the sandbox measures every version and the operator records the pass rate', async () => {
    const created = await api('POST', '/v1/debates', {
      topic: 'Export answer, the round number',
      participants: scripted,
      topology_type: 'graph_mesh',
      max_rounds: 1,
      enable_adversarial: false,
      task: {
        kind: 'code',
        language: 'typescript',
        confidence: 0.95,
        tests: `import assert from 'node:assert/strict';
import { answer } from './solution.mjs';
export default { 'answer is 1': () => assert.equal(answer, 1), 'answer is a number': () => assert.equal(typeof answer, 'number') };`,
      },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const id = created.json.id as string;
    await until('completion', async () => (over(await statusOf(id)) ? true : null), 120_000);
    const res = (await api('GET', `/v1/debates/${id}/results`)).json;
    expect(res.status).toBe('completed');
    expect(res.code_versions.length).toBeGreaterThanOrEqual(6);
    for (const v of res.code_versions) {
      expect(v.test_pass_rate, `v${v.version}`).toBe(1); // the scripted module exports answer = round
      expect(v.metrics).toMatchObject({ tests: 2, passed: 2, netIsolated: 1 });
    }
    expect(res.code_versions[1].diff).toContain('@@');
    const entries = (await api('GET', `/v1/debates/${id}/audit`)).json.events;
    const measures = entries.filter((e: { type: string; actor: string }) => e.type === 'measure');
    expect(measures.length).toBe(res.code_versions.length);
    expect(measures.every((e: { actor: string }) => e.actor === 'operator')).toBe(true);
  }, 150_000);

  it('a failed model call is a recorded failed turn, never content', async () => {
    models.reset();
    // The critic's model answers 500 every time; the others answer as the scripted cast would.
    models.respond((req) => {
      const user =
        (req.body.messages as { role: string; content: string }[]).find((m) => m.role === 'user')?.content ??
        '';
      if (user.startsWith('You are ben') || user.includes('"seat":"ben"')) return { status: 500 };
      const schemaName =
        req.body.tools?.[0]?.function?.name ?? req.body.response_format?.json_schema?.name ?? 'x';
      return { reply: deliberationScriptReply({ schemaName, prompt: user }) };
    });
    const participants = scripted.map((p) => ({
      ...p,
      provider: 'openai',
      model: 'gpt-test',
      base_url: models.openaiBaseUrl,
    }));
    const created = await api('POST', '/v1/debates', {
      topic: 'Which cache eviction policy?',
      participants,
      max_rounds: 1,
      min_consensus: 0,
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const id = created.json.id as string;
    await until('the end', async () => (over(await statusOf(id)) ? true : null), 120_000);
    const details = (await api('GET', `/v1/debates/${id}`)).json;
    const bens = details.rounds.flatMap((r: { responses: { seat: string; action: { type: string } }[] }) =>
      r.responses.filter((t) => t.seat === 'ben'),
    );
    expect(bens.length).toBeGreaterThan(0);
    for (const t of bens) {
      expect(t.action.type).toBe('failed');
      expect(t.action).toMatchObject({ error: { code: 'server_error' } });
      expect((t.action as { content?: unknown }).content).toBeUndefined();
    }
    const drivers = (await api('GET', `/v1/rooms/${id}/drivers`)).json;
    const benCalls = drivers.calls.filter((c: { seat: string }) => c.seat === 'ben');
    expect(
      benCalls.every((c: { ok: boolean; errorCode: string }) => !c.ok && c.errorCode === 'server_error'),
    ).toBe(true);
  }, 150_000);
});
