import {
  ApiError,
  type ModuleContext,
  type ModuleTool,
  type RestCaller,
  RuntimeError,
  requireAuth,
  type ZodTypeProvider,
} from '@db8/server/kit';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Games } from '../cli/game.ts';
import { type ArenaConfig, ArenaConfigSchema, type ArenaState, isOutsideKind } from '../rules/index.ts';
import {
  claim,
  claimant,
  claimsIn,
  currentRoom,
  ENTRANT_PREFIX,
  pendingOf,
  seatClaimants,
} from './claims.ts';
import { matchRoomId } from './tournament.ts';

/**
 * The routes of outside and person entrants (docs/arena.md "Outside and person entrants"):
 * the organizer's invitations, an entrant's claim, and a principal's own pending matches. None
 * names who holds an entrant to anyone but that principal.
 */

const Params = z.object({ id: z.string().regex(/^[A-Za-z0-9_.:-]{1,200}$/) }).strict();
const InvitesBody = z
  .object({
    /** Only these entrants (default: every outside and person entrant). */
    entrants: z.array(z.string().min(1).max(60)).min(1).max(64).optional(),
    ttl_sec: z
      .number()
      .int()
      .min(60)
      .max(90 * 86_400)
      .optional(),
  })
  .strict();
const ClaimBody = z.object({ invite: z.string().min(1).max(4096) }).strict();

const InviteOut = z.object({ entrant: z.string(), kind: z.string(), invite: z.string(), url: z.string() });
const EntrantOut = z.object({
  entrant: z.string(),
  kind: z.string(),
  claimed: z.boolean(),
  /** The claimant's display name (null when unclaimed or the principal has none). */
  claimed_by: z.string().nullable(),
});
const PendingOut = z.object({
  tournament: z.string(),
  tournament_name: z.string(),
  game: z.string(),
  entrant: z.string(),
  match: z.string(),
  round: z.number().int(),
  status: z.enum(['open', 'scheduled']),
  room_id: z.string().nullable(),
  seat: z.string().nullable(),
  opponents: z.array(z.string()),
  brief: z.record(z.string(), z.unknown()),
});

async function tournamentOf(ctx: ModuleContext, id: string) {
  const room = await ctx.runtime.getRoom(id).catch((err) => {
    if (err instanceof RuntimeError && err.code === 'ROOM_NOT_FOUND')
      throw new ApiError(404, 'ROOM_NOT_FOUND', `no tournament ${id}`);
    throw err;
  });
  const config = ArenaConfigSchema.safeParse(room.config);
  if (room.protocol !== 'arena' || !config.success)
    throw new ApiError(404, 'ROOM_NOT_FOUND', `no tournament ${id}`);
  return { room, config: config.data };
}

/** The tournament's creator or an admin: who hands out its invitations and sees who took them. */
function requireOrganizer(auth: { role: string; principal: string }, room: { createdBy: string | null }) {
  if (auth.role !== 'admin' && (room.createdBy === null || room.createdBy !== auth.principal))
    throw new ApiError(403, 'FORBIDDEN', "only the tournament's creator or an admin invites its entrants");
}

