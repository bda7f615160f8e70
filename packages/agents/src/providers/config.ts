import { readFile } from 'node:fs/promises';
import { parseJson } from '@db8/core';
import { z } from 'zod';
import { AnthropicTransport } from './anthropic.ts';
import { Budget, BudgetConfigSchema } from './budget.ts';
import type { CallSettings, Transport } from './call.ts';
import { OpenAITransport } from './openai.ts';
import { PriceTableSchema } from './pricing.ts';
import { ModelProvider } from './provider.ts';
import { Redactor, safeEndpoint, urlSecrets } from './redact.ts';
import { RetryPolicySchema } from './retry.ts';
import { type Script, ScriptedTransport } from './scripted.ts';
import { ProviderKindSchema } from './types.ts';

/**
 * Provider configuration: built-in profiles, overridden by db8.config.json, overridden by the
 * environment, overridden by explicit options (CLI flags). Keys come only from the environment
 * (`apiKeyEnv` names the variable) — a config file never holds one. See docs/providers.md.
 */

export const StructuredModeSchema = z.enum(['json_schema', 'tool', 'json_object']);

export const ProfileSchema = z
  .object({
    kind: ProviderKindSchema,
    baseUrl: z.url().optional(),
    model: z.string().min(1).optional(),
    /** Name of the environment variable holding the key. */
    apiKeyEnv: z
      .string()
      .regex(/^[A-Z_][A-Z0-9_]*$/)
      .optional(),
    /** OpenAI-compatible only: how structured output is requested. */
    structuredOutput: StructuredModeSchema.optional(),
    maxTokensField: z.enum(['max_tokens', 'max_completion_tokens']).optional(),
    /** Extra, non-secret headers (e.g. OpenRouter's HTTP-Referer / X-Title). */
    headers: z.record(z.string(), z.string()).optional(),
    timeoutMs: z.number().int().positive().optional(),
    maxOutputTokens: z.number().int().positive().optional(),
    temperature: z.number().min(0).max(2).nullable().optional(),
  })
  .strict();
export type Profile = z.infer<typeof ProfileSchema>;

export const RoleChoiceSchema = z
  .object({ provider: z.string().optional(), model: z.string().optional() })
  .strict();

/** A protocol's section of the config: its seats' provider/model by role (e.g. `council.roles`). */
export const ProtocolSectionSchema = z
  .object({ roles: z.record(z.string(), RoleChoiceSchema).optional() })
  .strict();
export type ProtocolSection = z.infer<typeof ProtocolSectionSchema>;

const SettingsSchema = z
  .object({
    /** Default profile name. */
    provider: z.string().optional(),
    model: z.string().optional(),
    profiles: z.record(z.string(), ProfileSchema).optional(),
    timeoutMs: z.number().int().positive().optional(),
    retry: RetryPolicySchema.partial().optional(),
    maxOutputTokens: z.number().int().positive().optional(),
    temperature: z.number().min(0).max(2).nullable().optional(),
    /** USD per million tokens, by model (`name` or `prefix*`). */
    prices: PriceTableSchema.optional(),
    budget: BudgetConfigSchema.optional(),
  })
  .strict();

/**
 * db8.config.json: the settings above, and any other key is a protocol's section (docs/council.md,
 * `council.roles`). A misspelt setting still fails: a section must be a ProtocolSection object.
 */
export const Db8ConfigSchema = SettingsSchema.catchall(ProtocolSectionSchema);
export type Db8Config = z.infer<typeof SettingsSchema> & { readonly [section: string]: unknown };

/** A protocol's section of a parsed config, if it has one. */
export function protocolSection(config: Db8Config, protocol: string): ProtocolSection | undefined {
  const r = ProtocolSectionSchema.safeParse(config[protocol]);
  return r.success ? r.data : undefined;
}

