// The pure parts of the pipeline: budgets, prices, retry-after, backoff, JSON Schema, reply parsing,
// and the scripted provider (always labelled scripted).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Budget,
  backoffMs,
  costOf,
  createProvider,
  isStrictCompatible,
  parseReply,
  priceFor,
  RetryPolicySchema,
  retryAfterMs,
  toWireSchema,
} from '../src/index.ts';

const S = z.object({ a: z.string(), n: z.number().int() }).strict();

describe('budgets', () => {
  it('reserves the worst case, then settles to real usage', () => {
    const b = new Budget({ seat: { maxTokens: 1200 } });
    const r1 = b.reserve('s', 100, 800, null);
    expect(r1).toMatchObject({ ok: true, maxOutputTokens: 800 });
    // While r1 is held, only 1200 − 900 − 50 tokens remain for another concurrent attempt.
    expect(b.reserve('s', 50, 800, null)).toMatchObject({ ok: true, maxOutputTokens: 250 });
    // Below MIN_OUTPUT_TOKENS left, an attempt is refused rather than sent with a useless cap.
    expect(b.reserve('s', 250, 800, null)).toMatchObject({ ok: false });
    if (r1.ok) r1.settle({ inputTokens: 90, outputTokens: 10 }, null);
    expect(b.spent('s').tokens).toBe(100);
    if (r1.ok) r1.settle({ inputTokens: 999, outputTokens: 999 }, null); // settling twice is a no-op
    expect(b.spent('s').tokens).toBe(100);
  });

  it('per-seat overrides beat the default seat limit; the room limit spans seats', () => {
    const b = new Budget({
      room: { maxTokens: 500 },
      seat: { maxTokens: 200 },
      seats: { judge: { maxTokens: 400 } },
    });
    expect(b.reserve('critic', 50, 1000, null)).toMatchObject({ ok: true, maxOutputTokens: 150 });
    // judge: its own 400 − 50 = 350, but the room has 500 − 200 (held for critic) − 50 = 250 left.
    expect(b.reserve('judge', 50, 1000, null)).toMatchObject({ ok: true, maxOutputTokens: 250 });
    expect(b.reserve('analyst', 50, 1000, null)).toMatchObject({ ok: false });
  });

  it('cost limits use the price per token and refuse without a price', () => {
    const b = new Budget({ room: { maxCostUsd: 0.01 } });
    const price = { input: 1e-6, output: 1e-5 };
    expect(b.reserve(null, 1000, 5000, price)).toMatchObject({ ok: true, maxOutputTokens: 900 });
    expect(b.reserve(null, 10, 100, null)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/no price/),
    });
  });

  it('call limits count logical calls and can be refunded', () => {
    const b = new Budget({ seat: { maxCalls: 1 } });
    expect(b.startCall('x')).toEqual({ ok: true });
    expect(b.startCall('x')).toMatchObject({ ok: false });
    b.refundCall('x');
    expect(b.startCall('x')).toEqual({ ok: true });
    expect(Budget.unlimited().startCall(null)).toEqual({ ok: true });
  });
});

describe('prices, retry-after and backoff', () => {
  it('prices match exactly, else by the longest prefix', () => {
    const t = {
      'gpt-*': { inputPerMTok: 1, outputPerMTok: 1 },
      'gpt-4o-*': { inputPerMTok: 2.5, outputPerMTok: 10 },
      m: { inputPerMTok: 0, outputPerMTok: 0 },
    };
    expect(priceFor(t, 'gpt-4o-2024')).toEqual(t['gpt-4o-*']);
    expect(priceFor(t, 'gpt-5')).toEqual(t['gpt-*']);
    expect(priceFor(t, 'claude')).toBeNull();
    expect(costOf(t, 'gpt-4o-mini', { inputTokens: 1_000_000, outputTokens: 100_000 })).toBe(3.5);
    expect(costOf(t, 'm', { inputTokens: 5, outputTokens: 5 })).toBe(0);
    expect(costOf(t, 'x', { inputTokens: 5, outputTokens: 5 })).toBeNull();
  });

  it('reads retry-after-ms, retry-after seconds and HTTP dates', () => {
    const h = (o: Record<string, string>) => new Headers(o);
    expect(retryAfterMs(h({ 'retry-after-ms': '250' }), 0)).toBe(250);
    expect(retryAfterMs(h({ 'retry-after': '2' }), 0)).toBe(2000);
    expect(retryAfterMs(h({ 'retry-after': new Date(10_000).toUTCString() }), 4_000)).toBe(6_000);
    expect(retryAfterMs(h({ 'retry-after': 'soon' }), 0)).toBeNull();
    expect(retryAfterMs(h({}), 0)).toBeNull();
  });

  it('backs off exponentially with bounded jitter and a cap', () => {
    const p = RetryPolicySchema.parse({ baseDelayMs: 100, maxDelayMs: 1000 });
    expect(backoffMs(p, 1, () => 0.5)).toBe(100);
    expect(backoffMs(p, 3, () => 0.5)).toBe(400);
    expect(backoffMs(p, 3, () => 0)).toBe(300);
    expect(backoffMs(p, 3, () => 1)).toBe(500);
    expect(backoffMs(p, 10, () => 0.5)).toBe(1000);
  });
});

