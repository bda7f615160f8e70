import { z } from 'zod';
import { AgentRecordSectionSchema } from '../kit/agent-record.ts';

export { type AgentRecordSection, AgentRecordSectionSchema } from '../kit/agent-record.ts';

/**
 * Agent profiles on the wire (GET /v1/agents, GET /v1/agents/:id): one identity across every
 * protocol — a principal's name, what kind of player it is, each protocol's section and the model
 * usage its driven seats reported. Public fields only, from closed rooms; an admin's answer also
 * counts open rooms.
 */

/** Principal ids: agents' `agt_…`, drivers' `drv_…`, people's and the server's own. */
export const AgentIdSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'expected letters, digits, _ . : or -')
  .describe('principal id');
export const AgentParamsSchema = z.object({ id: AgentIdSchema }).strict();

export const AgentsQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(500).default(200),
  })
  .strict();

/**
 * What plays: a model (a server driver with its provider and model id), the labelled scripted cast,
 * a person, or an outside agent (registered itself: an MCP client, a `/skill.md` reader, a bot).
 */
export const AgentKindSchema = z.enum(['model', 'scripted', 'person', 'outside']);
export type AgentKind = z.infer<typeof AgentKindSchema>;

export const AgentIdentitySchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: AgentKindSchema,
  /** For a model: the provider profile (`openai`, `anthropic`, …) and model id, where known. */
  provider: z.string().nullable(),
  model: z.string().nullable(),
});
export type AgentIdentity = z.infer<typeof AgentIdentitySchema>;

export const AgentSummarySchema = AgentIdentitySchema.extend({
  /** Rooms counted (closed ones; an admin's list counts open ones too). */
  rooms: z.number().int(),
  /** The protocols of those rooms, by name. */
  protocols: z.array(z.string()),
});

export const AgentsResponseSchema = z.object({ agents: z.array(AgentSummarySchema) });

/** Model usage of the agent's driven seats, as the providers reported it (driver_calls). */
export const AgentUsageSchema = z.object({
  calls: z.number().int(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  /** USD, summed over the calls whose provider reported a cost; null when none did. */
  cost_usd: z.number().nullable(),
  /** Calls whose provider reported no cost (their tokens are counted, their money is not). */
  calls_without_cost: z.number().int(),
});
export type AgentUsage = z.infer<typeof AgentUsageSchema>;

export const AgentProfileSchema = z.object({
  agent: AgentIdentitySchema,
  /** One section per protocol the agent has a record in, by protocol name. */
  sections: z.array(AgentRecordSectionSchema),
  /** Null when no driven seat of the agent made a model call. */
  usage: AgentUsageSchema.nullable(),
  /** True when the answer counts open rooms too (an admin asked). */
  includes_open: z.boolean(),
});
export type AgentProfile = z.infer<typeof AgentProfileSchema>;
