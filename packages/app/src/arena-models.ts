// Model entrants of `db8 arena run` (`{kind: model, provider, model}`): each plays through a
// provider profile (docs/providers.md) — a built-in one or one from db8.config.json — with keys from
// the environment only, one budget per match. Every call's record goes into the match's cost meter.

import { existsSync } from 'node:fs';
import {
  Budget,
  type CallRecord,
  createProvider,
  type Db8Config,
  loadConfigFile,
  type Provider,
  type Script,
  type StructuredRequest,
} from '@db8/agents';
import type { CostMeter } from '@db8/arena/cli/cost.ts';

export interface ModelSetup {
  /** The provider settings (default: $DB8_CONFIG, else ./db8.config.json when it exists). */
  config?: Db8Config;
  /** Where keys and overrides are read (default: process.env). */
  env?: NodeJS.ProcessEnv;
}

/**
 * A match's provider for one model entrant; `script` answers when the profile is `scripted`. Its
 * calls are metered into `meter` under the entrant's name; `room` is the match room's id (the
 * server records each call against it).
 */
export type ModelProviders = (
  entrant: { name: string; provider: string; model: string },
  script: Script,
  meter: CostMeter,
  room: string,
) => Promise<Provider>;

async function configFrom(env: NodeJS.ProcessEnv): Promise<Db8Config> {
  if (env.DB8_CONFIG) return loadConfigFile(env.DB8_CONFIG, true);
  return existsSync('db8.config.json') ? loadConfigFile('db8.config.json', true) : {};
}

export function modelProviders(setup: ModelSetup = {}): ModelProviders {
  const env = setup.env ?? process.env;
  return async (entrant, script, meter) => {
    const c = setup.config ?? (await configFrom(env));
    const provider = createProvider({
      config: c,
      env,
      budget: new Budget(c.budget ?? {}),
      provider: entrant.provider,
      model: entrant.model,
      script,
    });
    return metered(provider, (record) => meter.call(entrant.name, record));
  };
}

/** The provider with every call's record (usage, cost, ok) handed to `onCall` as it settles. */
export function metered(p: Provider, onCall: (record: CallRecord) => void | Promise<void>): Provider {
  return {
    kind: p.kind,
    profile: p.profile,
    model: p.model,
    endpoint: p.endpoint,
    scripted: p.scripted,
    async call<T>(req: StructuredRequest<T>) {
      const out = await p.call(req);
      await onCall(out.record);
      return out;
    },
  };
}
