import { z } from 'zod';
import type { SqlDriver } from './driver.ts';
import { PrincipalRowSchema } from './schemas.ts';

/**
 * The reads behind agent profiles (routes/agents.ts): a principal's seats with their rooms, the
 * principals that hold seats, and the model usage of a principal's driven seats. Plain SQL over the
 * platform's tables (rooms, seats, principals, driver_calls), one query each.
 */

const n = z.coerce.number();

const HeldSeatSchema = z
  .object({
    room_id: z.string(),
    seat: z.string(),
    role: z.string(),
    protocol: z.string(),
    title: z.string().nullable(),
    status: z.enum(['open', 'closed']),
    closed_at: n.nullable(),
  })
  .transform((r) => ({
    roomId: r.room_id,
    seat: r.seat,
    role: r.role,
    protocol: r.protocol,
    title: r.title,
    status: r.status,
    closedAt: r.closed_at,
  }));
export type HeldSeat = z.output<typeof HeldSeatSchema>;

const HolderSchema = z.object({
  principal: PrincipalRowSchema,
  rooms: n,
  protocols: z.array(z.string()),
});
export type Holder = z.output<typeof HolderSchema>;

const UsageSchema = z.object({
  calls: n,
  input_tokens: n,
  output_tokens: n,
  cost_usd: n.nullable(),
  calls_without_cost: n,
});

export class AgentRecordsRepo {
  constructor(private readonly db: SqlDriver) {}

  /**
   * Every seat `principal` holds, and every room that names it without a seat (room_links: a
   * tournament's entrant, a swarm answer's author), with its room, oldest room first.
   */
  async seatsOf(principal: string): Promise<HeldSeat[]> {
    const rows = await this.db.query(
      `SELECT room_id, seat, role, protocol, title, status, closed_at FROM (
         SELECT s.room_id, s.seat, s.role, r.protocol, r.title, r.status, r.closed_at, r.created_at, s.ord
         FROM seats s JOIN rooms r ON r.id = s.room_id WHERE s.principal_id = $1
         UNION ALL
         SELECT l.room_id, l.label, l.role, r.protocol, r.title, r.status, r.closed_at, r.created_at, 0
         FROM room_links l JOIN rooms r ON r.id = l.room_id WHERE l.principal_id = $1
       ) held ORDER BY created_at, room_id, ord, seat`,
      [principal],
    );
    return rows.map((r) => HeldSeatSchema.parse(r));
  }

  /**
   * Agents and people holding a seat, most rooms first: in closed rooms only (`closedOnly`, what
   * anyone may know), or in any room (an admin's list).
   */
  async holders(opts: { closedOnly: boolean; limit: number }): Promise<Holder[]> {
    const rows = await this.db.query<Record<string, unknown>>(
      `SELECT p.id, p.kind, p.display_name, p.meta_json, p.created_at, p.disabled_at,
              count(DISTINCT s.room_id) AS rooms, array_agg(DISTINCT r.protocol) AS protocols
       FROM principals p
       JOIN (SELECT principal_id, room_id FROM seats UNION SELECT principal_id, room_id FROM room_links) s
         ON s.principal_id = p.id
       JOIN rooms r ON r.id = s.room_id
       WHERE p.kind IN ('agent', 'person') ${opts.closedOnly ? "AND r.status = 'closed'" : ''}
       GROUP BY p.id, p.kind, p.display_name, p.meta_json, p.created_at, p.disabled_at
       ORDER BY count(DISTINCT s.room_id) DESC, p.display_name, p.id
       LIMIT $1`,
      [opts.limit],
    );
    return rows.map((r) =>
      HolderSchema.parse({
        principal: r,
        rooms: r.rooms,
        protocols: [...((r.protocols as string[] | null) ?? [])].sort(),
      }),
    );
  }

  /**
   * Model calls made for `principal`, summed (null: none): its seats' calls in these rooms, and the
   * calls recorded for it by name (an arena model entrant's matches, whose seats nobody holds) in
   * closed rooms — or in any room for an admin (`includeOpen`).
   */
  async usage(
    principal: string,
    roomIds: readonly string[],
    includeOpen = false,
  ): Promise<z.output<typeof UsageSchema> | null> {
    const [row] = await this.db.query(
      `SELECT count(*) AS calls, coalesce(sum(d.input_tokens), 0) AS input_tokens,
              coalesce(sum(d.output_tokens), 0) AS output_tokens, sum(d.cost_usd) AS cost_usd,
              count(*) FILTER (WHERE d.cost_usd IS NULL) AS calls_without_cost
       FROM driver_calls d
       LEFT JOIN seats s ON s.room_id = d.room_id AND s.seat = d.seat AND s.principal_id = $1
       JOIN rooms r ON r.id = d.room_id
       WHERE (s.principal_id IS NOT NULL AND d.room_id = ANY($2::text[]))
          OR (d.principal_id = $1 AND ($3 OR r.status = 'closed'))`,
      [principal, roomIds, includeOpen],
    );
    const u = UsageSchema.parse(row);
    return u.calls > 0 ? u : null;
  }
}
