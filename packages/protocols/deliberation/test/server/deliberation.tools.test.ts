import { createProvider, type Provider } from '@db8/agents';
import { ModelServer, type RecordedRequest } from '@db8/agents/test/model-server.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolCall } from '../../rules/index.ts';
import { deliberationScriptReply, runLocalDeliberation } from '../../server/index.ts';
import { turnRows } from '../../server/storage/index.ts';

// Model seats' tools (server/tools.ts): with `tools` on, a model seat asked to draft first names
// the tools it wants through the provider's tool calling; the server runs them — the task's tests
// on the seat's draft in the real sandbox, an earlier code version and its diff, the lessons the
// session was given — and the seat drafts with the results. Each call and its result is in the
// turn (so in the log: replay needs neither model nor tool) and in the turns table's tool_calls.

const TESTS = `import assert from 'node:assert/strict';
import { add } from './solution.mjs';
export default { 'adds': () => assert.equal(add(2, 3), 5) };`;
const RIGHT = 'export function add(a, b) {\n  return a + b;\n}\n';
const SEATS = ['architect', 'critic', 'reviewer'].map((role, i) => ({
  id: `m${i}`,
  role,
  score: 9 - i * 0.5,
  provider: 'openai',
  model: 'gpt-tools',
}));
const LESSON = {
  id: '00000000-0000-4000-8000-00000000000a',
  title: 'Consensus on adding numbers',
  solution: 'return a + b; never take absolute values',
  category: 'pattern',
  tier: 'bronze',
  score: 0.9,
};

let models: ModelServer;
beforeAll(async () => {
  models = await ModelServer.start();
});
afterAll(async () => {
  await models?.close();
});

const schemaOf = (r: RecordedRequest): string =>
  r.body.tools?.[0]?.function?.name ?? r.body.response_format?.json_schema?.name;
const userOf = (r: RecordedRequest): string =>
  (r.body.messages as { role: string; content: string }[]).find((m) => m.role === 'user')?.content ?? '';

describe('model seats call tools', () => {
  it('runs the tests on a draft, reads a version, searches the lessons; every call is recorded', async () => {
    models.reset();
    models.respond((req) =>
      schemaOf(req) === 'deliberation_tools'
        ? {
            reply: {
              calls: [
                { tool: 'run_tests', source: RIGHT, version: null, query: null },
                { tool: 'read_version', source: null, version: 1, query: null },
                { tool: 'search_lessons', source: null, version: null, query: 'absolute values' },
              ],
            },
          }
        : { reply: deliberationScriptReply({ schemaName: schemaOf(req), prompt: userOf(req) }) },
    );
    const providers: Record<string, Provider> = Object.fromEntries(
      SEATS.map((s) => [
        s.id,
        createProvider({
          provider: 'openai',
          model: 'gpt-tools',
          baseUrl: models.openaiBaseUrl,
          env: { OPENAI_API_KEY: 'sk-test' },
        }),
      ]),
    );
    const run = await runLocalDeliberation({
      config: {
        sessionId: 'tools_1',
        topic: 'Export add(a, b), the sum of two numbers',
        seats: SEATS,
        maxRounds: 1,
        minConsensus: 0,
        task: { kind: 'code', language: 'javascript', confidence: 0.95, tests: TESTS },
        lessons: [LESSON],
        tools: true,
      },
      providers,
      seed: 'cd'.repeat(32),
    });
    const drafts = run.state.turns.filter((t) => ['propose', 'optimize'].includes(t.action.type));
    expect(drafts.length).toBeGreaterThan(0);
    const calls = (t: (typeof drafts)[number]) => (t.action as { toolCalls?: ToolCall[] }).toolCalls ?? [];
    for (const t of drafts)
      expect(calls(t).map((c) => c.tool)).toEqual(['run_tests', 'read_version', 'search_lessons']);
    const first = calls(drafts[0]!);
    // The tests ran on the draft in the sandbox.
    expect(first[0]).toMatchObject({ ok: true, input: { source: RIGHT } });
    expect(first[0]!.output).toContain('1/1 passed');
    // Before any version exists there is none to read; a later draft reads v1 with its pass rate.
    expect(first[1]).toMatchObject({ ok: false, output: 'no version 1 you can see' });
    const later = drafts.find((t) => t.seq > drafts[0]!.seq && calls(t)[1]!.ok);
    expect(later).toBeDefined();
    expect(calls(later!)[1]!.output).toMatch(/^v1 by m\d/);
    // The lessons the session was given, searched by words.
    expect(first[2]).toMatchObject({ ok: true, output: `${LESSON.title}: ${LESSON.solution}` });
    // The seat drafted with the results in its prompt, asked right after the tools call.
    const asked = models.requests.map(schemaOf);
    const i = asked.indexOf('deliberation_tools');
    expect(asked[i + 1]).toBe('deliberation_propose');
    expect(userOf(models.requests[i + 1]!)).toContain('Your tool calls and their results');
    // Non-drafting turns call no tools.
    for (const t of run.state.turns)
      if (!['propose', 'optimize', 'blue'].includes(t.action.type)) expect(calls(t)).toEqual([]);
    // The turns table's tool_calls hold the same calls.
    const rows = turnRows('tools_1', run.state);
    expect(rows.find((r) => r.seq === drafts[0]!.seq)!.tool_calls).toEqual(first);
  }, 120_000);
});
