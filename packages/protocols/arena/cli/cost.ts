/**
 * What model entrants cost in a `db8 arena run`, as the providers reported it: per entrant and match,
 * calls, input/output tokens and USD (at db8.config.json's `prices`; a model without a price adds
 * none and is counted as unpriced), and fallbacks — the safe legal action the game played when a
 * call failed or its answer was illegal. Written to costs.json beside the standings, never into the
 * tournament log: verification proves nothing about it (it is the runner's own report).
 */

/** The part of a provider's call record (@db8/agents CallRecord) that cost is read from. */
export interface MeteredCall {
  ok: boolean;
  usage: { inputTokens: number; outputTokens: number };
  costUsd: number | null;
}

export interface EntrantCost {
  calls: number;
  failedCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** USD over the priced calls. */
  costUsd: number;
  /** Calls whose model has no price (their tokens are counted, their money is not). */
  unpricedCalls: number;
  /** Moves the game made for the entrant because a call failed or its answer was illegal. */
  fallbacks: number;
}

export type Costs = Record<string, EntrantCost>;

const zero = (): EntrantCost => ({
  calls: 0,
  failedCalls: 0,
  inputTokens: 0,
  outputTokens: 0,
  costUsd: 0,
  unpricedCalls: 0,
  fallbacks: 0,
});

// Sums of USD amounts rounded like the providers' (1e-9), so totals do not drift in the last digit.
const usd = (x: number) => Math.round(x * 1e9) / 1e9;

/** One match's meter: games report each model call and each fallback of an entrant into it. */
export class CostMeter {
  readonly #costs = new Map<string, EntrantCost>();
  #of(entrant: string): EntrantCost {
    const c = this.#costs.get(entrant) ?? zero();
    this.#costs.set(entrant, c);
    return c;
  }
  call(entrant: string, r: MeteredCall): void {
    const c = this.#of(entrant);
    c.calls++;
    if (!r.ok) c.failedCalls++;
    c.inputTokens += r.usage.inputTokens;
    c.outputTokens += r.usage.outputTokens;
    if (r.costUsd === null) c.unpricedCalls++;
    else c.costUsd = usd(c.costUsd + r.costUsd);
  }
  fallback(entrant: string): void {
    this.#of(entrant).fallbacks++;
  }
  /** The entrants that made calls or fallbacks, by name. */
  costs(): Costs {
    return Object.fromEntries([...this.#costs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
}

/** Per-entrant totals over matches. */
export function totalCosts(matches: Readonly<Record<string, Costs>>): Costs {
  const out: Record<string, EntrantCost> = {};
  for (const costs of Object.values(matches))
    for (const [name, c] of Object.entries(costs)) {
      out[name] ??= zero();
      const t = out[name]!;
      t.calls += c.calls;
      t.failedCalls += c.failedCalls;
      t.inputTokens += c.inputTokens;
      t.outputTokens += c.outputTokens;
      t.costUsd = usd(t.costUsd + c.costUsd);
      t.unpricedCalls += c.unpricedCalls;
      t.fallbacks += c.fallbacks;
    }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** costs.json: per match and in total, and what it is (and is not). */
export interface CostReport {
  note: string;
  total: Costs;
  matches: Record<string, Costs>;
}

export const COSTS_NOTE =
  'self-reported by the runner from the providers’ usage fields; not in the tournament log, so db8 arena verify proves nothing about it';

export function costReport(matches: Readonly<Record<string, Costs>>): CostReport {
  const sorted = Object.fromEntries(
    Object.entries(matches).sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true })),
  );
  return { note: COSTS_NOTE, total: totalCosts(sorted), matches: sorted };
}

/** The model entrants' totals as a terminal table (empty when no entrant made a call). */
export function formatCosts(total: Costs): string {
  const names = Object.keys(total);
  if (names.length === 0) return '';
  const head = `${'model entrant'.padEnd(16)} ${'calls'.padStart(6)} ${'failed'.padStart(7)} ${'in tokens'.padStart(10)} ${'out tokens'.padStart(11)} ${'USD'.padStart(11)} ${'fallbacks'.padStart(10)}`;
  const rows = names.map((n) => {
    const c = total[n]!;
    const money =
      c.unpricedCalls === c.calls && c.calls > 0
        ? 'no price'
        : `${c.costUsd.toFixed(6)}${c.unpricedCalls > 0 ? '+' : ''}`;
    return `${n.padEnd(16)} ${String(c.calls).padStart(6)} ${String(c.failedCalls).padStart(7)} ${String(c.inputTokens).padStart(10)} ${String(c.outputTokens).padStart(11)} ${money.padStart(11)} ${String(c.fallbacks).padStart(10)}`;
  });
  const fell = names.some((n) => total[n]!.fallbacks > 0)
    ? '\na fallback is the safe legal move played for a failed call or an illegal answer (poker: check, else fold; sealed-bid: no bid; debate: the round forfeited); the run went on'
    : '';
  return `\nmodel cost (${COSTS_NOTE}; + : some calls unpriced):\n${head}\n${rows.join('\n')}${fell}\n`;
}
