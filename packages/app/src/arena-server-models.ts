// Model entrants of server-run tournaments (docs/arena.md "Server-run tournaments"): each plays
// through a provider this server configures for its drivers (the server's environment: keys, base
// URLs; docs/drivers.md), under one budget per match room (`DB8_ARENA_MATCH_BUDGET`), and every
// call is a driver_calls row of the match room, as a driven seat's is — so the server's model spend
// is metered, capped and recorded in one place.

import {
  BUILTIN_PROFILES,
  Budget,
  type BudgetLimits,
  BudgetLimitsSchema,
  createProvider,
  ProviderConfigError,
  resolveProvider,
} from '@db8/agents';
import { entrantIdentity } from '@db8/arena/server';
import { DriverStore, type ModuleContext } from '@db8/server/kit';
import { type ModelProviders, metered } from './arena-models.ts';

export interface ServerModels {
  models: ModelProviders;
  /** Null when this server can play the entrant; else why not (it waits for its organizer). */
  ready(entrant: { provider: string; model: string }): string | null;
}

/** `DB8_ARENA_MATCH_BUDGET`: JSON budget limits ({maxTokens, maxCostUsd, maxCalls}) for each match room. */
function matchBudget(env: ModuleContext['env']): BudgetLimits | string {
  const raw = env.DB8_ARENA_MATCH_BUDGET;
  if (raw === undefined || raw === '') return {};
  try {
    const r = BudgetLimitsSchema.safeParse(JSON.parse(raw));
    if (r.success) return r.data;
  } catch {}
  return 'DB8_ARENA_MATCH_BUDGET is not budget limits ({"maxTokens"?, "maxCostUsd"?, "maxCalls"?} as JSON)';
}

const ROOMS_KEPT = 1024;

function forgetOldest(m: Map<string, unknown>): void {
  while (m.size > ROOMS_KEPT) m.delete(m.keys().next().value as string);
}

export function serverModels(ctx: ModuleContext, log: { warn(o: object, m: string): void }): ServerModels {
  const env = ctx.env;
  const limits = matchBudget(env);
  const drivers = new DriverStore(ctx.app.store);
  // One budget per match room: its limits hold across the room's model entrants.
  // Both maps keep the newest ROOMS_KEPT match rooms only (a Map iterates oldest first): matches
  // run at most 64 at a time per tournament, so an older room is over and its entries are garbage.
  const budgets = new Map<string, Budget>();
  const budgetOf = (room: string) => {
    let b = budgets.get(room);
    if (!b) {
      b = new Budget({ room: typeof limits === 'string' ? {} : limits });
      budgets.set(room, b);
      forgetOldest(budgets);
    }
    return b;
  };
  const calls = new Map<string, number>();
  return {
    ready(entrant) {
      if (typeof limits === 'string') return limits;
      try {
        const view = resolveProvider({ env, provider: entrant.provider, model: entrant.model });
        // A profile that names a key variable (openai, anthropic, openrouter…) needs it set here.
        const keyVar = env.DB8_API_KEY ? 'DB8_API_KEY' : BUILTIN_PROFILES[entrant.provider]?.apiKeyEnv;
        if (view.kind !== 'scripted' && view.keySource === null && keyVar)
          return `provider ${entrant.provider}: no key in this server's environment (${keyVar})`;
        return null;
      } catch (err) {
        if (err instanceof ProviderConfigError) return `provider ${entrant.provider}: ${err.message}`;
        throw err;
      }
    },
    async models(entrant, script, meter, room) {
      const provider = createProvider({
        env,
        budget: budgetOf(room),
        provider: entrant.provider,
        model: entrant.model,
        script,
      });
      // Nobody holds a match seat: each call is recorded for the model's own principal (the one its
      // tournaments link as the entrant), so it counts in that model's profile usage.
      const principal = entrantIdentity({ ...entrant, kind: 'model' })?.id ?? null;
      return metered(provider, async (record) => {
        meter.call(entrant.name, record);
        const key = `${room}\u0000${entrant.name}`;
        const n = (calls.get(key) ?? 0) + 1;
        calls.set(key, n);
        forgetOldest(calls);
        await drivers
          .record({
            roomId: room,
            seat: record.seat ?? entrant.name,
            decision: `arena:${entrant.name}#${n}`,
            ok: record.ok,
            error: record.error ? { code: record.error.code, message: record.error.message } : null,
            record,
            now: ctx.runtime.now(),
            principal,
          })
          .catch((err) => log.warn({ err, room }, 'arena: model call not recorded'));
      });
    },
  };
}
