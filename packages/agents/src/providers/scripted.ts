import type { Transport } from './call.ts';
import { TransportError } from './errors.ts';
import type { CallErrorCode, WireReply, WireRequest } from './types.ts';

/**
 * The scripted provider: for tests and demos, never for decisions. It goes through the same
 * pipeline as a model (validation, repair, retries, budgets) and its records say
 * `provider: 'scripted'`, `scripted: true`, model `scripted:<name>` — what it produces is always
 * labelled as scripted. Token counts are estimates (4 characters per token).
 */

export type ScriptStep =
  /** A reply whose text is this value as JSON. */
  | { json: unknown }
  /** A raw reply text: malformed or truncated JSON, prose… */
  | { text: string; finish?: string }
  /** A failed attempt, as a transport would report it. */
  | { fail: CallErrorCode; status?: number; retryAfterMs?: number; message?: string };

/** A list consumed in order, or a function of the request (its schema name, messages…). */
export type Script = readonly ScriptStep[] | ((req: WireRequest) => ScriptStep | Promise<ScriptStep>);

export class ScriptedTransport implements Transport {
  readonly kind = 'scripted' as const;
  readonly model: string;
  readonly #script: Script;
  #next = 0;
  /** Every request the script was asked to answer (for tests and demos). */
  readonly requests: WireRequest[] = [];

  constructor(script: Script, name = 'default') {
    this.#script = script;
    this.model = `scripted:${name}`;
  }

  async send(req: WireRequest, ctx: { signal: AbortSignal }): Promise<WireReply> {
    if (ctx.signal.aborted) throw ctx.signal.reason;
    this.requests.push(req);
    let step: ScriptStep | undefined;
    if (typeof this.#script === 'function') step = await this.#script(req);
    else step = this.#script[this.#next++];
    if (!step) throw new TransportError('script_exhausted', `${this.model} has no reply left`);
    if ('fail' in step) {
      throw new TransportError(
        step.fail,
        step.message ?? `scripted ${step.fail}`,
        step.status ?? null,
        step.retryAfterMs ?? null,
      );
    }
    const text = 'json' in step ? JSON.stringify(step.json) : step.text;
    const input = req.system.length + req.messages.reduce((s, m) => s + m.content.length, 0);
    return {
      text,
      usage: { inputTokens: Math.ceil(input / 4), outputTokens: Math.ceil(text.length / 4) },
      finish: 'text' in step && step.finish ? step.finish : 'stop',
      status: 200,
    };
  }
}
