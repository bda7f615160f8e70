import { z } from 'zod';

/**
 * The council's fixed roster (seed 001, Decision 3): exactly five roles, each one seat. The
 * `operator` seat is the person who asked the question; it is not a council role — it only
 * confirms the writeback (or aborts the run on a structural failure such as storage).
 */

export const ROLES = ['Proponent', 'Critic', 'Analyst', 'Synthesizer', 'Judge'] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

export const OPERATOR = 'operator';

/** Seat id of a role: its name in lower case (`proponent`, `critic`, …). */
export function seatOf(role: Role): string {
  return role.toLowerCase();
}

export function roleOfSeat(seat: string): Role | undefined {
  return ROLES.find((r) => seatOf(r) === seat);
}

/** Round 2: who challenges whom (seed 001). Every role challenges exactly one other role. */
export const CHALLENGE_MAP: Readonly<Record<Role, Role>> = {
  Proponent: 'Critic',
  Critic: 'Proponent',
  Analyst: 'Proponent',
  Synthesizer: 'Critic',
  Judge: 'Synthesizer',
};

/** The roles that challenge `role` in round 2, in roster order. */
export function challengersOf(role: Role): Role[] {
  return ROLES.filter((r) => CHALLENGE_MAP[r] === role);
}

/** What each role is for; drivers put this in the role's instructions. */
export const ROLE_BRIEFS: Readonly<Record<Role, string>> = {
  Proponent: 'Make the strongest honest case for acting on the question; name the conditions it needs.',
  Critic: 'Find what is wrong, missing or risky in the case for acting; argue the strongest objection.',
  Analyst: 'Weigh evidence, costs, numbers and trade-offs; separate what is known from what is assumed.',
  Synthesizer: 'Look for common ground and a position most roles could accept; say what still divides them.',
  Judge:
    'Stay impartial through the rounds; at the end decide, with rationale, risks and dated next actions.',
};
