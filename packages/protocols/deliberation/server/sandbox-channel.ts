import { randomBytes } from 'node:crypto';
import { z } from 'zod';

/**
 * The results channel (docs/deliberation.md#the-results-channel): the server reads verdicts only
 * from fd 3 of the sandbox, and only lines that start with this run's nonce — 32 random bytes
 * written to the harness's stdin before any code under test exists. Stdout and stderr are output
 * for people, never parsed. A line without the nonce (anything the code writes, on any descriptor)
 * is dropped; a malformed or repeated verdict is dropped; whatever the code does can only lose
 * verdicts, never add one.
 */

export function newNonce(): string {
  return randomBytes(32).toString('hex');
}

const Line = z.union([
  z
    .object({ plan: z.number().int().min(0).max(10_000), names: z.array(z.string().max(200)).max(10_000) })
    .strict(),
  z.object({ i: z.number().int().min(0), ok: z.literal(true) }).strict(),
  z.object({ i: z.number().int().min(0), ok: z.literal(false), message: z.string().max(1000) }).strict(),
  z.object({ done: z.literal(true) }).strict(),
]);

/** Longest line kept; longer ones are the code's (ours are far shorter) and dropped whole. */
const MAX_LINE = 64 * 1024;

export interface Verdict {
  name: string;
  ok: boolean;
  message: string;
}

export class ResultChannel {
  readonly #prefix: string;
  #partial = '';
  #overflow = false;
  names: string[] | null = null;
  readonly verdicts = new Map<number, Verdict>();
  done = false;

  constructor(
    nonce: string,
    readonly onDone: () => void = () => {},
  ) {
    this.#prefix = `${nonce} `;
  }

  /** Feeds bytes read from fd 3 (ASCII lines). */
  push(chunk: string): void {
    let text = this.#partial + chunk;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n')) {
      const line = text.slice(0, nl);
      text = text.slice(nl + 1);
      if (this.#overflow) this.#overflow = false;
      else this.#line(line);
    }
    if (text.length > MAX_LINE) {
      this.#overflow = true;
      text = '';
    }
    this.#partial = text;
  }

  #line(line: string): void {
    if (this.done || !line.startsWith(this.#prefix)) return;
    let parsed: z.infer<typeof Line>;
    try {
      parsed = Line.parse(JSON.parse(line.slice(this.#prefix.length)));
    } catch {
      return;
    }
    if ('plan' in parsed) {
      if (this.names === null && parsed.names.length === parsed.plan) this.names = parsed.names;
      return;
    }
    if (this.names === null) return;
    if ('done' in parsed) {
      this.done = true;
      this.onDone();
      return;
    }
    if (parsed.i >= this.names.length || this.verdicts.has(parsed.i)) return;
    this.verdicts.set(parsed.i, {
      name: this.names[parsed.i]!,
      ok: parsed.ok,
      message: parsed.ok ? '' : parsed.message,
    });
  }
}
