import { ModelServer, type RecordedRequest } from '@db8/agents/test/model-server.ts';
import { type StartedServer, startEmbeddedServer } from '@db8/server/test/started-server.ts';
import type { RunningServer } from 'db8/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliberationScriptReply } from '../../server/scripted.ts';

// Reflexion through a model: a code deliberation on a real server whose seats are model drivers
// talking to a real local HTTP server that speaks the OpenAI API with scripted replies. Each
// proposer's first code fails the task's tests in the sandbox; the model is asked for a reflection
// on the failing output; its second code (written with the reflection in the prompt) passes. The
// pass rate rises from 3/4 to 4/4, the reflection is stored on the turn, and the operator's
// measurement of every recorded version is the sandbox's.

let server: RunningServer;
let started: StartedServer;
let admin: string;
let models: ModelServer;

// biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely by tests.
type Json = any;

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${admin}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

const TESTS = `import assert from 'node:assert/strict';
import { add } from './solution.mjs';
export default {
  'adds small numbers': () => assert.equal(add(1, 2), 3),
  'adds negatives': () => assert.equal(add(-2, -3), -5),
  'adds zero': () => assert.equal(add(0, 7), 7),
  'is commutative': () => assert.equal(add(4, 9), add(9, 4)),
};`;
const WRONG = 'export function add(a, b) {\n  return Math.abs(a) + b;\n}\n';
const RIGHT = 'export function add(a, b) {\n  return a + b;\n}\n';
const ROOT_CAUSE = 'add took the absolute value of its first operand';

const userOf = (r: RecordedRequest): string =>
  (r.body.messages as { role: string; content: string }[]).find((m) => m.role === 'user')?.content ?? '';
const schemaOf = (r: RecordedRequest): string =>
  r.body.tools?.[0]?.function?.name ?? r.body.response_format?.json_schema?.name ?? '';
const seatOf = (r: RecordedRequest): string => {
  const system =
    (r.body.messages as { role: string; content: string }[]).find((m) => m.role === 'system')?.content ?? '';
  return /^You are (\w+),/.exec(system)?.[1] ?? '?';
};

beforeAll(async () => {
  models = await ModelServer.start();
  started = await startEmbeddedServer('db8-reflexion-');
  server = started.server;
  admin = started.admin;
});

afterAll(async () => {
  await started?.close();
  await models?.close();
});

describe('reflexion through a model', () => {
  it("a code task's pass rate rises from failing to passing tests through a reflection", async () => {
    models.respond((req) => {
      const prompt = userOf(req);
      const schema = schemaOf(req);
      if (schema === 'deliberation_reflection')
        return {
          reply: {
            rootCause: ROOT_CAUSE,
            whatWentWrong: 'add(-2, -3) returned -1: the sign of a was dropped',
            whatToChange: 'return a + b without Math.abs',
            confidence: 0.9,
          },
        };
      const body = deliberationScriptReply({ schemaName: schema, prompt }) as Record<string, unknown>;
      if (schema === 'deliberation_propose') {
        const reflected = prompt.includes('Your reflections so far');
        return { reply: { ...body, code: { language: 'javascript', source: reflected ? RIGHT : WRONG } } };
      }
      if (schema === 'deliberation_optimize')
        return { reply: { ...body, code: { language: 'javascript', source: RIGHT } } };
      return { reply: body };
    });
    const seat = (name: string, role: string, score: number) => ({
      name,
      role,
      score,
      provider: 'openai',
      model: 'gpt-reflexion',
      base_url: models.openaiBaseUrl,
    });
    const created = await api('POST', '/v1/debates', {
      topic: 'Write add(a, b) that adds two numbers',
      participants: [seat('ana', 'architect', 9.5), seat('ben', 'critic', 9), seat('cai', 'optimizer', 8.5)],
      topology_type: 'graph_mesh',
      coordination_protocol: 'cpde',
      max_rounds: 1,
      min_consensus: 0,
      enable_dehallucination: false,
      enable_self_evolvement: false,
      enable_adversarial: false,
      reflexion_attempts: 2,
      task: { kind: 'code', language: 'javascript', confidence: 0.95, tests: TESTS },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const id = created.json.id as string;
    const end = Date.now() + 90_000;
    let status = '';
    while (Date.now() < end) {
      status = (await api('GET', `/v1/debates/${id}/status`)).json.status;
      if (['completed', 'failed', 'cancelled'].includes(status)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe('completed');

    const details = (await api('GET', `/v1/debates/${id}`)).json;
    const proposals = details.rounds[0].responses.filter((t: Json) => t.action.type === 'propose');
    expect(proposals).toHaveLength(3);
    for (const t of proposals) {
      const a = t.action;
      // Attempt 1 failed one test of four in the sandbox; attempt 2, after the reflection, passed all.
      expect(a.testResults.output).toContain('attempt 1: 3/4 passed (ok)');
      expect(a.testResults.output).toContain('attempt 2: 4/4 passed (ok)');
      expect(a.testResults).toMatchObject({ passed: 4, failed: 0 });
      expect(a.reflections).toEqual([
        expect.objectContaining({ rootCause: ROOT_CAUSE, whatToChange: 'return a + b without Math.abs' }),
      ]);
      expect(a.code.source).toBe(RIGHT);
      expect(a.call).toMatchObject({ provider: 'openai', model: 'gpt-reflexion' });
      expect(a.call.inputTokens).toBeGreaterThan(0);
    }
    // What the model was asked, in order, per proposer: a draft, a reflection on the failing output,
    // then a draft with the reflection in its prompt.
    for (const who of ['ana', 'ben', 'cai']) {
      const asked = models.requests.filter(
        (r) => seatOf(r) === who && /propose|reflection/.test(schemaOf(r)),
      );
      expect(asked.map(schemaOf)).toEqual([
        'deliberation_propose',
        'deliberation_reflection',
        'deliberation_propose',
      ]);
      expect(userOf(asked[1]!)).toContain('FAIL adds negatives');
      expect(userOf(asked[2]!)).toContain(ROOT_CAUSE);
    }
    // Every recorded version was measured by the operator from the sandbox: all pass.
    const results = (await api('GET', `/v1/debates/${id}/results`)).json;
    expect(results.code_versions.length).toBeGreaterThanOrEqual(4);
    for (const v of results.code_versions) expect(v.test_pass_rate).toBe(1);
    // And analysed (FTA, server/quality.ts): a quality score and the complexity metrics beside the rate.
    for (const v of results.code_versions) {
      expect(v.quality_score).toBeGreaterThan(0);
      expect(v.quality_score).toBeLessThanOrEqual(1);
      expect(v.metrics).toMatchObject({ cyclomatic: expect.any(Number), ftaScore: expect.any(Number) });
      expect(v.metrics.cyclomatic).toBeGreaterThanOrEqual(1);
    }
    // Each call is its own driver row: the draft and the reflection before the submitted draft.
    const calls = (await api('GET', `/v1/rooms/${id}/drivers`)).json.calls as Json[];
    const ana = calls.filter((c) => c.seat === 'ana' && c.decision.startsWith('turn:1.proposal.1.work'));
    expect(ana.map((c) => c.decision).sort()).toEqual([
      'turn:1.proposal.1.work',
      'turn:1.proposal.1.work#1',
      'turn:1.proposal.1.work#2',
    ]);
    expect(ana.every((c) => c.ok)).toBe(true);
  }, 120_000);
});
