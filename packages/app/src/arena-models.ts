// Model entrants of `db8 arena run` (`{kind: model, provider, model}`): each plays through a
// provider profile (docs/providers.md) — a built-in one or one from db8.config.json — with keys from
// the environment only, one budget per match.

import { existsSync } from 'node:fs';
import {
  Budget,
  createProvider,
  type Db8Config,
  loadConfigFile,
  type Provider,
  type Script,
} from '@db8/agents';

export interface ModelSetup {
  /** The provider settings (default: $DB8_CONFIG, else ./db8.config.json when it exists). */
  config?: Db8Config;
  /** Where keys and overrides are read (default: process.env). */
  env?: NodeJS.ProcessEnv;
}

/** A match's provider for one model entrant; `script` answers when the profile is `scripted`. */
export type ModelProviders = (
  entrant: { provider: string; model: string },
  script: Script,
) => Promise<Provider>;

async function configFrom(env: NodeJS.ProcessEnv): Promise<Db8Config> {
  if (env.DB8_CONFIG) return loadConfigFile(env.DB8_CONFIG, true);
  return existsSync('db8.config.json') ? loadConfigFile('db8.config.json', true) : {};
}

export function modelProviders(setup: ModelSetup = {}): ModelProviders {
  const env = setup.env ?? process.env;
  return async (entrant, script) => {
    const c = setup.config ?? (await configFrom(env));
    return createProvider({
      config: c,
      env,
      budget: new Budget(c.budget ?? {}),
      provider: entrant.provider,
      model: entrant.model,
      script,
    });
  };
}
