import type { SeatInfo } from '@db8/core';
import { z } from 'zod';

/**
 * `deliberation` (seed 004, HelixAgent's debate): the config. Every knob has upstream's default
 * (internal/debate: 3 rounds, 0.75 consensus, early stop on, 60 s phase timeout, 5 min session,
 * max parallelism 8, dehallucination skipped at 0.9 within 3 passes, 2 self-evolvement passes,
 * adversarial stop at risk < 0.2 or 3 passes, 3 reflexion attempts).
 */

export const PHASES = [
  'dehallucination',
  'self_evolvement',
  'proposal',
  'critique',
  'review',
  'optimization',
  'adversarial',
  'convergence',
] as const;
export const PhaseSchema = z.enum(PHASES);
export type Phase = z.infer<typeof PhaseSchema>;

export const ROLES = [
  'proposer',
  'generator',
  'critic',
  'reviewer',
  'optimizer',
  'refactorer',
  'moderator',
  'architect',
  'security',
  'test_agent',
  'validator',
  'red_team',
  'blue_team',
  'teacher',
] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

export const TopologySchema = z.enum(['graph_mesh', 'star', 'chain', 'tree']);
export type Topology = z.infer<typeof TopologySchema>;
export const CoordinationSchema = z.enum(['cpde', 'dpde', 'adaptive']);
export type Coordination = z.infer<typeof CoordinationSchema>;
export const VotingMethodSchema = z.enum([
  'weighted',
  'majority',
  'plurality',
  'borda',
  'condorcet',
  'unanimous',
]);
export type VotingMethod = z.infer<typeof VotingMethodSchema>;

/** The seat that decides gates and records sandbox measurements (never a debater). */
export const OPERATOR = 'operator';
const SeatId = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,39}$/)
  .refine((s) => s !== OPERATOR, { message: `${OPERATOR} is reserved` });

export const SeatSpecSchema = z
  .object({
    id: SeatId,
    role: RoleSchema,
    provider: z.string().min(1).max(80),
    model: z.string().min(1).max(200),
    /** LLMsVerifier-style score (0–10): leader selection, tie-breaks, vote weight. */
    score: z.number().min(0).max(10),
    /** e.g. `code`, `reasoning`, `security`; null when general. */
    specialization: z.string().max(80).nullable().default(null),
  })
  .strict();
export type SeatSpec = z.infer<typeof SeatSpecSchema>;

export const PhaseOverrideSchema = z
  .object({
    timeoutMs: z.number().int().min(1).max(86_400_000).optional(),
    minResponses: z.number().int().min(0).max(64).optional(),
    maxParallelism: z.number().int().min(1).max(64).optional(),
    /** When non-empty, only seats of these roles take part, and each must answer at least once. */
    requiredRoles: z.array(RoleSchema).max(ROLES.length).optional(),
    /** The prompt drivers give the phase (the protocol only carries it). */
    prompt: z.string().max(8000).optional(),
    enabled: z.boolean().optional(),
  })
  .strict();
export type PhaseOverride = z.infer<typeof PhaseOverrideSchema>;

/** Responses a phase needs by default (upstream: critique and review ≥ 2, convergence ≥ 3). */
export const DEFAULT_MIN_RESPONSES: Record<Phase, number> = {
  dehallucination: 1,
  self_evolvement: 1,
  proposal: 1,
  critique: 2,
  review: 2,
  optimization: 1,
  adversarial: 1,
  convergence: 3,
};

/**
 * A lesson from earlier sessions given to the seats (docs/deliberation.md#lessons-given): the
 * server fills `lessons` when the room is created, by full-text search over the task; being part
 * of the config, which lessons were given is in the log's first entry and replay needs no lesson
 * bank.
 */
export const GivenLessonSchema = z
  .object({
    id: z.string().min(1).max(64),
    title: z.string().max(300),
    solution: z.string().max(8000),
    category: z.string().max(30),
    tier: z.string().max(20),
    score: z.number().min(0).max(1),
  })
  .strict();
export type GivenLesson = z.infer<typeof GivenLessonSchema>;
export const MAX_GIVEN_LESSONS = 5;

