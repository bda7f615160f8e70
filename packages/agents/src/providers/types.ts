import { z } from 'zod';

/**
 * The provider contract. A provider turns one structured request (instructions + a zod schema)
 * into a validated value or a recorded failure; it never throws for a failed call, and what it
 * records (CallRecord) never contains a key.
 */

export const ProviderKindSchema = z.enum(['openai', 'anthropic', 'scripted']);
export type ProviderKind = z.infer<typeof ProviderKindSchema>;

export const CALL_ERROR_CODES = [
  /** The per-attempt timeout elapsed (after retries). */
  'timeout',
  /** 429 after retries. */
  'rate_limited',
  /** 5xx after retries. */
  'server_error',
  /** Any other HTTP error (400, 404, 422…): not retried. */
  'http_error',
  /** 401/403: bad or missing key. Not retried. */
  'auth',
  /** Connection refused, reset, DNS… (after retries). */
  'network',
  /** The response body was not the wire format (truncated or malformed JSON), after retries. */
  'malformed_response',
  /** The model's reply did not parse or validate, even after the repair attempt. */
  'invalid_output',
  /** A seat or room budget (tokens, cost, calls) would be exceeded. */
  'budget_exceeded',
  /** The caller's AbortSignal fired. */
  'aborted',
  /** A scripted provider ran out of scripted replies. */
  'script_exhausted',
] as const;
export const CallErrorCodeSchema = z.enum(CALL_ERROR_CODES);
export type CallErrorCode = z.infer<typeof CallErrorCodeSchema>;

export const UsageSchema = z
  .object({ inputTokens: z.number().int().nonnegative(), outputTokens: z.number().int().nonnegative() })
  .strict();
export type Usage = z.infer<typeof UsageSchema>;

export const AttemptSchema = z
  .object({
    /** `initial` (and its retries) or the one `repair` request after an invalid reply. */
    phase: z.enum(['initial', 'repair']),
    n: z.number().int().positive(),
    /** HTTP status when there was a response, else null. */
    status: z.number().int().nullable(),
    outcome: z.enum(['reply', 'retry', 'error']),
    error: CallErrorCodeSchema.nullable(),
    durationMs: z.number().int().nonnegative(),
    /** The wait before the next attempt (retry-after or backoff), when there is one. */
    waitMs: z.number().int().nonnegative().nullable(),
    usage: UsageSchema.nullable(),
    finish: z.string().nullable(),
  })
  .strict();
export type Attempt = z.infer<typeof AttemptSchema>;

export const CallErrorSchema = z
  .object({
    code: CallErrorCodeSchema,
    message: z.string().max(2000),
    status: z.number().int().nullable(),
    /** For invalid_output: what failed validation (paths and messages). */
    issues: z.array(z.string()).max(20),
  })
  .strict();
export type CallError = z.infer<typeof CallErrorSchema>;

/** Everything recorded about one structured call. Safe to log, store and export: it holds no key. */
export const CallRecordSchema = z
  .object({
    provider: ProviderKindSchema,
    /** The profile name that configured it (`openai`, `openrouter`, `ollama`, …). */
    profile: z.string(),
    model: z.string(),
    /** Base URL without credentials, query or fragment; null for scripted. */
    endpoint: z.string().nullable(),
    /** True for the scripted provider: the value was scripted, not produced by a model. */
    scripted: z.boolean(),
    schemaName: z.string(),
    seat: z.string().nullable(),
    startedAt: z.number().int(),
    durationMs: z.number().int().nonnegative(),
    attempts: z.array(AttemptSchema),
    usage: UsageSchema,
    /** USD at the configured price; null when the model has no price. */
    costUsd: z.number().nonnegative().nullable(),
    repaired: z.boolean(),
    ok: z.boolean(),
    error: CallErrorSchema.nullable(),
  })
  .strict();
export type CallRecord = z.infer<typeof CallRecordSchema>;

export interface StructuredRequest<T> {
  /** Names the schema to the model (tool / json_schema name): letters, digits, `_` and `-`. */
  schemaName: string;
  schema: z.ZodType<T>;
  /** One line on what the schema is for; sent as the tool / schema description. */
  description?: string;
  system: string;
  prompt: string;
  /** Who the call is for: the budget's seat key and the record's `seat`. */
  seat?: string;
  signal?: AbortSignal;
  /** Overrides the provider's default output-token cap for this call. */
  maxOutputTokens?: number;
}

export type CallOutcome<T> =
  | { ok: true; value: T; record: CallRecord }
  | { ok: false; error: CallError; record: CallRecord };

export interface Provider {
  readonly kind: ProviderKind;
  readonly profile: string;
  readonly model: string;
  /** Base URL without credentials; null for scripted. */
  readonly endpoint: string | null;
  readonly scripted: boolean;
  /** One structured call. Never throws for call failures: they come back as `{ ok: false }`. */
  call<T>(request: StructuredRequest<T>): Promise<CallOutcome<T>>;
}

/** A message of the wire conversation (system text is sent separately). */
export interface WireMessage {
  role: 'user' | 'assistant';
  content: string;
}

/** What the call pipeline hands a transport for one HTTP attempt. */
export interface WireRequest {
  system: string;
  messages: WireMessage[];
  schemaName: string;
  description: string;
  /** JSON Schema of the expected reply (from z.toJSONSchema, `$schema` removed). */
  jsonSchema: Record<string, unknown>;
  /** True when the JSON Schema meets OpenAI's strict structured-output rules. */
  strict: boolean;
  maxOutputTokens: number;
  temperature: number | null;
}

/** One transport reply: the JSON text the model produced (tool arguments or message text). */
export interface WireReply {
  text: string | null;
  usage: Usage;
  /** Normalised stop reason: `stop`, `length`, `tool`, or the provider's own word. */
  finish: string | null;
  status: number;
}
