import { attachSshsigCertificate, SshVerifyError } from '@db8/core';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { normalizeArmored, signedNonce, splitPrincipal } from '../auth/ssh-login.ts';
import { ApiError, badRequest } from '../errors.ts';
import { RoomIdSchema } from '../schemas/common.ts';
import { ChallengeResponseSchema, SessionResponseSchema } from '../schemas/rest.ts';
import { issueChallenge, sshSession } from './auth.ts';
import type { AppContext } from './context.ts';
import type { ZodTypeProvider } from './zod.ts';

/**
 * Seed 000's literal login flow ("Agent login flow (CLI)"), beside db8's own `/v1/auth/*`
 * (docs/debate.md, "Seed-literal client"): `GET /auth/challenge`, then `POST /auth/verify` with
 * `{principal, signature_b64, cert_b64}`. Same SshLogin, same trust (registered keys, the server's
 * CA and the room's CAs), same single-use nonces and the same session as `/v1/auth/verify`.
 *
 * The seed's body names no nonce, so the server finds which outstanding challenge the signature
 * signs among the ones this node handed out (a client of a multi-node deployment may send `nonce`).
 */

const SeedChallengeQuerySchema = z.object({ room_id: RoomIdSchema.optional() });

const B64 = (max: number) => z.string().min(1).max(max);
export const SeedVerifyBodySchema = z.object({
  /** The certified principal, `<seat>@<room_id>` (or `<seat>@room_<room_id>`). */
  principal: z.string().min(1).max(256),
  /** Base64 of the armored SSHSIG (`base64 -w0 nonce.txt.sig`), or the armored text. */
  signature_b64: B64(16_384),
  /** Base64 of the `id_ed25519-cert.pub` line; put into the signature when it holds the plain key. */
  cert_b64: B64(16_384).optional(),
  /** The challenge signed; optional (found among this node's outstanding challenges when absent). */
  nonce: z.string().min(1).max(512).optional(),
});

export const SeedSessionResponseSchema = SessionResponseSchema.extend({ ok: z.literal(true) });

/** At most this many seed challenges are remembered per node (the oldest is forgotten first). */
const PENDING_MAX = 256;

function decodeText(b64OrText: string): string {
  const t = b64OrText.trim();
  if (t.startsWith('-----BEGIN') || t.startsWith('ssh-')) return t;
  return Buffer.from(t, 'base64').toString('utf8').trim();
}

export function seedAuthRoutes(root: FastifyInstance, ctx: AppContext): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const pending = new Map<string, number>();
  const AUTH_LIMIT = {
    rateLimit: { max: ctx.config.authRateLimit.max, timeWindow: ctx.config.authRateLimit.windowMs },
  };
  const tags = ['seed-compat'];

  app.get(
    '/auth/challenge',
    {
      schema: {
        tags,
        summary: 'Seed 000 login, step 1: a single-use nonce to sign with `ssh-keygen -Y sign -n db8`',
        querystring: SeedChallengeQuerySchema,
        response: { 200: ChallengeResponseSchema },
      },
      config: AUTH_LIMIT,
    },
    async (req) => {
      const c = await issueChallenge(ctx, req.query.room_id ?? null);
      const now = ctx.clock();
      for (const [n, exp] of pending) if (exp <= now || pending.size >= PENDING_MAX) pending.delete(n);
      pending.set(c.nonce, Date.parse(c.expires_at));
      return c;
    },
  );

  app.post(
    '/auth/verify',
    {
      schema: {
        tags,
        summary: 'Seed 000 login, step 2: {principal, signature_b64, cert_b64} for a session token',
        body: SeedVerifyBodySchema,
        response: { 200: SeedSessionResponseSchema },
      },
      config: AUTH_LIMIT,
    },
    async (req) => {
      const b = req.body;
      let armored = normalizeArmored(decodeText(b.signature_b64));
      if (b.cert_b64 !== undefined) {
        try {
          armored = attachSshsigCertificate(armored, decodeText(b.cert_b64));
        } catch (e) {
          const why = e instanceof SshVerifyError ? e.message : 'cert_b64 is not an SSH certificate';
          throw new ApiError(401, 'SIGNATURE_INVALID', why);
        }
      }
      const now = ctx.clock();
      const live = [...pending].filter(([, exp]) => exp > now).map(([n]) => n);
      const nonce = b.nonce ?? signedNonce(armored, live);
      if (!nonce) throw new ApiError(401, 'NONCE_INVALID', 'the signature signs no outstanding challenge');
      pending.delete(nonce);
      const split = splitPrincipal(b.principal);
      if (!split) throw badRequest('principal must be <seat>@<room>');
      const room = await roomNamed(ctx, split.roomPart);
      const id = await ctx.ssh.verify(
        { nonce, signature: armored, principal: b.principal },
        room ? { room } : {},
      );
      return { ok: true as const, ...(await sshSession(ctx, id)) };
    },
  );
}

/** The room a principal's host part names: `room_abc` is room `room_abc` if it exists, else `abc`. */
async function roomNamed(ctx: AppContext, part: string): Promise<string | null> {
  if (await ctx.store.rooms.get(part)) return part;
  const bare = part.startsWith('room_') ? part.slice(5) : null;
  if (bare && (await ctx.store.rooms.get(bare))) return bare;
  return null;
}