export const DeliberationConfigSchema = z
  .object({
    sessionId: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,79}$/),
    topic: z.string().trim().min(1).max(8000),
    task: z
      .object({
        kind: z.enum(['text', 'code']).default('text'),
        language: z.string().max(40).nullable().default(null),
        /** Complexity hint (0–1) for adaptive coordination. */
        complexity: z.number().min(0).max(1).default(0.5),
        /** Prior confidence in the task statement; ≥ the skip threshold skips dehallucination. */
        confidence: z.number().min(0).max(1).default(0),
        /**
         * The task's tests (code tasks): an ES module the server's sandbox runs against each code
         * version (docs/deliberation.md#sandbox). The protocol only carries it.
         */
        tests: z.string().max(100_000).nullable().default(null),
      })
      .strict()
      .default({ kind: 'text', language: null, complexity: 0.5, confidence: 0, tests: null }),
    seats: z
      .array(SeatSpecSchema)
      .min(3)
      .max(16)
      .refine((s) => new Set(s.map((x) => x.id)).size === s.length, { message: 'seat ids must be unique' }),
    maxRounds: z.number().int().min(1).max(10).default(3),
    /** The whole session (paused time excluded). */
    timeoutMs: z
      .number()
      .int()
      .min(1)
      .max(7 * 86_400_000)
      .default(300_000),
    phaseTimeoutMs: z.number().int().min(1).max(86_400_000).default(60_000),
    minConsensus: z.number().min(0).max(1).default(0.75),
    earlyStop: z.boolean().default(true),
    maxParallelism: z.number().int().min(1).max(64).default(8),
    phases: z.partialRecord(PhaseSchema, PhaseOverrideSchema).default({}),
    topology: TopologySchema.default('graph_mesh'),
    treeBranching: z.number().int().min(1).max(8).default(2),
    coordination: CoordinationSchema.default('adaptive'),
    voting: VotingMethodSchema.default('weighted'),
    gates: z
      .object({
        /** The session pauses when one of these phases closes, until a reviewer decides. */
        phases: z.array(PhaseSchema).default([]),
        /** Seats allowed to approve or reject (the operator seat by default). */
        reviewers: z.array(z.string().min(1).max(40)).min(1).default([OPERATOR]),
        timeoutMs: z
          .number()
          .int()
          .min(1)
          .max(7 * 86_400_000)
          .default(3_600_000),
        onTimeout: z.enum(['approve', 'reject']).default('reject'),
      })
      .strict()
      .default({ phases: [], reviewers: [OPERATOR], timeoutMs: 3_600_000, onTimeout: 'reject' }),
    dehallucination: z
      .object({
        skipConfidence: z.number().min(0).max(1).default(0.9),
        maxPasses: z.number().int().min(1).max(10).default(3),
      })
      .strict()
      .default({ skipConfidence: 0.9, maxPasses: 3 }),
    selfEvolvement: z
      .object({ maxPasses: z.number().int().min(1).max(10).default(2) })
      .strict()
      .default({ maxPasses: 2 }),
    adversarial: z
      .object({
        maxPasses: z.number().int().min(1).max(10).default(3),
        riskThreshold: z.number().min(0).max(1).default(0.2),
      })
      .strict()
      .default({ maxPasses: 3, riskThreshold: 0.2 }),
    reflexion: z
      .object({ maxAttempts: z.number().int().min(0).max(10).default(3) })
      .strict()
      .default({ maxAttempts: 3 }),
    lessons: z.array(GivenLessonSchema).max(MAX_GIVEN_LESSONS).default([]),
    /** Model seats may call tools (run the tests on a draft, read a version, search the lessons) before drafting. */
    tools: z.boolean().default(false),
  })
  .strict();
export type DeliberationConfig = z.infer<typeof DeliberationConfigSchema>;

export interface PhaseSettings {
  enabled: boolean;
  timeoutMs: number;
  minResponses: number;
  maxParallelism: number;
  requiredRoles: Role[];
  prompt: string | null;
}

/** A phase's effective settings: its override over the session defaults. */
export function phaseSettings(config: DeliberationConfig, phase: Phase): PhaseSettings {
  const o = config.phases[phase] ?? {};
  return {
    enabled: o.enabled ?? true,
    timeoutMs: o.timeoutMs ?? config.phaseTimeoutMs,
    minResponses: o.minResponses ?? DEFAULT_MIN_RESPONSES[phase],
    maxParallelism: o.maxParallelism ?? config.maxParallelism,
    requiredRoles: o.requiredRoles ?? [],
    prompt: o.prompt ?? null,
  };
}

export function deliberationSeats(config: DeliberationConfig): SeatInfo[] {
  return [...config.seats.map((s) => ({ id: s.id, role: s.role })), { id: OPERATOR, role: 'operator' }];
}
