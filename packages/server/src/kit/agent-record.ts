import { z } from 'zod';
import type { ModuleContext } from './module.ts';

/**
 * An agent's record in one protocol (issue 28, "One identity"): what a protocol module contributes
 * to GET /v1/agents/:id through `ProtocolModule.agentRecord`. The platform hands the module only the
 * seats the asker may link to the agent — seats in rooms that have closed (a room's holders are
 * sealed until then; a debate unmasks its seats in its close entry), or every seat for an admin —
 * so a profile never unmasks a seat before its room does. The module reads those rooms (their
 * public views or its own public tables) and answers one section in this shape, or null.
 */

/** One room of the agent's record, in words the web shows as they are. */
export const AgentRoomRecordSchema = z.object({
  room_id: z.string(),
  title: z.string().nullable(),
  seat: z.string(),
  role: z.string(),
  status: z.enum(['open', 'closed']),
  /** When the room closed (unix ms), null while it runs. */
  closed_at: z.number().int().nullable(),
  /** The agent's result in words: `2nd of 5`, `won at 120`, `+340 chips over 52 hands`, `took part`. */
  outcome: z.string(),
  /** True when the agent won this room, false when someone else did, null where nobody wins. */
  won: z.boolean().nullable(),
  /** Its place where the protocol ranks (1 = first), else null. */
  place: z.number().int().nullable(),
});
export type AgentRoomRecord = z.infer<typeof AgentRoomRecordSchema>;

/** One headline figure of a section (`rating 1532`, `net chips +340`). */
export const AgentStatSchema = z.object({
  label: z.string(),
  value: z.union([z.number(), z.string()]),
});

export const AgentRecordSectionSchema = z.object({
  protocol: z.string(),
  /** Rooms the record counts. */
  rooms: z.number().int(),
  /** Rooms won, where the protocol has winners (null where it has none, e.g. a council). */
  wins: z.number().int().nullable(),
  stats: z.array(AgentStatSchema),
  /** Newest first. */
  matches: z.array(AgentRoomRecordSchema),
  /** The protocol's own extra (debate: ratings by topic), typed by its `detail` schema. */
  detail: z.unknown().optional(),
});
export type AgentRecordSection = z.infer<typeof AgentRecordSectionSchema>;

/** A seat the agent holds, as the platform hands it to the module (rooms of its protocol only). */
export interface AgentSeat {
  roomId: string;
  title: string | null;
  seat: string;
  role: string;
  status: 'open' | 'closed';
  closedAt: number | null;
}

export interface AgentRecordQuery {
  /** The principal id. */
  principal: string;
  /** Its seats in this protocol's rooms that the asker may link to it (see above). */
  seats: readonly AgentSeat[];
  /** The asker is an admin (an admin's seats include open rooms, and the views read may be the admin's). */
  admin: boolean;
}

/** What a protocol implements to show its part of an agent's profile. */
export interface AgentRecordSource {
  /**
   * The section's `detail` (zod): the platform parses the section with it before serving, so a
   * field the schema does not name never leaves the server. Absent: no detail is served.
   */
  detail?: z.ZodType;
  /**
   * The section for this agent, or null when it has no record in this protocol. Called with the
   * module's own context (the one its `routes` got), so it may use what its routes built.
   */
  read(q: AgentRecordQuery, ctx: ModuleContext): Promise<AgentRecordSection | null>;
}

/** `1st`, `2nd`, `3rd`, `4th`… */
export function ordinal(n: number): string {
  if (n % 100 >= 11 && n % 100 <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

/** A section from rooms: counts the rooms and wins, newest first. */
export function sectionOf(
  protocol: string,
  matches: readonly AgentRoomRecord[],
  stats: ReadonlyArray<z.infer<typeof AgentStatSchema>> = [],
  opts: { winners?: boolean; detail?: unknown } = {},
): AgentRecordSection | null {
  if (matches.length === 0 && opts.detail === undefined) return null;
  const sorted = [...matches].sort((a, b) => (b.closed_at ?? Infinity) - (a.closed_at ?? Infinity));
  return {
    protocol,
    rooms: matches.length,
    wins: opts.winners === false ? null : matches.filter((m) => m.won === true).length,
    stats: [...stats],
    matches: sorted,
    ...(opts.detail !== undefined ? { detail: opts.detail } : {}),
  };
}

/** A record row for `seat` with the module's outcome. */
export function roomRecord(
  seat: AgentSeat,
  r: { outcome: string; won?: boolean | null; place?: number | null },
): AgentRoomRecord {
  return {
    room_id: seat.roomId,
    title: seat.title,
    seat: seat.seat,
    role: seat.role,
    status: seat.status,
    closed_at: seat.closedAt,
    outcome: r.outcome,
    won: r.won ?? null,
    place: r.place ?? null,
  };
}
