import type Anthropic from '@anthropic-ai/sdk';
import type { Transport } from './call.ts';
import { withDeadline } from './deadline.ts';
import { TransportError } from './errors.ts';
import { nonNegInt, toTransportError } from './openai.ts';
import type { WireReply, WireRequest } from './types.ts';

/**
 * The Anthropic Messages API through the official `@anthropic-ai/sdk`. Structured output is one
 * tool whose `input_schema` is the request's JSON Schema, forced with `tool_choice: { type: 'tool' }`;
 * the reply is that tool_use block's input (or, failing that, JSON in a text block). SDK 1.x has no
 * sampling parameters, so `temperature` is not sent.
 */

export interface AnthropicTransportOptions {
  baseUrl: string;
  apiKey: string | null;
  model: string;
  headers?: Record<string, string>;
  fetch?: typeof fetch;
}

type Body = Anthropic.Messages.MessageCreateParamsNonStreaming;

const STOP: Record<string, string> = {
  end_turn: 'stop',
  max_tokens: 'length',
  tool_use: 'tool',
  stop_sequence: 'stop',
};

export class AnthropicTransport implements Transport {
  readonly kind = 'anthropic' as const;
  readonly model: string;
  readonly #opts: AnthropicTransportOptions;
  #client: Promise<Anthropic> | null = null;

  constructor(opts: AnthropicTransportOptions) {
    this.model = opts.model;
    this.#opts = opts;
  }

  // The SDK (about 300 modules with its tracing) loads on the first call, not with every process.
  #sdk(): Promise<Anthropic> {
    const opts = this.#opts;
    this.#client ??= import('@anthropic-ai/sdk').then(
      ({ default: Anthropic }) =>
        new Anthropic({
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
    const body: Body = {
      model: this.model,
      max_tokens: req.maxOutputTokens,
      system: req.system,
      messages: req.messages,
      tools: [
        {
          name: req.schemaName,
          description: req.description,
          input_schema: req.jsonSchema as Anthropic.Messages.Tool.InputSchema,
        },
      ],
      tool_choice: { type: 'tool', name: req.schemaName },
    };
    return body;
  }

  async send(req: WireRequest, ctx: { signal: AbortSignal; timeoutMs: number }): Promise<WireReply> {
    const { data, response } = await withDeadline(ctx.signal, ctx.timeoutMs, async (signal) =>
      (await this.#sdk()).messages.create(this.body(req), { signal, timeout: ctx.timeoutMs }).withResponse(),
    ).catch((e: unknown) => {
      throw toTransportError(e);
    });
    if (!data || typeof data !== 'object' || !Array.isArray(data.content)) {
      throw new TransportError('malformed_response', 'the reply has no content array', response.status);
    }
    const tool = data.content.find((b) => b.type === 'tool_use' && b.name === req.schemaName);
    const textBlock = data.content.find((b) => b.type === 'text');
    let text: string | null = null;
    if (tool && tool.type === 'tool_use') text = JSON.stringify(tool.input);
    else if (textBlock && textBlock.type === 'text') text = textBlock.text;
    return {
      text,
      usage: {
        inputTokens: nonNegInt(data.usage?.input_tokens),
        outputTokens: nonNegInt(data.usage?.output_tokens),
      },
      finish: data.stop_reason ? (STOP[data.stop_reason] ?? data.stop_reason) : null,
      status: response.status,
    };
  }
}
