import type { CallError, CallRecord, Provider } from '@db8/agents';
import { truncateCodePoints } from '@db8/core';
import type { z } from 'zod';

/**
 * A seat agent turns what its seat may see (view + legal actions) into decisions. Each decision
 * has a stable `key`: the host runs each key once per seat (and sends it as the idempotency key),
 * because the view that shows a decision was taken may arrive after the next state push.
 */

export interface SeatContext {
  roomId: string;
  seat: string;
  role: string | null;
  view: unknown;
  legal: unknown[];
  turnToken: string | null;
  persona: string | null;
  now: number;
}

export interface Outcome {
  /** The action to submit, or null: nothing is submitted and the protocol's deadline applies. */
  action: unknown | null;
  record: CallRecord | null;
  /** Set when the call failed; recorded with the seat and never replaced by invented content. */
  error: { code: string; message: string } | null;
  /**
   * Calls the decision made before the one in `record` (a reflexion turn: draft, reflection,
   * draft…): each is recorded as its own driver_calls row (`<key>#<n>`), so none goes uncounted.
   */
  calls?: CallRecord[];
}

export interface Decision {
  key: string;
  run(provider: Provider, signal: AbortSignal): Promise<Outcome>;
}

export type SeatAgent = (ctx: SeatContext) => Decision[];

export interface ModelAsk<T> {
  schemaName: string;
  schema: z.ZodType<T>;
  description: string;
  system: string;
  prompt: string;
}

/** A decision made by one structured call; `build` wraps the validated value into the action. */
export function modelDecision<T>(
  key: string,
  seat: string,
  ask: ModelAsk<T>,
  build: (value: T) => unknown,
  onFailure: (error: CallError, record: CallRecord) => unknown | null = () => null,
): Decision {
  return {
    key,
    async run(provider, signal) {
      const out = await provider.call({ ...ask, seat, signal });
      if (out.ok) return { action: build(out.value), record: out.record, error: null };
      const error = { code: out.error.code, message: out.error.message };
      return { action: onFailure(out.error, out.record), record: out.record, error };
    },
  };
}

/** A decision that needs no model call (a fixed protocol step). */
export function fixedDecision(key: string, action: unknown): Decision {
  return { key, run: async () => ({ action, record: null, error: null }) };
}

export function withPersona(system: string, persona: string | null): string {
  return persona ? `${system}\n\nYour persona: ${persona}` : system;
}

/** JSON for a prompt, cut to `max` characters so a long transcript cannot blow the context. */
export function clip(value: unknown, max = 12_000): string {
  const s = JSON.stringify(value, null, 1);
  return s.length <= max ? s : `${truncateCodePoints(s, max)}\n…(truncated)`;
}
