import { BudgetLimitsSchema } from '@db8/agents/budget';
import { z } from 'zod';

/**
 * What room creation may say about drivers: `drivers: { <seat>: { driver: 'model', provider,
 * model?, base_url?, persona?, budget? } }`. A spec names a provider profile, never a key: keys
 * come only from the server's environment (docs/providers.md), so a stored spec is safe to show.
 */

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
