import { randomBytes } from 'node:crypto';
import { resolveProvider } from '@db8/agents';
import type { PrepareContext } from '@db8/server/kit';
import { ROLES, seatOf } from '../rules/index.ts';

/**
 * A council config without a run id or roster gets them here: a fresh run id, and a roster that says
 * who plays each role (seed 001's run artifacts name them) from the drivers; roles no driver plays
 * are `remote` (people or agents who join). A config that names them is the caller's, unchanged.
 */
export function councilConfig(config: unknown, ctx: Pick<PrepareContext, 'drivers'>): unknown {
  const drivers = ctx.drivers;
  if (config === null || typeof config !== 'object' || Array.isArray(config)) return config;
  const c = config as Record<string, unknown>;
  const roster =
    c.roster ??
    ROLES.map((role) => {
      const spec = drivers[seatOf(role)];
      if (!spec) return { role, provider: 'remote', model: 'remote', scripted: false };
      const r = resolveProvider({
        provider: spec.provider,
        ...(spec.model ? { model: spec.model } : {}),
        ...(spec.base_url ? { baseUrl: spec.base_url } : {}),
        ...(spec.api_key_env ? { apiKeyEnv: spec.api_key_env } : {}),
      });
      return { role, provider: r.profile, model: r.model, scripted: r.kind === 'scripted' };
    });
  return {
    ...c,
    runId: c.runId ?? `run_${randomBytes(8).toString('hex')}`,
    roster,
    // New rooms report tokens and cost in their packet (see CouncilConfigSchema.usageInPacket).
    usageInPacket: c.usageInPacket ?? true,
  };
}
