import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';
import type { RoomInfo } from '../runtime/types.ts';
import { isSupportedVersion, MIN_SUPPORTED_PROTOCOL_VERSION, PROTOCOL_VERSION } from '../schemas/common.ts';
import {
  CreateInviteBodySchema,
  InviteResponseSchema,
  JoinBodySchema,
  JoinResponseSchema,
  RoomParamsSchema,
} from '../schemas/rest.ts';
import { type AppContext, requireAdmin } from './context.ts';
import { outdatedClient } from './outdated.ts';
import type { ZodTypeProvider } from './zod.ts';

/**
 * Who may take which seat: invite links (bounded uses, with an expiry) and the join. Reserved seats
 * are the server's; privileged ones are given (an admin, the room's creator, or an invite for the
 * seat); one seat per principal is the runtime's rule.
 */
export function joinRoutes(root: FastifyInstance, ctx: AppContext): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const rt = ctx.runtime;

  /**
   * Seats of a role the protocol reserves for the server are never the client's; seats of a
   * privileged role are taken only when `given` (an admin, or an invite for that very seat).
   */
  function refuseReserved(room: RoomInfo, seat: string, given = true): void {
    const protocol = rt.protocols?.get(room.protocol);
    const role = room.seats.find((s) => s.id === seat)?.role;
    if (role === undefined) return;
    if ((protocol?.reservedRoles ?? []).includes(role))
      throw new ApiError(403, 'SEAT_RESERVED', `seat ${seat} is reserved for the server`);
    if (!given && (protocol?.privilegedRoles ?? []).includes(role))
      throw new ApiError(
        403,
        'SEAT_PRIVILEGED',
        `seat ${seat} (${role}) is given by the room's admin: join it with an invite for that seat`,
      );
  }
  /**
   * Seats a server driver plays are taken: a named one is refused, and with none named the join gets
   * the first seat auto-assignment would give that no driver plays (the runtime does not know drivers).
   */
  async function avoidDriven(roomId: string, principal: string, seat: string | undefined) {
    const driven = (await ctx.drivers?.drivenSeats([roomId]))?.get(roomId);
    if (!driven?.size) return seat;
    if (seat !== undefined) {
      if (driven.has(seat))
        throw new ApiError(409, 'SEAT_DRIVEN', `seat ${seat} is played by the server's driver`, { seat });
      return seat;
    }
    // A rejoin keeps the seat held.
    if ((await ctx.store.rooms.seatOf(principal, roomId)) !== null) return undefined;
    const room = await rt.getRoom(roomId);
    const protocol = rt.protocols?.get(room.protocol);
    const notAuto = [...(protocol?.reservedRoles ?? []), ...(protocol?.privilegedRoles ?? [])];
    const open = room.seats.find((s) => !s.held && !driven.has(s.id) && !notAuto.includes(s.role));
    if (!open) throw new ApiError(409, 'ROOM_FULL', 'every seat is taken');
    return open.id;
  }
  /** Takes one use of an invite (its id); an expired, used-up or unknown one is refused. */
  async function useInvite(id: string): Promise<string> {
    const r = await ctx.store.invites.use(id, ctx.clock());
    if (r === 'expired') throw new ApiError(401, 'INVITE_EXPIRED', 'this invite has expired');
    if (r === 'used_up' || r === 'unknown')
      throw new ApiError(410, 'INVITE_USED_UP', 'this invite has been used as many times as it allows');
    return r.id;
  }
  const tags = ['rooms'];

  app.post(
    '/v1/rooms/:id/invites',
    {
      schema: {
        tags,
        summary: 'Create an invite link for people (admin)',
        params: RoomParamsSchema,
        body: CreateInviteBodySchema.default({}),
        response: { 201: InviteResponseSchema },
      },
    },
    async (req, reply) => {
      requireAdmin(req);
      const room = await rt.getRoom(req.params.id);
      if (req.body.seat && !room.seats.some((s) => s.id === req.body.seat)) {
        throw new ApiError(404, 'UNKNOWN_SEAT', `this room has no seat ${req.body.seat}`);
      }
      if (req.body.seat) refuseReserved(room, req.body.seat);
      const ttl = req.body.ttl_sec ?? ctx.config.inviteTtlSec;
      const maxUses = req.body.max_uses ?? 1;
      const t = await ctx.tokens.issueInvite(room.id, req.body.seat, ttl);
      // The row counts the link's uses: it admits max_uses joins, then INVITE_USED_UP.
      await ctx.store.invites.create({
        id: t.id,
        roomId: room.id,
        seat: req.body.seat ?? null,
        maxUses,
        createdBy: req.auth?.principal ?? null,
        createdAt: ctx.clock(),
        expiresAt: t.expiresAt.getTime(),
      });
      return reply.code(201).send({
        invite: t.token,
        url: `${ctx.config.publicUrl}/rooms/${room.id}/join#invite=${t.token}`,
        room_id: room.id,
        seat: req.body.seat ?? null,
        max_uses: maxUses,
        expires_at: t.expiresAt.toISOString(),
      });
    },
  );

  app.post(
    '/v1/rooms/:id/join',
    {
      schema: {
        tags,
        summary: 'Take a seat (agents with their key or token; people with an invite)',
        params: RoomParamsSchema,
        body: JoinBodySchema.default({}),
        response: { 200: JoinResponseSchema },
      },
    },
    async (req) => {
      const v = req.body.client_protocol_version;
      if (v !== undefined && !isSupportedVersion(v)) throw outdatedClient(ctx, v);
      const roomId = req.params.id;
      let seat = req.body.seat;
      let principal: string;
      let role = req.auth?.role ?? 'person';
      // A privileged seat is given: by an admin or the room's creator joining it, or an invite naming it.
      let given = req.auth?.role === 'admin';
      // The invite use this join took; given back if the join then fails.
      let inviteUse: string | null = null;
      if (req.body.invite) {
        const inv = await ctx.tokens.verifyInvite(req.body.invite);
        if (inv.room !== roomId) throw new ApiError(403, 'FORBIDDEN', 'this invite is for another room');
        if (inv.seat) {
          if (seat && seat !== inv.seat)
            throw new ApiError(403, 'FORBIDDEN', `this invite is for seat ${inv.seat}`);
          seat = inv.seat;
          given = true;
        }
        // A signed-in person keeps their identity; an anonymous guest gets a fresh one.
        principal =
          req.auth && req.auth.room === null ? req.auth.principal : `guest_${randomBytes(8).toString('hex')}`;
        if (!req.auth || req.auth.room !== null) role = 'person';
        inviteUse = await useInvite(inv.id);
      } else {
        const a = req.auth;
        if (!a) throw new ApiError(401, 'UNAUTHORIZED', 'joining needs an API key, a session or an invite');
        if (a.role === 'person') throw new ApiError(403, 'FORBIDDEN', 'people join with an invite');
        if (a.room !== null && a.room !== roomId)
          throw new ApiError(403, 'FORBIDDEN', 'token scoped to another room');
        principal = a.principal;
      }
      let joined: { seat: string };
      try {
        // A rejoin of a held seat is always allowed (it writes nothing); a new seat asks the modules.
        if (ctx.joinGuards.length > 0 && (await ctx.store.rooms.seatOf(principal, roomId)) === null) {
          for (const guard of ctx.joinGuards) {
            const why = await guard(roomId, principal);
            if (why) throw new ApiError(403, 'SEAT_GIVEN', why);
          }
        }
        if (seat) {
          const room = await rt.getRoom(roomId);
          // The room's creator gives its seats, so it may take a privileged one itself.
          if (!given) given = room.createdBy === principal;
          refuseReserved(room, seat, given);
        }
        seat = await avoidDriven(roomId, principal, seat);
        joined = await rt.join(roomId, { principal, ...(seat ? { seat } : {}) });
      } catch (err) {
        if (inviteUse) await ctx.store.invites.refund(inviteUse);
        throw err;
      }
      const t = await ctx.tokens.issueSession(
        { sub: principal, role, room: roomId, seat: joined.seat },
        ctx.config.sessionTtlSec,
      );
      return {
        room_id: roomId,
        seat: joined.seat,
        principal,
        session_token: t.token,
        expires_at: t.expiresAt.toISOString(),
        ws_url: ctx.wsUrl,
        protocol_version: PROTOCOL_VERSION,
        min_supported_protocol_version: MIN_SUPPORTED_PROTOCOL_VERSION,
        skill_doc_url: ctx.skillDocUrl,
      };
    },
  );
}
