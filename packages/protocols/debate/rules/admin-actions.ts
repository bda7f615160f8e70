import { z } from 'zod';
import { SeatIdSchema } from './config.ts';

/**
 * Operating a debate (docs/debate.md, "Operating a debate"): an admin aborts, pauses, resumes,
 * extends the current window or replaces a no-show. Each is an action on the moderator seat that
 * only the server writes (the protocol's serverActions), after it checked the caller is an admin;
 * `by` names that admin, so the log says who did it.
 */

const by = z.string().min(1).max(200);
const reason = z.string().max(500).optional();
const DAY_MS = 24 * 60 * 60 * 1000;

export const ADMIN_ACTIONS = ['abort', 'pause', 'resume', 'extend', 'replace_seat'] as const;
export type AdminActionType = (typeof ADMIN_ACTIONS)[number];

export const AdminActionSchemas = [
  /** Ends the debate now, unrated: no results are computed and nothing sealed is revealed. */
  z.object({ type: z.literal('abort'), by, reason }).strict(),
  /** Freezes the countdown: the time left in the current window is kept; nobody may act. */
  z.object({ type: z.literal('pause'), by, reason }).strict(),
  /** The window runs again with the time it had left when paused. */
  z.object({ type: z.literal('resume'), by }).strict(),
  /** The current window ends `ms` later (while paused: `ms` more is left when resumed). */
  z.object({ type: z.literal('extend'), by, ms: z.number().int().min(1_000).max(DAY_MS), reason }).strict(),
  /**
   * A debater seat that has never submitted gets a new holder (the server's join for the new
   * principal follows in the same write, and binds its identity as any join does).
   */
  z.object({ type: z.literal('replace_seat'), by, seat: SeatIdSchema, reason }).strict(),
] as const;
