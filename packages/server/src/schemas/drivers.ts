import { BudgetLimitsSchema } from '@db8/agents/budget';
import { z } from 'zod';

/**
 * What room creation may say about drivers: `drivers: { <seat>: { driver: 'model', provider,
 * model?, base_url?, api_key_env?, persona?, budget? } }`. A spec names a provider profile, never
 * a key: keys come only from the server's environment (docs/providers.md). A profile's key goes
 * only to the endpoint the operator configured for it; a `base_url` elsewhere gets the key named by
 * `api_key_env`, which must be one the operator set aside for drivers (DRIVER_KEY_PREFIX), so a
 * spec can never send OPENAI_API_KEY, the database URL or any other server secret to a URL of its
 * choosing. A `base_url` may still carry credentials (`user:pass@`, `?api-key=`): specs are shown
 * and logged only through redactDriverSpec (drivers/redact.ts).
 */

/** The only environment variables a driver spec may name as its key. */
export const DRIVER_KEY_PREFIX = 'DB8_DRIVER_KEY_';

export const DriverSpecSchema = z
  .object({
    driver: z.literal('model'),
    /** A provider profile: openai, anthropic, openrouter, ollama, vllm, llamacpp, scripted, … */
    provider: z.string().min(1).max(80),
    model: z.string().min(1).max(200).optional(),
    base_url: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .optional(),
    /** The variable holding the key for `base_url`: `DB8_DRIVER_KEY_<NAME>`. */
    api_key_env: z
      .string()
      .max(128)
      .regex(
        new RegExp(`^${DRIVER_KEY_PREFIX}[A-Z0-9_]+$`),
        `must name a ${DRIVER_KEY_PREFIX}<NAME> environment variable`,
      )
      .optional(),
    /** A line or two added to the system prompt ("a cautious economist"). */
    persona: z.string().max(2000).optional(),
    /** Limits for this seat; the room's total is `room_budget`. */
    budget: BudgetLimitsSchema.optional(),
  })
  .strict();
export type DriverSpec = z.infer<typeof DriverSpecSchema>;

export const DriversSchema = z
  .record(z.string().min(1).max(64), DriverSpecSchema)
  .refine((r) => Object.keys(r).length <= 64, 'at most 64 driven seats');
export type Drivers = z.infer<typeof DriversSchema>;

/** The `drivers` part of POST /v1/rooms (and an optional room-wide budget). */
export const DriversBodySchema = z.object({
  drivers: DriversSchema.optional(),
  room_budget: BudgetLimitsSchema.optional(),
});

export { BudgetLimitsSchema };
