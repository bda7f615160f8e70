import { resolveProvider } from '@db8/agents';
import { type DriverSpec, DriverSpecSchema } from '@db8/server/kit';
import { z } from 'zod';
import {
  CoordinationSchema,
  type DeliberationView,
  PhaseSchema,
  RoleSchema,
  TopologySchema,
  VotingMethodSchema,
} from '../rules/index.ts';

/**
 * The deliberation REST API's request shapes (zod, so a bad body, query or param is a 400
 * VALIDATION_FAILED), the mapping of a create body onto a room config and its drivers, and the
 * status a debate reports. Split from routes.ts, which mounts the routes.
 */

const SeatName = z.string().regex(/^[a-z][a-z0-9_-]{0,39}$/);

export const ParticipantSchema = z
  .object({
    /** The seat id (default `<role>_<n>`). */
    name: SeatName.optional(),
    role: RoleSchema,
    /** A provider profile the server drives the seat with (scripted, openai, ollama, …), or `remote`. */
    provider: z.string().min(1).max(80).default('scripted'),
    model: z.string().min(1).max(200).optional(),
    base_url: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .optional(),
    /** The variable holding the key for `base_url` (docs/drivers.md: DB8_DRIVER_KEY_<NAME> only). */
    api_key_env: DriverSpecSchema.shape.api_key_env,
    persona: z.string().max(2000).optional(),
    /** LLMsVerifier-style score (0–10). */
    score: z.number().min(0).max(10).default(8),
    specialization: z.string().max(80).nullable().default(null),
  })
  .strict();

