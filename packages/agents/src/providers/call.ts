import { JsonError, parseJson, truncateCodePoints } from '@db8/core';
import type { z } from 'zod';
import type { Budget } from './budget.ts';
import { TransportError } from './errors.ts';
import { toWireSchema } from './json-schema.ts';
import { costOf, type PriceTable, priceFor } from './pricing.ts';
import type { Redactor } from './redact.ts';
import { backoffMs, type RetryPolicy, sleep } from './retry.ts';
import type {
  Attempt,
  CallError,
  CallErrorCode,
  CallOutcome,
  CallRecord,
  ProviderKind,
  StructuredRequest,
  Usage,
  WireMessage,
  WireReply,
  WireRequest,
} from './types.ts';

/**
 * The one call pipeline every provider runs: budget → attempt (with retries and backoff on 429,
 * 5xx, timeouts, network errors and malformed bodies) → parse + validate → one repair attempt on
 * an invalid reply → a recorded failure. It never throws for a failed call and never invents a value.
 */

export interface Transport {
  readonly kind: ProviderKind;
  readonly model: string;
  /** One HTTP attempt. Throws TransportError (anything else is treated as a network error). */
  send(request: WireRequest, ctx: { signal: AbortSignal; timeoutMs: number }): Promise<WireReply>;
}

export interface CallSettings {
  profile: string;
  endpoint: string | null;
  scripted: boolean;
  timeoutMs: number;
  retry: RetryPolicy;
  maxOutputTokens: number;
  temperature: number | null;
  prices: PriceTable;
  budget: Budget;
  redactor: Redactor;
  clock: () => number;
  random?: () => number;
}

const MAX_ISSUES = 20;

/** Strip one surrounding Markdown code fence: some models wrap JSON in ```json … ```. */
function unfence(text: string): string {
  const m = /^\s*```[a-zA-Z]*\s*\n([\s\S]*?)\n?```\s*$/.exec(text);
  return m ? m[1]! : text;
}

export function parseReply<T>(
  text: string | null,
  schema: z.ZodType<T>,
  finish: string | null,
): { ok: true; value: T } | { ok: false; issues: string[] } {
  if (text === null || text.trim() === '')
    return { ok: false, issues: [`no JSON in the reply (finish: ${finish ?? 'unknown'})`] };
  let json: unknown;
  try {
    json = parseJson(unfence(text));
  } catch (e) {
    const why = e instanceof JsonError ? e.message : String(e);
    const cut = finish === 'length' ? ' (the reply was cut off at the output token limit)' : '';
    return { ok: false, issues: [`not valid JSON: ${why}${cut}`] };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data };
  return {
    ok: false,
    issues: parsed.error.issues
      .slice(0, MAX_ISSUES)
      .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`),
  };
}

export function repairPrompt(schemaName: string, issues: readonly string[]): string {
  return [
    `Your previous reply is not a valid \`${schemaName}\` object. Problems:`,
    ...issues.map((i) => `- ${i}`),
    'Reply again with only the corrected JSON object that matches the schema — no prose, no code fence. Be brief enough to finish.',
  ].join('\n');
}

