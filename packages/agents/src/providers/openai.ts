import type OpenAI from 'openai';
import type { Transport } from './call.ts';
import { withDeadline } from './deadline.ts';
import { codeForStatus, retryAfterMs, TransportError } from './errors.ts';
import type { WireReply, WireRequest } from './types.ts';

/**
 * OpenAI-compatible chat completions through the official `openai` SDK (v6: Node 20). One
 * adapter covers OpenAI, OpenRouter, vLLM, Ollama and llama.cpp: they differ in base URL, key and
 * which structured-output mechanism they honour:
 *   json_schema — `response_format: { type: 'json_schema', json_schema: { name, schema, strict } }`
 *   tool        — one function tool, forced with `tool_choice`
 *   json_object — `response_format: { type: 'json_object' }`, schema given in the system prompt
 * The SDK's own retries are off (maxRetries 0): the call pipeline retries, so it can record them.
 */

export type OpenAIStructuredMode = 'json_schema' | 'tool' | 'json_object';

export interface OpenAITransportOptions {
  baseUrl: string;
  apiKey: string | null;
  model: string;
  mode: OpenAIStructuredMode;
  /** `max_completion_tokens` (OpenAI's current name) or `max_tokens` (most compatible servers). */
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  headers?: Record<string, string>;
  fetch?: typeof fetch;
}

type Body = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;

export function schemaInstruction(req: WireRequest): string {
  return `\n\nReply with one JSON object only, matching this JSON Schema (${req.schemaName}):\n${JSON.stringify(req.jsonSchema)}`;
}

export class OpenAITransport implements Transport {
  readonly kind = 'openai' as const;
  readonly model: string;
  readonly #opts: OpenAITransportOptions;
  #client: Promise<OpenAI> | null = null;
  readonly #mode: OpenAIStructuredMode;
  readonly #maxTokensField: OpenAITransportOptions['maxTokensField'];

  constructor(opts: OpenAITransportOptions) {
    this.model = opts.model;
    this.#opts = opts;
    this.#mode = opts.mode;
    this.#maxTokensField = opts.maxTokensField;
  }

  // The SDK (about 150 modules) loads on the first call, not with every process that could call.
  #sdk(): Promise<OpenAI> {
    const opts = this.#opts;
    this.#client ??= import('openai').then(
      ({ default: OpenAI }) =>
        new OpenAI({
          // Local servers (Ollama, llama.cpp, vLLM) need no key; the SDK insists on one, so send a placeholder.
          apiKey: opts.apiKey ?? 'no-key',
          baseURL: opts.baseUrl,
          maxRetries: 0,
          logLevel: 'off',
          defaultHeaders: opts.headers,
          ...(opts.fetch ? { fetch: opts.fetch } : {}),
        }),
    );
    return this.#client;
  }

  body(req: WireRequest): Body {
    const system = this.#mode === 'json_object' ? req.system + schemaInstruction(req) : req.system;
    const body: Body = {
      model: this.model,
      messages: [{ role: 'system', content: system }, ...req.messages],
      [this.#maxTokensField]: req.maxOutputTokens,
    };
    if (req.temperature !== null) body.temperature = req.temperature;
    if (this.#mode === 'json_schema') {
      body.response_format = {
        type: 'json_schema',
        json_schema: {
          name: req.schemaName,
          description: req.description,
          schema: req.jsonSchema,
          strict: req.strict,
        },
      };
    } else if (this.#mode === 'tool') {
      body.tools = [
        {
          type: 'function',
          function: {
            name: req.schemaName,
            description: req.description,
            parameters: req.jsonSchema,
            strict: req.strict,
          },
        },
      ];
      body.tool_choice = { type: 'function', function: { name: req.schemaName } };
    } else {
      body.response_format = { type: 'json_object' };
    }
    return body;
  }

  async send(req: WireRequest, ctx: { signal: AbortSignal; timeoutMs: number }): Promise<WireReply> {
    const { data, response } = await withDeadline(ctx.signal, ctx.timeoutMs, async (signal) =>
      (await this.#sdk()).chat.completions
        .create(this.body(req), { signal, timeout: ctx.timeoutMs })
        .withResponse(),
    ).catch((e: unknown) => {
      throw toTransportError(e);
    });
    const choice = Array.isArray(data?.choices) ? data.choices[0] : undefined;
    if (!choice || typeof choice !== 'object' || !choice.message) {
      throw new TransportError('malformed_response', 'the reply has no choices[0].message', response.status);
    }
    const msg = choice.message;
    const toolArgs = msg.tool_calls?.find((c) => c.type === 'function')?.function?.arguments;
    const text =
      this.#mode === 'tool' ? (toolArgs ?? msg.content ?? null) : (msg.content ?? toolArgs ?? null);
    const finish = choice.finish_reason === 'tool_calls' ? 'tool' : (choice.finish_reason ?? null);
    return {
      text: typeof text === 'string' ? text : null,
      usage: {
        inputTokens: nonNegInt(data.usage?.prompt_tokens),
        outputTokens: nonNegInt(data.usage?.completion_tokens),
      },
      finish,
      status: response.status,
    };
  }
}

export function nonNegInt(x: unknown): number {
  return typeof x === 'number' && Number.isFinite(x) && x > 0 ? Math.round(x) : 0;
}

/** SDK / fetch errors → TransportError. Works for both SDKs (same generated error classes). */
export function toTransportError(e: unknown): unknown {
  if (e instanceof TransportError) return e;
  const err = e as { name?: string; status?: unknown; headers?: Headers; message?: string; cause?: unknown };
  if (e instanceof SyntaxError)
    return new TransportError('malformed_response', `unreadable JSON body: ${e.message}`);
  const name = err?.constructor?.name ?? err?.name ?? '';
  if (name === 'APIUserAbortError') return e; // the pipeline sees the caller's signal
  if (name === 'APIConnectionTimeoutError') return new TransportError('timeout', 'request timed out');
  if (typeof err?.status === 'number') {
    const status = err.status;
    return new TransportError(
      codeForStatus(status),
      err.message ?? `HTTP ${status}`,
      status,
      retryAfterMs(err.headers, Date.now()),
    );
  }
  if (name === 'APIConnectionError') {
    const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
    if (err.cause instanceof SyntaxError)
      return new TransportError('malformed_response', `unreadable JSON body${cause}`);
    return new TransportError('network', `${err.message ?? 'connection error'}${cause}`);
  }
  return new TransportError('network', err?.message ?? String(e));
}
