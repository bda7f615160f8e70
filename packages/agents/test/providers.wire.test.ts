// Both adapters against a real local HTTP server speaking each wire format: replies, retries with
// retry-after, timeouts, truncated and malformed bodies, the repair attempt, cancellation and keys.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Budget, CallRecordSchema, type CreateProviderOptions, createProvider } from '../src/index.ts';
import { ModelServer, type Wire } from './model-server.ts';

const KEY = 'sk-test-0123456789abcdef-SECRET';
const Answer = z.object({ answer: z.string().min(1), score: z.number().min(0).max(1) }).strict();
const good = { answer: 'yes', score: 0.75 };

let server: ModelServer;
beforeAll(async () => {
  server = await ModelServer.start();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

/** Until the fake server has received `n` requests (polled: its requests list is plain data). */
async function received(n: number): Promise<void> {
  while (server.requests.length < n) await new Promise((r) => setTimeout(r, 5));
}

function provider(wire: Wire, extra: Partial<CreateProviderOptions> = {}) {
  return createProvider({
    provider: wire,
    model: 'test-model',
    baseUrl: wire === 'openai' ? server.openaiBaseUrl : server.anthropicBaseUrl,
    env: { OPENAI_API_KEY: KEY, ANTHROPIC_API_KEY: KEY },
    // The local server is not the profile's own endpoint: its key is named explicitly.
    apiKeyEnv: wire === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY',
    config: {
      // A safety limit only: the local server answers at once, however loaded the machine. The
      // timeout tests set a short one with a server that never answers (a timeout whatever the load).
      timeoutMs: 120_000,
      retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 5 },
      prices: { 'test-model': { inputPerMTok: 3, outputPerMTok: 15 } },
    },
    ...extra,
  });
}

const ask = { schemaName: 'answer', schema: Answer, system: 'You answer.', prompt: 'Is it?' };

describe.each(['openai', 'anthropic'] as const)('%s adapter', (wire) => {
  it('sends the schema as structured output, validates the reply, and records usage and cost', async () => {
    server.enqueue({ reply: good, usage: { input: 1000, output: 200 } });
    const out = await provider(wire).call({ ...ask, seat: 'critic' });
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.value).toEqual(good);
    const r = CallRecordSchema.parse(out.record);
    expect(r).toMatchObject({
      provider: wire,
      profile: wire,
      model: 'test-model',
      endpoint: wire === 'openai' ? server.openaiBaseUrl : server.anthropicBaseUrl,
      scripted: false,
      schemaName: 'answer',
      seat: 'critic',
      usage: { inputTokens: 1000, outputTokens: 200 },
      costUsd: 0.006, // 1000 × $3/M + 200 × $15/M
      repaired: false,
      ok: true,
      error: null,
    });
    expect(r.attempts).toHaveLength(1);
    expect(r.attempts[0]).toMatchObject({ phase: 'initial', n: 1, status: 200, outcome: 'reply' });
    const req = server.requests[0]!;
    if (wire === 'openai') {
      expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(req.body.response_format.type).toBe('json_schema');
      expect(req.body.response_format.json_schema).toMatchObject({ name: 'answer', strict: true });
      expect(req.body.response_format.json_schema.schema.required).toEqual(['answer', 'score']);
      expect(req.body.messages[0]).toEqual({ role: 'system', content: 'You answer.' });
      expect(req.body.max_completion_tokens).toBeGreaterThan(0);
    } else {
      // SDK 1.x sends the key as a Bearer token (0.x used x-api-key); either way it must arrive.
      expect([req.headers['x-api-key'], req.headers.authorization]).toContain(
        wire === 'anthropic' && req.headers['x-api-key'] ? KEY : `Bearer ${KEY}`,
      );
      expect(req.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(req.body.tools[0]).toMatchObject({ name: 'answer' });
      expect(req.body.tools[0].input_schema.properties.score).toMatchObject({
        type: 'number',
        minimum: 0,
        maximum: 1,
      });
      expect(req.body.tool_choice).toEqual({ type: 'tool', name: 'answer' });
      expect(req.body.system).toBe('You answer.');
    }
  });

  it('retries a 429 after the server’s retry-after, then succeeds', async () => {
    server.enqueue(
      { status: 429, headers: { 'retry-after-ms': '40' } },
      { status: 429, headers: { 'retry-after': '0' } },
      { reply: good },
    );
    const t0 = performance.now();
    const out = await provider(wire).call(ask);
    expect(out.ok).toBe(true);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(35);
    expect(out.record.attempts.map((a) => [a.status, a.outcome, a.error, a.waitMs])).toEqual([
      [429, 'retry', 'rate_limited', 40],
      [429, 'retry', 'rate_limited', 0],
      [200, 'reply', null, null],
    ]);
    expect(server.requests).toHaveLength(3);
  });

  it('gives up on 5xx after maxRetries and records every attempt', async () => {
    server.enqueue({ status: 500 }, { status: 502 }, { status: 503 }, { reply: good });
    const out = await provider(wire).call(ask);
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.error).toMatchObject({ code: 'server_error', status: 503 });
    expect(out.error.message).toMatch(/after 3 attempts/);
    expect(out.record.attempts.map((a) => a.outcome)).toEqual(['retry', 'retry', 'error']);
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry a 400', async () => {
    server.enqueue({ status: 400, body: { error: { message: 'bad schema' } } }, { reply: good });
    const out = await provider(wire).call(ask);
    expect(out).toMatchObject({ ok: false, error: { code: 'http_error', status: 400 } });
    expect(server.requests).toHaveLength(1);
  });

  it('times out a server that never answers, retries, and succeeds when it answers', async () => {
    server.enqueue({ hang: 'headers' }, { reply: good });
    const out = await provider(wire, { config: { timeoutMs: 400, retry: { baseDelayMs: 1 } } }).call(ask);
    expect(out.ok).toBe(true);
    expect(out.record.attempts.map((a) => [a.outcome, a.error])).toEqual([
      ['retry', 'timeout'],
      ['reply', null],
    ]);
    expect(out.record.attempts[0]!.durationMs).toBeGreaterThanOrEqual(390);
  });

  it('times out a body that stalls half-way (not only missing headers)', async () => {
    server.enqueue({ hang: 'body' });
    const p = provider(wire, { config: { timeoutMs: 300, retry: { maxRetries: 0 } } });
    const out = await p.call(ask);
    expect(out).toMatchObject({ ok: false, error: { code: 'timeout' } });
  });

  it('with retryTimeouts off, one timeout is the failure', async () => {
    server.enqueue({ hang: 'headers' }, { reply: good });
    const p = provider(wire, { config: { timeoutMs: 200, retry: { retryTimeouts: false, baseDelayMs: 1 } } });
    const out = await p.call(ask);
    expect(out).toMatchObject({ ok: false, error: { code: 'timeout' } });
    expect(out.record.attempts).toHaveLength(1);
  });

  it('retries a truncated HTTP body as a malformed response', async () => {
    server.enqueue({ rawBody: '{"id":"x","choices":[{"index":0,"mess' }, { reply: good });
    const out = await provider(wire).call(ask);
    expect(out.ok).toBe(true);
    expect(out.record.attempts.map((a) => [a.outcome, a.error])).toEqual([
      ['retry', 'malformed_response'],
      ['reply', null],
    ]);
  });

  it('a reply that is not the wire format is a malformed response', async () => {
    server.enqueue(...Array.from({ length: 3 }, () => ({ rawBody: '{"unexpected":true}' })));
    const out = await provider(wire).call(ask);
    expect(out).toMatchObject({ ok: false, error: { code: 'malformed_response' } });
  });

  it('repairs malformed JSON output once, sending the problems back', async () => {
    server.enqueue(
      { replyText: '{"answer": "yes", "score": ', finish: wire === 'openai' ? 'length' : 'max_tokens' },
      { reply: good },
    );
    const out = await provider(wire).call(ask);
    expect(out.ok).toBe(true);
    expect(out.record.repaired).toBe(true);
    expect(out.record.attempts.map((a) => a.phase)).toEqual(['initial', 'repair']);
    const repair = server.requests[1]!.body.messages;
    const last = repair.at(-1);
    expect(repair.at(-2)).toMatchObject({ role: 'assistant', content: '{"answer": "yes", "score":' });
    expect(last.role).toBe('user');
    expect(last.content).toMatch(/not valid JSON/);
    expect(last.content).toMatch(/cut off/);
  });

  it('a schema-invalid reply, twice, is a recorded invalid_output with the issues', async () => {
    server.enqueue({ reply: { answer: '', score: 3 } }, { reply: { answer: 'ok' } });
    const out = await provider(wire).call(ask);
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.error.code).toBe('invalid_output');
    expect(out.error.issues.join('\n')).toMatch(/score/);
    expect(server.requests[1]!.body.messages.at(-1).content).toMatch(/answer: Too small|answer:/);
    expect(out.record.attempts.map((a) => [a.phase, a.outcome])).toEqual([
      ['initial', 'reply'],
      ['repair', 'reply'],
    ]);
    expect(out.record.usage.outputTokens).toBeGreaterThan(0); // both replies are paid for
  });

  it('never puts the key in a record or an error, even when the server echoes it', async () => {
    server.enqueue({ echoAuth: true });
    const p = provider(wire);
    const out = await p.call(ask);
    expect(out).toMatchObject({ ok: false, error: { code: 'auth', status: 401 } });
    if (out.ok) return;
    expect(out.error.message).toContain('[redacted]');
    expect(JSON.stringify(out)).not.toContain(KEY);
    expect(JSON.stringify(p)).not.toContain(KEY);
    expect(String(out.error.message)).not.toContain('0123456789abcdef');
  });

  it('cancels an in-flight call with the AbortSignal', async () => {
    server.enqueue({ hang: 'headers' });
    const ctl = new AbortController();
    // No timeout before the test's own: only the abort can end this call.
    const p = provider(wire, { config: { timeoutMs: 3_600_000 } });
    const call = p.call({ ...ask, signal: ctl.signal });
    // Abort once the server holds the request: aborted earlier, it could reach the server during
    // the next test and take that test's queued answer.
    await received(1);
    ctl.abort();
    const out = await call;
    expect(out).toMatchObject({ ok: false, error: { code: 'aborted' } });
    const before = server.requests.length;
    const again = await p.call({ ...ask, signal: ctl.signal });
    expect(again).toMatchObject({ ok: false, error: { code: 'aborted' } });
    expect(server.requests).toHaveLength(before);
  });

  it('cancels during a retry wait', async () => {
    server.enqueue({ status: 429, headers: { 'retry-after': '30' } });
    const ctl = new AbortController();
    const p = provider(wire, { config: { retry: { maxRetries: 2 } } });
    const call = p.call({ ...ask, signal: ctl.signal });
    await received(1);
    ctl.abort();
    const out = await call;
    expect(out).toMatchObject({ ok: false, error: { code: 'aborted' } });
  });

  it('a retry-after beyond the cap fails the call instead of waiting', async () => {
    server.enqueue({ status: 429, headers: { 'retry-after': '3600' } });
    const out = await provider(wire).call(ask);
    expect(out).toMatchObject({ ok: false, error: { code: 'rate_limited' } });
    if (!out.ok) expect(out.error.message).toMatch(/exceeds/);
  });

  it('enforces seat budgets before calling and caps the output tokens to what is left', async () => {
    const budget = new Budget({ seat: { maxTokens: 3000 }, room: { maxCalls: 3 } });
    server.respond(() => ({ reply: good, usage: { input: 1500, output: 500 } }));
    const p = provider(wire, { budget });
    expect((await p.call({ ...ask, seat: 'a' })).ok).toBe(true);
    expect(budget.spent('a')).toEqual({ tokens: 2000, costUsd: 0.012, calls: 1 });
    // 1000 tokens left for seat a: the cap sent is what remains after the input estimate.
    const second = await p.call({ ...ask, seat: 'a' });
    const field = wire === 'openai' ? 'max_completion_tokens' : 'max_tokens';
    expect(server.requests[1]!.body[field]).toBeLessThan(1000);
    expect(second.ok).toBe(true);
    const third = await p.call({ ...ask, seat: 'a' });
    expect(third).toMatchObject({ ok: false, error: { code: 'budget_exceeded' } });
    expect(server.requests).toHaveLength(2);
    expect((await p.call({ ...ask, seat: 'b' })).ok).toBe(true); // another seat has its own budget
    const fourth = await p.call({ ...ask, seat: 'c' }); // but the room allows three calls
    expect(fourth).toMatchObject({ ok: false, error: { code: 'budget_exceeded' } });
    if (!fourth.ok) expect(fourth.error.message).toMatch(/room budget: 3 call/);
  });

  it('a cost budget without a price for the model is refused, not ignored', async () => {
    server.enqueue({ reply: good });
    const p = provider(wire, {
      config: { prices: {}, retry: { baseDelayMs: 1 } },
      budget: new Budget({ room: { maxCostUsd: 1 } }),
    });
    const out = await p.call(ask);
    expect(out).toMatchObject({ ok: false, error: { code: 'budget_exceeded' } });
    expect(out.record.costUsd).toBeNull();
    expect(server.requests).toHaveLength(0);
  });
});