export async function structuredCall<T>(
  transport: Transport,
  settings: CallSettings,
  req: StructuredRequest<T>,
): Promise<CallOutcome<T>> {
  const { clock, redactor, budget, retry } = settings;
  const startedAt = clock();
  const seat = req.seat ?? null;
  const attempts: Attempt[] = [];
  const usage: Usage = { inputTokens: 0, outputTokens: 0 };
  const price = priceFor(settings.prices, transport.model);
  const perToken = price ? { input: price.inputPerMTok / 1e6, output: price.outputPerMTok / 1e6 } : null;
  let repaired = false;

  const record = (ok: boolean, error: CallError | null): CallRecord => ({
    provider: transport.kind,
    profile: settings.profile,
    model: transport.model,
    endpoint: settings.endpoint,
    scripted: settings.scripted,
    schemaName: req.schemaName,
    seat,
    startedAt,
    durationMs: Math.max(0, Math.round(clock() - startedAt)),
    attempts,
    usage: { ...usage },
    costUsd: costOf(settings.prices, transport.model, usage),
    repaired,
    ok,
    error,
  });
  const fail = (
    code: CallErrorCode,
    message: string,
    status: number | null = null,
    issues: string[] = [],
  ) => {
    const error: CallError = {
      code,
      message: truncateCodePoints(redactor.redact(message), 2000),
      status,
      issues: issues.map((i) => truncateCodePoints(redactor.redact(i), 500)),
    };
    return { ok: false as const, error, record: record(false, error) };
  };

  if (req.signal?.aborted) return fail('aborted', 'cancelled before the call');
  const started = budget.startCall(seat);
  if (!started.ok) return fail('budget_exceeded', started.message);

  const { jsonSchema, strict } = toWireSchema(req.schema);
  const schemaText = JSON.stringify(jsonSchema);
  const signal = req.signal ?? new AbortController().signal;
  const wantOutput = req.maxOutputTokens ?? settings.maxOutputTokens;

  type Sent = { reply: WireReply } | { error: ReturnType<typeof fail> };

  const attemptAll = async (phase: Attempt['phase'], messages: WireMessage[]): Promise<Sent> => {
    const chars = req.system.length + schemaText.length + messages.reduce((s, m) => s + m.content.length, 0);
    // ~3 characters per token overestimates for English and JSON, which is the safe side for a budget.
    const inputEstimate = Math.ceil(chars / 3);
    for (let n = 1; ; n++) {
      if (signal.aborted) return { error: fail('aborted', 'cancelled') };
      const hold = budget.reserve(seat, inputEstimate, wantOutput, perToken);
      if (!hold.ok) {
        if (attempts.length === 0) budget.refundCall(seat);
        return { error: fail('budget_exceeded', hold.message) };
      }
      const t0 = clock();
      const wire: WireRequest = {
        system: req.system,
        messages,
        schemaName: req.schemaName,
        description: req.description ?? `Reply with one ${req.schemaName} object.`,
        jsonSchema,
        strict,
        maxOutputTokens: hold.maxOutputTokens,
        temperature: settings.temperature,
      };
      try {
        const reply = await transport.send(wire, { signal, timeoutMs: settings.timeoutMs });
        hold.settle(
          reply.usage,
          perToken
            ? reply.usage.inputTokens * perToken.input + reply.usage.outputTokens * perToken.output
            : null,
        );
        usage.inputTokens += reply.usage.inputTokens;
        usage.outputTokens += reply.usage.outputTokens;
        attempts.push({
          phase,
          n,
          status: reply.status,
          outcome: 'reply',
          error: null,
          durationMs: Math.max(0, Math.round(clock() - t0)),
          waitMs: null,
          usage: reply.usage,
          finish: reply.finish,
        });
        return { reply };
      } catch (e) {
        hold.settle(null, null);
        if (signal.aborted) {
          attempts.push(failedAttempt(phase, n, null, 'aborted', clock() - t0, null));
          return { error: fail('aborted', 'cancelled during the call') };
        }
        const te =
          e instanceof TransportError ? e : new TransportError('network', (e as Error)?.message ?? String(e));
        const tooLong = te.retryAfterMs !== null && te.retryAfterMs > retry.maxRetryAfterMs;
        const again =
          te.retryable && n <= retry.maxRetries && !tooLong && (te.code !== 'timeout' || retry.retryTimeouts);
        const wait = again ? (te.retryAfterMs ?? backoffMs(retry, n, settings.random)) : null;
        attempts.push(failedAttempt(phase, n, te.status, te.code, clock() - t0, wait, again));
        if (!again) {
          const note = tooLong
            ? ` (retry-after ${te.retryAfterMs} ms exceeds the ${retry.maxRetryAfterMs} ms cap)`
            : '';
          const tries = n > 1 ? ` after ${n} attempts` : '';
          return { error: fail(te.code, `${te.message}${tries}${note}`, te.status) };
        }
        try {
          await sleep(wait!, signal);
        } catch {
          return { error: fail('aborted', 'cancelled while waiting to retry') };
        }
      }
    }
  };

  let messages: WireMessage[] = [{ role: 'user', content: req.prompt }];
  for (const phase of ['initial', 'repair'] as const) {
    const sent = await attemptAll(phase, messages);
    if ('error' in sent) return sent.error;
    const parsed = parseReply(sent.reply.text, req.schema, sent.reply.finish);
    if (parsed.ok) {
      repaired = phase === 'repair';
      return { ok: true, value: parsed.value, record: record(true, null) };
    }
    if (phase === 'repair') {
      return fail(
        'invalid_output',
        `the reply was invalid, and so was the repair: ${parsed.issues[0]}`,
        null,
        parsed.issues,
      );
    }
    messages = [
      ...messages,
      { role: 'assistant', content: sent.reply.text?.trim() || '(empty reply)' },
      { role: 'user', content: repairPrompt(req.schemaName, parsed.issues) },
    ];
  }
  /* c8 ignore next */
  throw new Error('unreachable');
}

function failedAttempt(
  phase: Attempt['phase'],
  n: number,
  status: number | null,
  error: CallErrorCode,
  ms: number,
  waitMs: number | null,
  retry = false,
): Attempt {
  return {
    phase,
    n,
    status,
    outcome: retry ? 'retry' : 'error',
    error,
    durationMs: Math.max(0, Math.round(ms)),
    waitMs: waitMs === null ? null : Math.round(waitMs),
    usage: null,
    finish: null,
  };
}
