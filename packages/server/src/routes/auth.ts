import { randomBytes } from 'node:crypto';
import { encodeSshEd25519PublicKey, formatSshPublicKey, parseSshPublicKey, sshFingerprint } from '@db8/core';
import type { FastifyInstance } from 'fastify';
import { API_KEY_PREFIX, generateApiKey, hashApiKey } from '../auth/api-keys.ts';
import type { SshIdentity } from '../auth/ssh-login.ts';
import type { AuthContext, SessionClaims } from '../auth/types.ts';
import { ApiError, badRequest, notFound } from '../errors.ts';
import { PROTOCOL_VERSION } from '../schemas/common.ts';
import {
  ChallengeBodySchema,
  ChallengeResponseSchema,
  CreateAgentBodySchema,
  CreateAgentResponseSchema,
  LoginBodySchema,
  LogoutResponseSchema,
  MeResponseSchema,
  SessionResponseSchema,
  TokenBodySchema,
  VerifyBodySchema,
} from '../schemas/rest.ts';
import { type AppContext, requireAuth } from './context.ts';
import type { ZodTypeProvider } from './zod.ts';

export async function sessionResponse(ctx: AppContext, claims: SessionClaims, ttlSec: number) {
  const t = await ctx.tokens.issueSession(claims, ttlSec);
  return {
    token: t.token,
    expires_at: t.expiresAt.toISOString(),
    principal: claims.sub,
    role: claims.role,
    room_id: claims.room ?? null,
    seat: claims.seat ?? null,
  };
}

/** The seat `principal` holds in `roomId` (404 if the room does not exist). */
export async function seatOf(ctx: AppContext, roomId: string, principal: string): Promise<string | null> {
  const room = await ctx.store.rooms.get(roomId);
  if (!room) throw notFound(`room ${roomId} not found`, 'ROOM_NOT_FOUND');
  return ctx.store.rooms.seatOf(principal, roomId);
}

/** A single-use nonce for `roomId` (or the server), as both login routes answer it (here and routes/seed-auth.ts). */
export async function issueChallenge(ctx: AppContext, roomId: string | null) {
  if (roomId && !(await ctx.store.rooms.get(roomId))) {
    throw notFound(`room ${roomId} not found`, 'ROOM_NOT_FOUND');
  }
  const c = await ctx.ssh.challenge(roomId);
  return { nonce: c.nonce, expires_at: c.expiresAt.toISOString(), audience: c.audience, room_id: c.roomId };
}

/** The session an SSH login earns (here and at seed 000's `POST /auth/verify`, routes/seed-auth.ts). */
export async function sshSession(ctx: AppContext, id: SshIdentity) {
  const claims: SessionClaims = { sub: id.principal, role: 'agent' };
  if (id.room) {
    claims.room = id.room;
    if (id.kind === 'certificate') {
      // The certificate names the seat; it must be a seat of that room.
      const seats = await ctx.store.rooms.seats(id.room);
      if (!seats.some((s) => s.seat === id.seat)) {
        throw new ApiError(403, 'FORBIDDEN', `room ${id.room} has no seat ${id.seat}`);
      }
      claims.seat = id.seat!;
      claims.cert = true;
    } else {
      const seat = await seatOf(ctx, id.room, id.principal);
      if (seat) claims.seat = seat;
    }
  }
  return sessionResponse(ctx, claims, ctx.config.sessionTtlSec);
}