export const BUILTIN_PROFILES: Readonly<Record<string, Profile>> = {
  openai: {
    kind: 'openai',
    baseUrl: 'https://api.openai.com/v1',
    apiKeyEnv: 'OPENAI_API_KEY',
    structuredOutput: 'json_schema',
    maxTokensField: 'max_completion_tokens',
  },
  anthropic: { kind: 'anthropic', baseUrl: 'https://api.anthropic.com', apiKeyEnv: 'ANTHROPIC_API_KEY' },
  openrouter: {
    kind: 'openai',
    baseUrl: 'https://openrouter.ai/api/v1',
    apiKeyEnv: 'OPENROUTER_API_KEY',
    structuredOutput: 'json_schema',
  },
  ollama: { kind: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', structuredOutput: 'json_schema' },
  vllm: {
    kind: 'openai',
    baseUrl: 'http://127.0.0.1:8000/v1',
    apiKeyEnv: 'VLLM_API_KEY',
    structuredOutput: 'json_schema',
  },
  llamacpp: { kind: 'openai', baseUrl: 'http://127.0.0.1:8080/v1', structuredOutput: 'json_schema' },
  scripted: { kind: 'scripted', model: 'scripted:default' },
};

export const DEFAULTS = { timeoutMs: 60_000, maxOutputTokens: 2_048 } as const;

export class ProviderConfigError extends Error {}

/** Read and validate a db8.config.json; a missing file is an empty config unless `required`. */
export async function loadConfigFile(path: string, required = false): Promise<Db8Config> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if (!required && (e as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ProviderConfigError(`cannot read ${path}: ${(e as Error).message}`);
  }
  const parsed = Db8ConfigSchema.safeParse(parseJson(text));
  if (!parsed.success) {
    const why = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new ProviderConfigError(`${path}: ${why}`);
  }
  return parsed.data;
}

export interface ProviderChoice {
  /** Profile name (built-in or from the config file); default: env DB8_PROVIDER, config `provider`, `scripted`. */
  provider?: string;
  model?: string;
  baseUrl?: string;
  /**
   * The environment variable holding the key for `baseUrl`. A profile's own key (its `apiKeyEnv`,
   * or DB8_API_KEY) goes only to the endpoint it was configured for; a `baseUrl` on another origin
   * gets no key unless this names one.
   */
  apiKeyEnv?: string;
}

export interface CreateProviderOptions extends ProviderChoice {
  config?: Db8Config;
  env?: Readonly<Record<string, string | undefined>>;
  /** Shared by every provider of a room, so room limits hold across roles. */
  budget?: Budget;
  clock?: () => number;
  random?: () => number;
  /** Required for the scripted provider. */
  script?: Script;
  scriptName?: string;
}

/** What a resolved provider looks like without its key: for logs, records and `--json` output. */
export interface ResolvedProvider {
  profile: string;
  kind: z.infer<typeof ProviderKindSchema>;
  model: string;
  endpoint: string | null;
  structuredOutput: z.infer<typeof StructuredModeSchema> | null;
  keySource: string | null;
}

function envInt(env: CreateProviderOptions['env'], name: string): number | undefined {
  const v = env?.[name];
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new ProviderConfigError(`${name} must be a non-negative integer`);
  return n;
}

const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;

/** Whether two endpoints are one server (scheme, host, port): a key for one is not sent to another. */
export function sameOrigin(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return a === b;
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

type Resolved = { view: ResolvedProvider; apiKey: string | null; baseUrl: string | null; profile: Profile };

function resolve(opts: CreateProviderOptions): Resolved {
  const env = opts.env ?? {};
  const config = opts.config ?? {};
  const name = opts.provider ?? env.DB8_PROVIDER ?? config.provider ?? 'scripted';
  const builtin = BUILTIN_PROFILES[name];
  const own = config.profiles?.[name];
  if (!builtin && !own) {
    const known = [...new Set([...Object.keys(BUILTIN_PROFILES), ...Object.keys(config.profiles ?? {})])];
    throw new ProviderConfigError(`unknown provider profile "${name}" (known: ${known.join(', ')})`);
  }
  // A config profile named like a built-in one refines it (e.g. a different model or headers).
  const profile = ProfileSchema.parse({ ...builtin, ...own });
  const sdkBaseEnv =
    name === 'openai' ? env.OPENAI_BASE_URL : name === 'anthropic' ? env.ANTHROPIC_BASE_URL : undefined;
  // The endpoint the operator configured (profile, config file, environment): its key goes there only.
  const configured = env.DB8_BASE_URL ?? sdkBaseEnv ?? profile.baseUrl ?? null;
  const baseUrl = opts.baseUrl ?? configured;
  const model = opts.model ?? env.DB8_MODEL ?? profile.model ?? config.model ?? null;
  if (profile.kind !== 'scripted') {
    if (!baseUrl) throw new ProviderConfigError(`profile "${name}" has no baseUrl`);
    if (!model) {
      throw new ProviderConfigError(
        `no model for "${name}": pass --model, set DB8_MODEL or "model" in db8.config.json`,
      );
    }
  }
  if (opts.apiKeyEnv !== undefined && !ENV_NAME.test(opts.apiKeyEnv))
    throw new ProviderConfigError(`apiKeyEnv "${opts.apiKeyEnv}" is not an environment variable name`);
  const ownKey = env.DB8_API_KEY ? 'DB8_API_KEY' : (profile.apiKeyEnv ?? null);
  const keyVar = opts.apiKeyEnv ?? (sameOrigin(baseUrl, configured) ? ownKey : null);
  const apiKey = keyVar ? (env[keyVar] ?? null) : null;
  const mode = env.DB8_STRUCTURED_OUTPUT ?? profile.structuredOutput ?? 'json_schema';
  const scripted = profile.kind === 'scripted';
  return {
    view: {
      profile: name,
      kind: profile.kind,
      model: scripted ? `scripted:${(model ?? 'default').replace(/^scripted:/, '')}` : model!,
      endpoint: baseUrl && !scripted ? safeEndpoint(baseUrl) : null,
      structuredOutput: profile.kind === 'openai' ? StructuredModeSchema.parse(mode) : null,
      keySource: keyVar && apiKey ? `env:${keyVar}` : null,
    },
    apiKey,
    baseUrl,
    profile,
  };
}

/** Which profile, model, endpoint and key source a choice resolves to — never the key itself. */
export function resolveProvider(opts: CreateProviderOptions = {}): ResolvedProvider {
  return resolve(opts).view;
}

/** Build a provider from config + environment + explicit choice. */
export function createProvider(opts: CreateProviderOptions = {}): ModelProvider {
  const env = opts.env ?? {};
  const config = opts.config ?? {};
  const { view, apiKey, baseUrl, profile } = resolve(opts);
  let transport: Transport;
  if (view.kind === 'scripted') {
    if (!opts.script) throw new ProviderConfigError('the scripted provider needs a script');
    transport = new ScriptedTransport(opts.script, view.model.replace(/^scripted:/, ''));
  } else if (view.kind === 'openai') {
    transport = new OpenAITransport({
      baseUrl: baseUrl!,
      apiKey,
      model: view.model,
      mode: view.structuredOutput ?? 'json_schema',
      maxTokensField: profile.maxTokensField ?? 'max_tokens',
      headers: profile.headers,
    });
  } else {
    transport = new AnthropicTransport({
      baseUrl: baseUrl!,
      apiKey,
      model: view.model,
      headers: profile.headers,
    });
  }
  const maxRetries = envInt(env, 'DB8_MAX_RETRIES');
  const retry = RetryPolicySchema.parse({
    ...config.retry,
    ...(maxRetries !== undefined ? { maxRetries } : {}),
  });
  const settings: CallSettings = {
    profile: view.profile,
    endpoint: view.endpoint,
    scripted: view.kind === 'scripted',
    timeoutMs: envInt(env, 'DB8_TIMEOUT_MS') ?? profile.timeoutMs ?? config.timeoutMs ?? DEFAULTS.timeoutMs,
    retry,
    maxOutputTokens: profile.maxOutputTokens ?? config.maxOutputTokens ?? DEFAULTS.maxOutputTokens,
    temperature: profile.temperature !== undefined ? profile.temperature : (config.temperature ?? null),
    prices: config.prices ?? {},
    budget: opts.budget ?? new Budget(config.budget ?? {}),
    // Credentials written into the URL itself are secrets too: no record or error may repeat them.
    redactor: new Redactor([apiKey, ...urlSecrets(baseUrl)]),
    clock: opts.clock ?? Date.now,
    ...(opts.random ? { random: opts.random } : {}),
  };
  return new ModelProvider(transport, settings);
}
