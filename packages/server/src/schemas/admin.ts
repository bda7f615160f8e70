import { z } from 'zod';
import { IdSchema } from './common.ts';

/**
 * The room monitor's wire shapes (GET /v1/admin/rooms, POST /v1/admin/rooms/:id/end): every room
 * of every protocol with who holds its seats — admin-only, since seat holders are sealed until a
 * room closes.
 */

export const AdminRoomsQuerySchema = z
  .object({
    /** Default `open`: the live rooms. */
    status: z.enum(['open', 'closed', 'all']).default('open'),
    protocol: IdSchema.optional(),
    limit: z.coerce.number().int().min(1).max(500).default(200),
    cursor: z.string().min(1).max(256).optional(),
  })
  .strict();
export type AdminRoomsQuery = z.input<typeof AdminRoomsQuerySchema>;

export const AdminSeatSchema = z.object({
  seat: z.string(),
  role: z.string(),
  /** The principal holding the seat, or null when it is free. */
  holder: z.string().nullable(),
  /** When the holder took it (unix ms). */
  joined_at: z.number().int().nullable(),
  /** A server model driver plays the seat. */
  driven: z.boolean(),
});

export const AdminRoomSchema = z.object({
  room_id: z.string(),
  protocol: z.string(),
  title: z.string().nullable(),
  status: z.enum(['open', 'closed']),
  /** Seq of the last entry. */
  seq: z.number().int(),
  created_at: z.number().int(),
  created_by: z.string().nullable(),
  /** Time of the last entry (unix ms). */
  last_activity_at: z.number().int(),
  closed_at: z.number().int().nullable(),
  /** Next protocol deadline (unix ms), or null. */
  deadline_ms: z.number().int().nullable(),
  seats: z.array(AdminSeatSchema),
  /**
   * POST …/end can end it: false for a closed room and for rooms folded from a replicated stream
   * (one node closing its copy would fork the replicas).
   */
  endable: z.boolean(),
});
export type AdminRoom = z.infer<typeof AdminRoomSchema>;

export const AdminRoomsResponseSchema = z.object({
  rooms: z.array(AdminRoomSchema),
  /** The server's clock (unix ms) when it answered: ages are measured from it. */
  now: z.number().int(),
  next_cursor: z.string().nullable(),
});

/** Optional: a POST with no body ends the room with a default reason. */
export const EndRoomBodySchema = z
  .object({ reason: z.string().trim().min(1).max(500).optional() })
  .strict()
  .nullish();
export type EndRoomBody = z.infer<typeof EndRoomBodySchema>;

export const EndRoomResponseSchema = z.object({
  room_id: z.string(),
  status: z.literal('closed'),
  /** Seq of the close entry. */
  seq: z.number().int(),
  ended: z.object({ by: z.string(), reason: z.string() }),
});
