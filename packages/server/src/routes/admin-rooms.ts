import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';
import {
  type AdminRoom,
  AdminRoomsQuerySchema,
  AdminRoomsResponseSchema,
  EndRoomBodySchema,
  EndRoomResponseSchema,
} from '../schemas/admin.ts';
import { RoomParamsSchema } from '../schemas/rest.ts';
import type { SeatRow } from '../store/schemas.ts';
import { type AppContext, requireAdmin } from './context.ts';
import type { ZodTypeProvider } from './zod.ts';

/**
 * The room monitor (Colyseus' monitor is the model), for every protocol alike:
 *   GET  /v1/admin/rooms           every room (live ones by default) with who holds each seat
 *   POST /v1/admin/rooms/:id/end   ends a room now: a close entry recording who and why
 * Admin-only: seat holders stay sealed from everyone else until a room closes.
 */
export function adminRoomRoutes(root: FastifyInstance, ctx: AppContext): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['admin'];
  /** Rooms folded from a replicated stream: a close written on one node would fork the replicas. */
  const replicated = (protocol: string) => ctx.modules.get(protocol)?.externalClock === true;

  app.get(
    '/v1/admin/rooms',
    {
      schema: {
        tags,
        summary: 'Every room, with its seats and who holds them, newest first (admin)',
        querystring: AdminRoomsQuerySchema,
        response: { 200: AdminRoomsResponseSchema },
      },
    },
    async (req) => {
      requireAdmin(req);
      const q = req.query;
      const { rooms, nextCursor } = await ctx.store.rooms.list({
        limit: q.limit,
        ...(q.status !== 'all' ? { status: q.status } : {}),
        ...(q.protocol ? { protocol: q.protocol } : {}),
        ...(q.cursor ? { cursor: q.cursor } : {}),
      });
      const ids = rooms.map((r) => r.id);
      const seats = new Map<string, SeatRow[]>();
      for (const s of await ctx.store.rooms.seatsIn(ids))
        seats.set(s.roomId, [...(seats.get(s.roomId) ?? []), s]);
      const driven = (await ctx.drivers?.drivenSeats(ids)) ?? new Map<string, Set<string>>();
      return {
        rooms: rooms.map(
          (r): AdminRoom => ({
            room_id: r.id,
            protocol: r.protocol,
            title: r.title,
            status: r.status,
            seq: r.headSeq,
            created_at: r.createdAt,
            created_by: r.createdBy,
            last_activity_at: r.updatedAt,
            closed_at: r.closedAt,
            deadline_ms: r.status === 'open' ? r.deadlineAt : null,
            seats: (seats.get(r.id) ?? []).map((s) => ({
              seat: s.seat,
              role: s.role,
              holder: s.principalId,
              joined_at: s.joinedAt,
              driven: driven.get(r.id)?.has(s.seat) ?? false,
            })),
            endable: r.status === 'open' && !replicated(r.protocol),
          }),
        ),
        now: ctx.clock(),
        next_cursor: nextCursor,
      };
    },
  );

  app.post(
    '/v1/admin/rooms/:id/end',
    {
      schema: {
        tags,
        summary: 'End a room now, whatever its protocol: its close entry records who and why (admin)',
        params: RoomParamsSchema,
        body: EndRoomBodySchema,
        response: { 200: EndRoomResponseSchema },
      },
    },
    async (req) => {
      const admin = requireAdmin(req);
      const room = await ctx.runtime.getRoom(req.params.id); // ROOM_NOT_FOUND (404)
      if (replicated(room.protocol))
        throw new ApiError(
          409,
          'ROOM_REPLICATED',
          `${room.protocol} rooms are folded from a replicated stream`,
          {
            protocol: room.protocol,
          },
        );
      const ended = { by: admin.principal, reason: req.body?.reason ?? `ended by ${admin.principal}` };
      const { seq } = await ctx.runtime.end(room.id, ended);
      return { room_id: room.id, status: 'closed' as const, seq, ended };
    },
  );
}