describe('JSON Schema and reply parsing', () => {
  it('drops $schema and tells strict-compatible schemas apart', () => {
    const { jsonSchema, strict } = toWireSchema(S);
    expect(jsonSchema.$schema).toBeUndefined();
    expect(jsonSchema).toMatchObject({ type: 'object', required: ['a', 'n'], additionalProperties: false });
    expect(strict).toBe(true);
    expect(toWireSchema(z.object({ a: z.string().optional() }).strict()).strict).toBe(false);
    expect(toWireSchema(z.looseObject({ a: z.string() })).strict).toBe(false); // not closed
    expect(
      isStrictCompatible({
        type: 'object',
        properties: { x: { type: 'object', properties: {} } },
        required: ['x'],
        additionalProperties: false,
      }),
    ).toBe(false);
  });

  it('parses strictly: duplicate keys and schema violations are issues, fences are tolerated', () => {
    expect(parseReply('{"a":"x","n":1}', S, 'stop')).toEqual({ ok: true, value: { a: 'x', n: 1 } });
    expect(parseReply('```json\n{"a":"x","n":1}\n```', S, 'stop')).toMatchObject({ ok: true });
    expect(parseReply('{"a":"x","a":"y","n":1}', S, 'stop')).toMatchObject({
      ok: false,
      issues: [expect.stringMatching(/not valid JSON/)],
    });
    expect(parseReply('{"a":"x","n":1.5}', S, 'stop')).toMatchObject({
      ok: false,
      issues: [expect.stringMatching(/^n: /)],
    });
    expect(parseReply('{"a":"x"', S, 'length')).toMatchObject({
      ok: false,
      issues: [expect.stringMatching(/cut off/)],
    });
    expect(parseReply(null, S, 'tool')).toMatchObject({
      ok: false,
      issues: ['no JSON in the reply (finish: tool)'],
    });
  });
});

describe('scripted provider', () => {
  const ask = { schemaName: 's', schema: S, system: 'sys', prompt: 'p' };

  it('runs the same pipeline and labels everything it produces as scripted', async () => {
    const p = createProvider({
      provider: 'scripted',
      model: 'demo',
      script: [{ text: 'oops' }, { json: { a: 'x', n: 2 } }],
    });
    const out = await p.call({ ...ask, seat: 'judge' });
    expect(out).toMatchObject({ ok: true, value: { a: 'x', n: 2 } });
    expect(out.record).toMatchObject({
      provider: 'scripted',
      model: 'scripted:demo',
      scripted: true,
      endpoint: null,
      repaired: true,
      costUsd: null,
    });
    expect(out.record.usage.outputTokens).toBeGreaterThan(0);
    expect(p.toJSON()).toEqual({
      kind: 'scripted',
      profile: 'scripted',
      model: 'scripted:demo',
      endpoint: null,
      scripted: true,
    });
  });

  it('scripted failures are retried like real ones, and an exhausted script is a recorded failure', async () => {
    const p = createProvider({
      script: [
        { fail: 'rate_limited', status: 429, retryAfterMs: 1 },
        { fail: 'server_error', status: 500 },
      ],
      config: { retry: { baseDelayMs: 1 } },
    });
    const out = await p.call(ask);
    expect(out).toMatchObject({ ok: false, error: { code: 'script_exhausted' } });
    expect(out.record.attempts.map((a) => a.error)).toEqual([
      'rate_limited',
      'server_error',
      'script_exhausted',
    ]);
  });

  it('a script function sees the request (schema name, messages)', async () => {
    const p = createProvider({ script: (req) => ({ json: { a: req.schemaName, n: req.messages.length } }) });
    expect(await p.call(ask)).toMatchObject({ ok: true, value: { a: 's', n: 1 } });
  });
});