export const CreateDebateBodySchema = z
  .object({
    topic: z.string().trim().min(1).max(8000),
    participants: z.array(ParticipantSchema).min(3).max(16),
    title: z.string().max(200).optional(),
    max_rounds: z.number().int().min(1).max(10).optional(),
    /** Whole-session timeout in seconds. */
    timeout: z.number().int().min(1).max(604_800).optional(),
    phase_timeout: z.number().int().min(1).max(86_400).optional(),
    min_consensus: z.number().min(0).max(1).optional(),
    early_stop: z.boolean().optional(),
    topology_type: TopologySchema.optional(),
    coordination_protocol: CoordinationSchema.optional(),
    voting_method: VotingMethodSchema.optional(),
    enable_dehallucination: z.boolean().default(true),
    enable_self_evolvement: z.boolean().default(true),
    enable_adversarial: z.boolean().default(true),
    enable_approval_gates: z.boolean().default(false),
    /** Phases that pause for approval (default: proposal, when gates are on). */
    gate_phases: z.array(PhaseSchema).max(8).optional(),
    /** Gate timeout in seconds and what it does then. */
    gate_timeout: z.number().int().min(1).max(604_800).optional(),
    gate_on_timeout: z.enum(['approve', 'reject']).optional(),
    reflexion_attempts: z.number().int().min(0).max(10).optional(),
    /** Model seats may call tools before drafting (config `tools`). */
    enable_tools: z.boolean().optional(),
    task: z
      .object({
        kind: z.enum(['text', 'code']).default('text'),
        language: z.string().max(40).nullable().optional(),
        complexity: z.number().min(0).max(1).optional(),
        confidence: z.number().min(0).max(1).optional(),
        tests: z.string().max(100_000).nullable().optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type CreateDebateBody = z.infer<typeof CreateDebateBodySchema>;

export const IdParams = z.object({ id: z.string().min(1).max(128) }).strict();
export const ReasonBody = z.object({ reason: z.string().max(2000).default('') }).strict();
export const RejectBody = z.object({ reason: z.string().min(1).max(2000) }).strict();
export const ListQuery = z
  .object({
    status: z.enum(['open', 'closed']).optional(),
    limit: z.coerce.number().int().min(1).max(500).default(100),
  })
  .strict();

/** Room config and drivers for an upstream-shaped create body. */
export function debateToRoom(
  body: CreateDebateBody,
  env: Readonly<Record<string, string | undefined>>,
  sessionId: string,
): { config: Record<string, unknown>; drivers: Record<string, DriverSpec> } {
  const counts = new Map<string, number>();
  const drivers: Record<string, DriverSpec> = {};
  const seats = body.participants.map((p) => {
    const n = (counts.get(p.role) ?? 0) + 1;
    counts.set(p.role, n);
    const id = p.name ?? `${p.role.replace(/_/g, '-')}-${n}`;
    if (p.provider === 'remote')
      return {
        id,
        role: p.role,
        provider: 'remote',
        model: p.model ?? 'remote',
        score: p.score,
        specialization: p.specialization,
      };
    const r = resolveProvider({
      env,
      provider: p.provider,
      ...(p.model ? { model: p.model } : {}),
      ...(p.base_url ? { baseUrl: p.base_url } : {}),
      ...(p.api_key_env ? { apiKeyEnv: p.api_key_env } : {}),
    });
    drivers[id] = {
      driver: 'model',
      provider: p.provider,
      ...(p.model ? { model: p.model } : {}),
      ...(p.base_url ? { base_url: p.base_url } : {}),
      ...(p.api_key_env ? { api_key_env: p.api_key_env } : {}),
      ...(p.persona ? { persona: p.persona } : {}),
    };
    return {
      id,
      role: p.role,
      provider: r.profile,
      model: r.model,
      score: p.score,
      specialization: p.specialization,
    };
  });
  const phases: Record<string, { enabled: boolean }> = {};
  if (!body.enable_dehallucination) phases.dehallucination = { enabled: false };
  if (!body.enable_self_evolvement) phases.self_evolvement = { enabled: false };
  if (!body.enable_adversarial) phases.adversarial = { enabled: false };
  const config: Record<string, unknown> = {
    sessionId,
    topic: body.topic,
    seats,
    phases,
    ...(body.max_rounds !== undefined ? { maxRounds: body.max_rounds } : {}),
    ...(body.timeout !== undefined ? { timeoutMs: body.timeout * 1000 } : {}),
    ...(body.phase_timeout !== undefined ? { phaseTimeoutMs: body.phase_timeout * 1000 } : {}),
    ...(body.min_consensus !== undefined ? { minConsensus: body.min_consensus } : {}),
    ...(body.early_stop !== undefined ? { earlyStop: body.early_stop } : {}),
    ...(body.topology_type ? { topology: body.topology_type } : {}),
    ...(body.coordination_protocol ? { coordination: body.coordination_protocol } : {}),
    ...(body.voting_method ? { voting: body.voting_method } : {}),
    ...(body.reflexion_attempts !== undefined ? { reflexion: { maxAttempts: body.reflexion_attempts } } : {}),
    ...(body.enable_tools !== undefined ? { tools: body.enable_tools } : {}),
    ...(body.task ? { task: body.task } : {}),
  };
  if (body.enable_approval_gates)
    config.gates = {
      phases: body.gate_phases ?? ['proposal'],
      ...(body.gate_timeout !== undefined ? { timeoutMs: body.gate_timeout * 1000 } : {}),
      ...(body.gate_on_timeout ? { onTimeout: body.gate_on_timeout } : {}),
    };
  return { config, drivers };
}

export const iso = (ms: number | null | undefined) =>
  ms === null || ms === undefined ? null : new Date(ms).toISOString();

export function statusOf(view: DeliberationView) {
  const phases = view.config.maxRounds * 8;
  const done = view.phases.filter((p) => p.closedAt !== null).length;
  const over = ['completed', 'failed', 'cancelled'].includes(view.status);
  return {
    status: view.status,
    current_round: view.round,
    total_rounds: view.config.maxRounds,
    phase: view.phase,
    step: view.step,
    pass: view.pass,
    progress: over ? 100 : Math.min(99.9, Math.round((1000 * done) / phases) / 10),
    waiting_for: view.waitingFor,
    deadline: iso(view.deadline),
  };
}