export function authRoutes(root: FastifyInstance, ctx: AppContext): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  // Stricter limit on credential endpoints (per principal or IP): they are what an attacker hammers.
  const AUTH_LIMIT = {
    rateLimit: { max: ctx.config.authRateLimit.max, timeWindow: ctx.config.authRateLimit.windowMs },
  };

  app.post(
    '/v1/agents',
    {
      schema: {
        tags: ['access'],
        summary: 'Register an agent; the API key is shown once',
        body: CreateAgentBodySchema,
        response: { 201: CreateAgentResponseSchema },
      },
      config: AUTH_LIMIT,
    },
    async (req, reply) => {
      if (!ctx.config.openRegistration && req.auth?.role !== 'admin') {
        throw new ApiError(403, 'FORBIDDEN', 'agent registration needs an admin');
      }
      let sshKey: { fingerprint: string; line: string } | undefined;
      if (req.body.ssh_public_key !== undefined) {
        let publicKey: Uint8Array;
        try {
          publicKey = parseSshPublicKey(req.body.ssh_public_key).publicKey;
        } catch (e) {
          throw badRequest(`ssh_public_key: ${(e as Error).message}`);
        }
        sshKey = {
          fingerprint: sshFingerprint(encodeSshEd25519PublicKey(publicKey)),
          line: formatSshPublicKey(publicKey),
        };
      }
      const id = `agt_${randomBytes(10).toString('hex')}`;
      const apiKey = generateApiKey();
      await ctx.authStore.registerAgent({
        id,
        name: req.body.name ?? id,
        metadata: (req.body.metadata ?? {}) as Record<string, unknown>,
        apiKey: {
          id: `key_${randomBytes(10).toString('hex')}`,
          hash: hashApiKey(ctx.pepper, apiKey),
          prefix: apiKey.slice(0, API_KEY_PREFIX.length + 4),
        },
        ...(sshKey ? { sshKey } : {}),
        now: ctx.clock(),
      });
      return reply.code(201).send({
        agent_id: id,
        api_key: apiKey,
        protocol_version: PROTOCOL_VERSION,
        skill_doc_url: ctx.skillDocUrl,
      });
    },
  );

  app.post(
    '/v1/auth/token',
    {
      schema: {
        tags: ['access'],
        summary: 'Exchange an API key for a short-lived session token (optionally scoped to a room and seat)',
        body: TokenBodySchema,
        response: { 200: SessionResponseSchema },
      },
      config: AUTH_LIMIT,
    },
    async (req) => {
      const principal = await ctx.authStore.principalByApiKey(
        hashApiKey(ctx.pepper, req.body.api_key),
        ctx.clock(),
      );
      if (!principal) throw new ApiError(401, 'INVALID_TOKEN', 'unknown or revoked API key');
      const claims: SessionClaims = { sub: principal, role: 'agent' };
      if (req.body.room_id) {
        claims.room = req.body.room_id;
        if (!(await ctx.store.rooms.get(req.body.room_id))) {
          throw notFound(`room ${req.body.room_id} not found`, 'ROOM_NOT_FOUND');
        }
        if (req.body.seat) {
          const held = await ctx.store.rooms.seatsOf(principal, req.body.room_id);
          if (!held.some((s) => s.seat === req.body.seat)) {
            throw new ApiError(403, 'SEAT_NOT_HELD', `seat ${req.body.seat} is not held by ${principal}`);
          }
          claims.seat = req.body.seat;
        } else {
          const seat = await ctx.store.rooms.seatOf(principal, req.body.room_id);
          if (seat) claims.seat = seat;
        }
      } else if (req.body.seat) {
        throw badRequest('seat needs room_id');
      }
      return sessionResponse(ctx, claims, ctx.config.sessionTtlSec);
    },
  );

  app.post(
    '/v1/auth/challenge',
    {
      schema: {
        tags: ['access'],
        summary: 'Get a single-use nonce to sign with `ssh-keygen -Y sign -n db8`',
        body: ChallengeBodySchema.default({}),
        response: { 200: ChallengeResponseSchema },
      },
      config: AUTH_LIMIT,
    },
    async (req) => issueChallenge(ctx, req.body.room_id ?? null),
  );

  app.post(
    '/v1/auth/verify',
    {
      schema: {
        tags: ['access'],
        summary: 'Prove a signed challenge (plain registered key or room certificate) for a session token',
        body: VerifyBodySchema,
        response: { 200: SessionResponseSchema },
      },
      config: AUTH_LIMIT,
    },
    async (req) => sshSession(ctx, await ctx.ssh.verify(req.body)),
  );

  app.post(
    '/v1/auth/login',
    {
      schema: {
        tags: ['access'],
        summary: 'Exchange the one-time admin login link token for an admin session',
        body: LoginBodySchema,
        response: { 200: SessionResponseSchema },
      },
      config: AUTH_LIMIT,
    },
    async (req) => {
      if (!ctx.adminLinks.consume(req.body.token)) {
        throw new ApiError(401, 'INVALID_TOKEN', 'login link unknown, used or expired');
      }
      return sessionResponse(ctx, { sub: 'admin', role: 'admin' }, ctx.config.adminSessionTtlSec);
    },
  );

  app.post(
    '/v1/auth/session',
    {
      schema: {
        tags: ['access'],
        summary: 'A fresh server session for the current credential (e.g. an OIDC token or an API key)',
        response: { 200: SessionResponseSchema },
      },
      config: AUTH_LIMIT,
    },
    async (req) => {
      const a: AuthContext = requireAuth(req);
      // A person's sign-in records who they are by name (rooms, profiles, an organizer's invitations).
      if (a.via === 'oidc')
        await ctx.store.principals.upsertPerson({
          id: a.principal,
          displayName: a.personName ?? '',
          createdAt: ctx.clock(),
        });
      const claims: SessionClaims = { sub: a.principal, role: a.role };
      if (a.room) claims.room = a.room;
      if (a.seat) claims.seat = a.seat;
      if (a.certified) claims.cert = true;
      let ttl = a.role === 'admin' ? ctx.config.adminSessionTtlSec : ctx.config.sessionTtlSec;
      // A refreshed session keeps its login's time: the chain ends sessionMaxLifetimeSec after it.
      if (a.via === 'session' && a.authTime !== undefined) {
        const left = Math.floor((a.authTime + ctx.config.sessionMaxLifetimeSec * 1000 - ctx.clock()) / 1000);
        if (left <= 0)
          throw new ApiError(
            401,
            'SESSION_TOO_OLD',
            'this session cannot be extended any more: log in again',
          );
        claims.authTime = Math.floor(a.authTime / 1000);
        ttl = Math.min(ttl, left);
      }
      // The same login: logging out revokes the refreshed token with the rest.
      if (a.via === 'session' && a.sessionId !== undefined) claims.sid = a.sessionId;
      return sessionResponse(ctx, claims, ttl);
    },
  );

  app.post(
    '/v1/auth/logout',
    {
      schema: {
        tags: ['access'],
        summary:
          'End this session on the server: its token and every refresh of it answer 401 SESSION_REVOKED',
        response: { 200: LogoutResponseSchema },
      },
      config: AUTH_LIMIT,
    },
    async (req) => {
      const a = requireAuth(req);
      if (a.via !== 'session' || a.sessionId === undefined)
        throw badRequest('only a server session logs out (an API key is revoked, an OIDC token expires)');
      // Kept until no token of the login could verify: the login's lifetime, or this token's expiry.
      const cap = (a.authTime ?? ctx.clock()) + ctx.config.sessionMaxLifetimeSec * 1000;
      const expiresAt = Math.max(cap, a.expiresAt ?? 0);
      await ctx.authStore.revokeSession({
        sid: a.sessionId,
        principalId: a.principal,
        revokedAt: ctx.clock(),
        expiresAt,
      });
      ctx.authn.markRevoked(a.sessionId, expiresAt);
      return { revoked: true as const };
    },
  );

  app.get(
    '/v1/auth/me',
    { schema: { tags: ['access'], summary: 'Who am I', response: { 200: MeResponseSchema } } },
    async (req) => {
      const a = requireAuth(req);
      const name = (await ctx.store.principals.get(a.principal))?.displayName || null;
      return { principal: a.principal, name, role: a.role, room_id: a.room, seat: a.seat };
    },
  );
}
