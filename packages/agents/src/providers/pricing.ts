import { z } from 'zod';
import type { Usage } from './types.ts';

/**
 * Prices in USD per million tokens, by model name. A key ending in `*` matches by prefix (the
 * longest match wins), so `claude-sonnet-*` covers dated versions. No prices are built in: they
 * change, so they come from db8.config.json (`prices`) — an unknown model costs `null`.
 */
export const PriceSchema = z
  .object({ inputPerMTok: z.number().nonnegative(), outputPerMTok: z.number().nonnegative() })
  .strict();
export const PriceTableSchema = z.record(z.string().min(1), PriceSchema);
export type PriceTable = z.infer<typeof PriceTableSchema>;

export function priceFor(table: PriceTable, model: string): z.infer<typeof PriceSchema> | null {
  const exact = table[model];
  if (exact) return exact;
  let best: { len: number; price: z.infer<typeof PriceSchema> } | null = null;
  for (const [key, price] of Object.entries(table)) {
    if (!key.endsWith('*')) continue;
    const prefix = key.slice(0, -1);
    if (model.startsWith(prefix) && (!best || prefix.length > best.len)) best = { len: prefix.length, price };
  }
  return best?.price ?? null;
}

/** Cost of `usage` in USD (rounded to 1e-9), or null when the model has no price. */
export function costOf(table: PriceTable, model: string, usage: Usage): number | null {
  const p = priceFor(table, model);
  if (!p) return null;
  const usd = (usage.inputTokens * p.inputPerMTok + usage.outputTokens * p.outputPerMTok) / 1_000_000;
  return Math.round(usd * 1e9) / 1e9;
}