export function arenaRoutes(root: FastifyInstance, ctx: ModuleContext, games: Games): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['arena'];
  const db = ctx.runtime.store.db;

  app.post(
    '/v1/arena/tournaments/:id/invites',
    {
      schema: {
        tags,
        summary: "Invitations for a tournament's outside and person entrants (its creator or an admin)",
        params: Params,
        body: InvitesBody.default({}),
        response: { 201: z.object({ tournament: z.string(), invites: z.array(InviteOut) }) },
      },
    },
    async (req, reply) => {
      const auth = requireAuth(req);
      const { room, config } = await tournamentOf(ctx, req.params.id);
      requireOrganizer(auth, room);
      if (room.status !== 'open') throw new ApiError(409, 'ROOM_CLOSED', 'the tournament is over');
      const wanted =
        req.body.entrants ?? config.entrants.filter((e) => isOutsideKind(e.kind)).map((e) => e.name);
      const ttl = req.body.ttl_sec ?? ctx.app.config.inviteTtlSec;
      const invites = [];
      for (const name of wanted) {
        const e = config.entrants.find((x) => x.name === name);
        if (!e) throw new ApiError(404, 'UNKNOWN_ENTRANT', `no entrant ${name}`);
        if (!isOutsideKind(e.kind))
          throw new ApiError(400, 'NOT_OUTSIDE', `entrant ${name} is played by the server (${e.kind})`);
        const t = await ctx.app.tokens.issueInvite(room.id, `${ENTRANT_PREFIX}${name}`, ttl);
        await ctx.app.store.invites.create({
          id: t.id,
          roomId: room.id,
          seat: `${ENTRANT_PREFIX}${name}`,
          maxUses: 1,
          createdBy: auth.principal,
          createdAt: ctx.app.clock(),
          expiresAt: t.expiresAt.getTime(),
        });
        const url = `${ctx.app.config.publicUrl}/rooms/${encodeURIComponent(room.id)}#arena-invite=${t.token}`;
        invites.push({ entrant: name, kind: e.kind, invite: t.token, url });
      }
      return reply.code(201).send({ tournament: room.id, invites });
    },
  );

  app.get(
    '/v1/arena/tournaments/:id/entrants',
    {
      schema: {
        tags,
        summary:
          "A tournament's outside and person entrants and who claimed each, by name (its creator or an admin)",
        params: Params,
        response: { 200: z.object({ tournament: z.string(), entrants: z.array(EntrantOut) }) },
      },
    },
    async (req) => {
      const auth = requireAuth(req);
      const { room, config } = await tournamentOf(ctx, req.params.id);
      requireOrganizer(auth, room);
      const held = await claimsIn(db, room.id);
      const entrants = [];
      for (const e of config.entrants.filter((x) => isOutsideKind(x.kind))) {
        const principal = held.get(e.name);
        // A name, never the principal's id: the organizer knows whom they invited by name.
        const name = principal ? ((await ctx.app.store.principals.get(principal))?.displayName ?? '') : null;
        entrants.push({
          entrant: e.name,
          kind: e.kind,
          claimed: principal !== undefined,
          // An agent registered without a name is named by its id: no name, then.
          claimed_by: name && name !== principal ? name : null,
        });
      }
      return { tournament: room.id, entrants };
    },
  );

  app.post(
    '/v1/arena/tournaments/:id/claim',
    {
      schema: {
        tags,
        summary: 'Claim an outside or person entrant with its invitation (you then play its matches)',
        params: Params,
        body: ClaimBody,
        response: { 200: z.object({ tournament: z.string(), entrant: z.string() }) },
      },
    },
    async (req) => {
      const auth = requireAuth(req);
      if (auth.room !== null)
        throw new ApiError(403, 'FORBIDDEN', 'claim with your own credential, not a room-scoped token');
      const inv = await ctx.app.tokens.verifyInvite(req.body.invite);
      if (inv.room !== req.params.id || !inv.seat?.startsWith(ENTRANT_PREFIX))
        throw new ApiError(403, 'FORBIDDEN', 'this invitation is for another tournament');
      const entrant = inv.seat.slice(ENTRANT_PREFIX.length);
      const { room, config } = await tournamentOf(ctx, req.params.id);
      if (room.status !== 'open') throw new ApiError(409, 'ROOM_CLOSED', 'the tournament is over');
      // Claiming again what one already holds takes no use of the invitation.
      if ((await claimant(db, room.id, entrant)) === auth.principal) return { tournament: room.id, entrant };
      const used = await ctx.app.store.invites.use(inv.id, ctx.app.clock());
      if (used === 'expired') throw new ApiError(401, 'INVITE_EXPIRED', 'this invitation has expired');
      if (typeof used === 'string') throw new ApiError(410, 'INVITE_USED_UP', 'this invitation was used');
      const holder = await claim(db, {
        tournament: room.id,
        entrant,
        principal: auth.principal,
        now: ctx.app.clock(),
      });
      if (holder !== auth.principal) {
        await ctx.app.store.invites.refund(inv.id);
        throw new ApiError(409, 'ENTRANT_CLAIMED', `entrant ${entrant} is already claimed`);
      }
      await seatInOpenMatches(ctx, games, room.id, config, entrant);
      return { tournament: room.id, entrant };
    },
  );

  app.get(
    '/v1/arena/matches',
    {
      schema: {
        tags,
        summary: 'Your pending matches: those of the entrants you claimed that have no result yet',
        response: { 200: z.object({ matches: z.array(PendingOut) }) },
      },
    },
    async (req) => {
      const auth = requireAuth(req);
      return { matches: await pendingOf(ctx.runtime, auth.principal, games, matchRoomId) };
    },
  );
}

/** A claim made while the entrant's matches are already open: its seats are taken there now. */
async function seatInOpenMatches(
  ctx: ModuleContext,
  games: Games,
  tournament: string,
  config: ArenaConfig,
  entrant: string,
): Promise<void> {
  const game = games[config.game];
  if (!game) return;
  const s = (await ctx.runtime.protocolState(tournament)).state as ArenaState;
  for (const m of s.matches) {
    if (s.results[m.id] || !m.entrants.includes(entrant)) continue;
    const room = await currentRoom(ctx.runtime, tournament, m.id, matchRoomId);
    if (room?.open) await seatClaimants(ctx.runtime, game, config, tournament, m, room.id);
  }
}

const enc = encodeURIComponent;

export const arenaMcpTools: readonly ModuleTool[] = [
  {
    name: 'arena_claim',
    title: 'Claim a tournament entrant',
    description:
      "Claim an outside entrant of an arena tournament with the organizer's invitation: you then play " +
      "that entrant's matches (see arena_matches).",
    inputSchema: {
      tournament: z.string().min(1).max(200).describe('the tournament room id'),
      invite: z.string().min(1).max(4096).describe('the invitation the organizer gave you'),
    },
    call: (a, rest: RestCaller) =>
      rest.post(`/v1/arena/tournaments/${enc(String(a.tournament))}/claim`, { invite: a.invite }),
  },
  {
    name: 'arena_matches',
    title: 'My pending arena matches',
    description:
      'Your pending tournament matches: for each, its match room and your seat once the room is open. ' +
      'Play it like any room of its protocol (get_state, then act).',
    inputSchema: {},
    readOnly: true,
    call: (_a, rest: RestCaller) => rest.get('/v1/arena/matches'),
  },
];
