import type { SeatInfo } from '@db8/core';
import { z } from 'zod';
import { OPERATOR, ROLES, RoleSchema, seatOf } from './roles.ts';

/** One seat of the roster: which provider and model play a role. Keys never appear here. */
export const RosterEntrySchema = z
  .object({
    role: RoleSchema,
    /** Provider label, e.g. `openai`, `anthropic`, `openrouter`, `scripted`. */
    provider: z.string().min(1).max(80),
    model: z.string().min(1).max(200),
    /** True when the role is played by the scripted provider (demos, tests): never model output. */
    scripted: z.boolean(),
  })
  .strict();
export type RosterEntry = z.infer<typeof RosterEntrySchema>;

const MINUTE = 60_000;

/** The request (seed 001 "Intake"): one question, optional context, and who plays each role. */
export const CouncilConfigSchema = z
  .object({
    runId: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,79}$/),
    question: z.string().trim().min(1).max(4000),
    context: z.string().max(20_000).default(''),
    /** Writeback record type (seed open question): `decision` by default, `worklog` for writing work. */
    outputType: z.enum(['decision', 'worklog']).default('decision'),
    /** Exactly the five roles, in roster order. */
    roster: z
      .array(RosterEntrySchema)
      .length(ROLES.length)
      .refine((r) => r.every((e, i) => e.role === ROLES[i]), {
        message: `roster must list ${ROLES.join(', ')} in that order`,
      }),
    /** How long each stage waits for its turns before the missing ones count as timed out. */
    stageWindowMs: z
      .number()
      .int()
      .min(1)
      .max(24 * 60 * MINUTE)
      .default(10 * MINUTE),
    /**
     * The packet reports tokens and cost (its `usage`). New runs set it (the CLI and the server);
     * a run made before it was added folds without it, so its stored packet still replays.
     */
    usageInPacket: z.boolean().default(false),
    /** Set on a re-run (`db8 council rerun`): the degraded run whose successful turns it reused. */
    rerunOf: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,79}$/)
      .optional(),
  })
  .strict();
export type CouncilConfig = z.infer<typeof CouncilConfigSchema>;

export function councilSeats(_config: CouncilConfig): SeatInfo[] {
  return [...ROLES.map((role) => ({ id: seatOf(role), role })), { id: OPERATOR, role: 'operator' }];
}