describe('openai-compatible structured-output modes', () => {
  it('tool mode forces one function tool and reads its arguments', async () => {
    server.enqueue({ reply: good });
    const p = provider('openai', { env: { OPENAI_API_KEY: KEY, DB8_STRUCTURED_OUTPUT: 'tool' } });
    const out = await p.call(ask);
    expect(out).toMatchObject({ ok: true, value: good });
    const body = server.requests[0]!.body;
    expect(body.response_format).toBeUndefined();
    expect(body.tools[0].function).toMatchObject({ name: 'answer', strict: true });
    expect(body.tool_choice).toEqual({ type: 'function', function: { name: 'answer' } });
  });

  it('json_object mode puts the schema in the system prompt; a fenced reply still parses', async () => {
    server.enqueue({ replyText: '```json\n{"answer":"fenced","score":0.5}\n```' });
    const p = provider('openai', { env: { OPENAI_API_KEY: KEY, DB8_STRUCTURED_OUTPUT: 'json_object' } });
    const out = await p.call(ask);
    expect(out).toMatchObject({ ok: true, value: { answer: 'fenced', score: 0.5 } });
    const body = server.requests[0]!.body;
    expect(body.response_format).toEqual({ type: 'json_object' });
    expect(body.messages[0].content).toContain('"required":["answer","score"]');
  });

  it('a local server with no key configured still works (vLLM / Ollama / llama.cpp)', async () => {
    server.enqueue({ reply: good });
    const p = createProvider({ provider: 'ollama', model: 'llama3', baseUrl: server.openaiBaseUrl, env: {} });
    const out = await p.call(ask);
    expect(out.ok).toBe(true);
    expect(out.record).toMatchObject({ profile: 'ollama', provider: 'openai', costUsd: null });
    expect(server.requests[0]!.body.max_tokens).toBe(2048);
  });

  it('a refused connection is a network error after retries', async () => {
    const dead = await ModelServer.start();
    const url = dead.openaiBaseUrl;
    await dead.close();
    const p = createProvider({
      provider: 'openai',
      model: 'm',
      baseUrl: url,
      env: {},
      config: { retry: { maxRetries: 1, baseDelayMs: 1 } },
    });
    const out = await p.call(ask);
    expect(out).toMatchObject({ ok: false, error: { code: 'network' } });
    expect(out.record.attempts).toHaveLength(2);
  });
});
