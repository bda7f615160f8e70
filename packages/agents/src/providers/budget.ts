import { z } from 'zod';
import type { Usage } from './types.ts';

/**
 * Budgets per seat and per room. Before each HTTP attempt the pipeline reserves what the attempt
 * could cost at most (an input estimate + the output cap); the reservation is replaced by the real
 * usage when the reply arrives. Concurrent calls (a round's five roles) therefore cannot together
 * overshoot a limit, except by how far the input estimate undershoots the real input tokens.
 */

export const BudgetLimitsSchema = z
  .object({
    maxTokens: z.number().int().positive().optional(),
    maxCostUsd: z.number().positive().optional(),
    maxCalls: z.number().int().positive().optional(),
  })
  .strict();
export type BudgetLimits = z.infer<typeof BudgetLimitsSchema>;

export const BudgetConfigSchema = z
  .object({
    room: BudgetLimitsSchema.optional(),
    /** Applies to every seat unless `seats` names it. */
    seat: BudgetLimitsSchema.optional(),
    seats: z.record(z.string(), BudgetLimitsSchema).optional(),
  })
  .strict();
export type BudgetConfig = z.infer<typeof BudgetConfigSchema>;

export type Spent = { tokens: number; costUsd: number; calls: number };

/** The smallest output cap worth sending; below it the call is refused as over budget. */
export const MIN_OUTPUT_TOKENS = 64;

export type Reservation =
  | { ok: true; maxOutputTokens: number; settle(usage: Usage | null, costUsd: number | null): void }
  | { ok: false; message: string };

type Scope = { name: string; limits: BudgetLimits; spent: Spent; held: Spent };

function zero(): Spent {
  return { tokens: 0, costUsd: 0, calls: 0 };
}

export class Budget {
  readonly #config: BudgetConfig;
  readonly #room: Scope;
  readonly #seats = new Map<string, Scope>();

  constructor(config: BudgetConfig = {}) {
    this.#config = BudgetConfigSchema.parse(config);
    this.#room = { name: 'room', limits: this.#config.room ?? {}, spent: zero(), held: zero() };
  }

  static unlimited(): Budget {
    return new Budget({});
  }

  #seat(seat: string | null): Scope | null {
    if (seat === null) return null;
    let s = this.#seats.get(seat);
    if (!s) {
      const limits = this.#config.seats?.[seat] ?? this.#config.seat ?? {};
      s = { name: `seat ${seat}`, limits, spent: zero(), held: zero() };
      this.#seats.set(seat, s);
    }
    return s;
  }

  #scopes(seat: string | null): Scope[] {
    const s = this.#seat(seat);
    return s ? [this.#room, s] : [this.#room];
  }

  /** Count a new logical call (retries and the repair attempt are not new calls). */
  startCall(seat: string | null): { ok: true } | { ok: false; message: string } {
    const scopes = this.#scopes(seat);
    for (const s of scopes) {
      const max = s.limits.maxCalls;
      if (max !== undefined && s.spent.calls + s.held.calls >= max) {
        return { ok: false, message: `${s.name} budget: ${max} call(s) used` };
      }
    }
    for (const s of scopes) s.spent.calls += 1;
    return { ok: true };
  }

  /** Undo `startCall` for a call that never sent a request (refused by a token or cost limit). */
  refundCall(seat: string | null): void {
    for (const s of this.#scopes(seat)) s.spent.calls -= 1;
  }

  /**
   * Hold room for one attempt: `inputEstimate` tokens in, up to `wantOutput` out (capped to what is
   * left). `pricePerToken` is null when the model has no price — then a cost limit cannot be kept.
   */
  reserve(
    seat: string | null,
    inputEstimate: number,
    wantOutput: number,
    price: { input: number; output: number } | null,
  ): Reservation {
    const scopes = this.#scopes(seat);
    let maxOut = wantOutput;
    for (const s of scopes) {
      const { maxTokens, maxCostUsd } = s.limits;
      if (maxTokens !== undefined) {
        const left = maxTokens - s.spent.tokens - s.held.tokens - inputEstimate;
        maxOut = Math.min(maxOut, left);
      }
      if (maxCostUsd !== undefined) {
        if (!price) return { ok: false, message: `${s.name} has a cost budget but the model has no price` };
        const left = maxCostUsd - s.spent.costUsd - s.held.costUsd - inputEstimate * price.input;
        maxOut = price.output > 0 ? Math.min(maxOut, Math.floor(left / price.output)) : maxOut;
        if (left <= 0) maxOut = 0;
      }
    }
    if (maxOut < Math.min(MIN_OUTPUT_TOKENS, wantOutput)) {
      const which = scopes.map((s) => `${s.name}: ${fmt(s)}`).join('; ');
      return { ok: false, message: `budget exhausted (${which})` };
    }
    const hold: Spent = {
      tokens: inputEstimate + maxOut,
      costUsd: price ? inputEstimate * price.input + maxOut * price.output : 0,
      calls: 0,
    };
    for (const s of scopes) add(s.held, hold, 1);
    let settled = false;
    return {
      ok: true,
      maxOutputTokens: maxOut,
      settle: (usage, costUsd) => {
        if (settled) return;
        settled = true;
        const used: Spent = {
          tokens: usage ? usage.inputTokens + usage.outputTokens : 0,
          costUsd: costUsd ?? 0,
          calls: 0,
        };
        for (const s of scopes) {
          add(s.held, hold, -1);
          add(s.spent, used, 1);
        }
      },
    };
  }

  spent(seat?: string): Spent {
    const s = seat === undefined ? this.#room : this.#seat(seat)!;
    return { ...s.spent };
  }
}

function add(into: Spent, v: Spent, sign: 1 | -1): void {
  into.tokens += sign * v.tokens;
  into.costUsd += sign * v.costUsd;
  into.calls += sign * v.calls;
}

function fmt(s: Scope): string {
  const l = s.limits;
  const parts = [];
  if (l.maxTokens !== undefined) parts.push(`${s.spent.tokens}/${l.maxTokens} tokens`);
  if (l.maxCostUsd !== undefined) parts.push(`$${s.spent.costUsd.toFixed(6)}/$${l.maxCostUsd}`);
  return parts.join(', ') || 'no limit';
}
