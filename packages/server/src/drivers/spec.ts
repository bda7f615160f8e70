import { type Budget, createProvider, type Db8Config, type Provider, type Script } from '@db8/agents';
import type { DriverSpec } from '../schemas/drivers.ts';

export {
  type DriverSpec,
  DriverSpecSchema,
  type Drivers,
  DriversBodySchema,
  DriversSchema,
} from '../schemas/drivers.ts';

export interface ProviderFactoryOptions {
  env: Readonly<Record<string, string | undefined>>;
  config?: Db8Config;
}

/**
 * `DB8_SCRIPTED_DELAY_MS` (tests and demos only): a scripted seat waits this long per call, so a
 * watcher can see a scripted room fill in rather than finish within one frame.
 */
export function delayedScript(script: Script, env: ProviderFactoryOptions['env']): Script {
  const ms = Number(env.DB8_SCRIPTED_DELAY_MS ?? 0);
  if (!Number.isFinite(ms) || ms <= 0) return script;
  const step = (req: Parameters<Extract<Script, (...a: never[]) => unknown>>[0], i: number) =>
    typeof script === 'function' ? script(req) : script[i];
  let i = 0;
  return async (req) => {
    await new Promise((r) => setTimeout(r, Math.min(ms, 60_000)));
    const s = await step(req, i++);
    if (s === undefined) throw new Error('the script has no more steps');
    return s;
  };
}

/**
 * The provider a spec asks for. `script` is what the scripted profile plays for this seat (its
 * protocol module's labelled cast); every record of it says scripted.
 */
export function providerFor(
  spec: DriverSpec,
  budget: Budget,
  opts: ProviderFactoryOptions,
  script?: Script,
): Provider {
  return createProvider({
    env: opts.env,
    ...(opts.config ? { config: opts.config } : {}),
    budget,
    provider: spec.provider,
    ...(spec.model ? { model: spec.model } : {}),
    ...(spec.base_url ? { baseUrl: spec.base_url } : {}),
    ...(spec.api_key_env ? { apiKeyEnv: spec.api_key_env } : {}),
    ...(spec.provider === 'scripted' && script ? { script: delayedScript(script, opts.env) } : {}),
  });
}
