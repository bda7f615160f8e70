import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A real local model server for tests and benchmarks: node:http on an ephemeral port, speaking
 * both wire formats — OpenAI chat completions (`POST /v1/chat/completions`: plain content,
 * `response_format` json_schema/json_object, forced function tools) and Anthropic messages
 * (`POST /v1/messages`: forced tool_use). Each test scripts it: queued steps are served in order,
 * then the `respond` handler (if any). Steps cover replies, HTTP errors with retry-after, hangs
 * (before headers or mid-body), truncated and malformed bodies, and schema-invalid output.
 */

export type Wire = 'openai' | 'anthropic';

export interface RecordedRequest {
  wire: Wire;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  // biome-ignore lint/suspicious/noExplicitAny: request bodies are inspected freely by tests.
  body: any;
}

export type ServerStep =
  /** The model "produces" this value: encoded as tool arguments / tool_use input or message content. */
  | { reply: unknown; finish?: string; usage?: { input: number; output: number } }
  /** The model produces this raw text (malformed or truncated JSON, prose…). */
  | { replyText: string; finish?: string }
  /** An HTTP error, with optional headers (retry-after…) and body. */
  | { status: number; headers?: Record<string, string>; body?: unknown }
  /** Never answer (`headers`), or send headers and half a body, then stall (`body`). */
  | { hang: 'headers' | 'body' }
  /** A raw HTTP body, e.g. truncated JSON with a 200 and a JSON content type. */
  | { rawBody: string; status?: number; contentType?: string }
  /** An auth failure whose message echoes the credential it received (as some servers do). */
  | { echoAuth: true };

export type Responder = (req: RecordedRequest) => ServerStep | Promise<ServerStep>;

function tokens(s: string): number {
  return Math.max(1, Math.ceil(s.length / 4));
}

function credential(req: RecordedRequest): string {
  const auth = req.headers.authorization;
  const key = req.headers['x-api-key'];
  return String((typeof auth === 'string' ? auth.replace(/^Bearer /, '') : key) ?? '');
}

export class ModelServer {
  readonly requests: RecordedRequest[] = [];
  readonly #queue: ServerStep[] = [];
  #responder: Responder | null = null;
  readonly #sockets = new Set<Socket>();
  #n = 0;

  private constructor(
    readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<ModelServer> {
    let self: ModelServer | null = null;
    const server = createServer((req, res) => {
      void self!.#handle(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    self = new ModelServer(server, `http://127.0.0.1:${port}`);
    server.on('connection', (s) => {
      self!.#sockets.add(s);
      s.on('close', () => self!.#sockets.delete(s));
    });
    return self;
  }

  /** Base URL for OpenAI-compatible clients (…/v1) and for the Anthropic SDK (root). */
  get openaiBaseUrl(): string {
    return `${this.url}/v1`;
  }

  get anthropicBaseUrl(): string {
    return this.url;
  }

  enqueue(...steps: ServerStep[]): this {
    this.#queue.push(...steps);
    return this;
  }

  respond(fn: Responder | null): this {
    this.#responder = fn;
    return this;
  }

  reset(): void {
    this.#queue.length = 0;
    this.#responder = null;
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    for (const s of this.#sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const path = (req.url ?? '').split('?')[0]!;
    const wire: Wire | null =
      req.method === 'POST' && path === '/v1/chat/completions'
        ? 'openai'
        : req.method === 'POST' && path === '/v1/messages'
          ? 'anthropic'
          : null;
    if (!wire) return send(res, 404, { error: { message: `no route ${req.method} ${path}` } });
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return send(res, 400, { error: { message: 'request body is not JSON' } });
    }
    const rec: RecordedRequest = { wire, path, headers: req.headers, body };
    this.requests.push(rec);
    const step = this.#queue.shift() ?? (this.#responder ? await this.#responder(rec) : null);
    if (!step)
      return send(res, 500, { error: { message: 'model server: nothing scripted for this request' } });
    this.#n += 1;
    if ('hang' in step) {
      if (step.hang === 'body') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"id":"partial","choices":[');
      }
      return; // the socket stays open until the client gives up or the server closes
    }
    if ('echoAuth' in step) {
      const message = `Incorrect API key provided: ${credential(rec)}`;
      return send(
        res,
        401,
        wire === 'openai' ? { error: { message, type: 'invalid_request_error' } } : errorBody(message),
      );
    }
    if ('rawBody' in step) {
      res.writeHead(step.status ?? 200, { 'content-type': step.contentType ?? 'application/json' });
      res.end(step.rawBody);
      return;
    }
    if ('status' in step) {
      res.writeHead(step.status, { 'content-type': 'application/json', ...step.headers });
      res.end(JSON.stringify(step.body ?? { error: { message: `scripted ${step.status}` } }));
      return;
    }
    const text = 'reply' in step ? JSON.stringify(step.reply) : step.replyText;
    const usage =
      'reply' in step && step.usage
        ? step.usage
        : { input: tokens(JSON.stringify(body)), output: tokens(text) };
    send(
      res,
      200,
      wire === 'openai' ? this.#openai(rec, step, text, usage) : this.#anthropic(rec, step, text, usage),
    );
  }

  #openai(rec: RecordedRequest, step: ServerStep, text: string, usage: { input: number; output: number }) {
    const tool = rec.body.tools?.[0]?.function?.name as string | undefined;
    const asTool = tool !== undefined && 'reply' in step;
    const finish = ('finish' in step && step.finish) || (asTool ? 'tool_calls' : 'stop');
    const message = asTool
      ? {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: `call_${this.#n}`, type: 'function', function: { name: tool, arguments: text } },
          ],
        }
      : { role: 'assistant', content: text };
    return {
      id: `chatcmpl-${this.#n}`,
      object: 'chat.completion',
      created: 1_700_000_000,
      model: rec.body.model,
      choices: [{ index: 0, message, finish_reason: finish }],
      usage: {
        prompt_tokens: usage.input,
        completion_tokens: usage.output,
        total_tokens: usage.input + usage.output,
      },
    };
  }

  #anthropic(rec: RecordedRequest, step: ServerStep, text: string, usage: { input: number; output: number }) {
    const tool = (rec.body.tool_choice?.name ?? rec.body.tools?.[0]?.name) as string | undefined;
    const asTool = tool !== undefined && 'reply' in step;
    const content = asTool
      ? [{ type: 'tool_use', id: `toolu_${this.#n}`, name: tool, input: (step as { reply: unknown }).reply }]
      : [{ type: 'text', text }];
    const finish = ('finish' in step && step.finish) || (asTool ? 'tool_use' : 'end_turn');
    return {
      id: `msg_${this.#n}`,
      type: 'message',
      role: 'assistant',
      model: rec.body.model,
      content,
      stop_reason: finish,
      stop_sequence: null,
      usage: { input_tokens: usage.input, output_tokens: usage.output },
    };
  }
}

function errorBody(message: string) {
  return { type: 'error', error: { type: 'authentication_error', message } };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
