export { AnthropicTransport, type AnthropicTransportOptions } from './anthropic.ts';
export {
  Budget,
  type BudgetConfig,
  BudgetConfigSchema,
  type BudgetLimits,
  BudgetLimitsSchema,
  MIN_OUTPUT_TOKENS,
  type Reservation,
  type Spent,
} from './budget.ts';
export { type CallSettings, parseReply, repairPrompt, structuredCall, type Transport } from './call.ts';
export {
  BUILTIN_PROFILES,
  type CreateProviderOptions,
  createProvider,
  type Db8Config,
  Db8ConfigSchema,
  DEFAULTS,
  loadConfigFile,
  type Profile,
  ProfileSchema,
  type ProtocolSection,
  ProtocolSectionSchema,
  type ProviderChoice,
  ProviderConfigError,
  protocolSection,
  type ResolvedProvider,
  resolveProvider,
  StructuredModeSchema,
} from './config.ts';
export { codeForStatus, retryAfterMs, TransportError } from './errors.ts';
export { isStrictCompatible, toWireSchema } from './json-schema.ts';
export { type OpenAIStructuredMode, OpenAITransport, type OpenAITransportOptions } from './openai.ts';
export { costOf, type PriceTable, PriceTableSchema, priceFor } from './pricing.ts';
export { ModelProvider } from './provider.ts';
export { REDACTED, Redactor, redactUrl, safeEndpoint } from './redact.ts';
export { backoffMs, type RetryPolicy, RetryPolicySchema, sleep } from './retry.ts';
export { type Script, ScriptedTransport, type ScriptStep } from './scripted.ts';
export * from './types.ts';
