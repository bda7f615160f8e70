import { createPrivateKey, createPublicKey, type KeyObject, randomBytes } from 'node:crypto';
import { BoundedCache } from '@db8/core';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { ApiError } from '../errors.ts';
import { RoleSchema } from '../schemas/common.ts';
import type { SessionClaims } from './types.ts';

const SESSION_AUD = 'db8:session';
const INVITE_AUD = 'db8:invite';
const ALG = 'EdDSA';
/** Verified session tokens kept (a few hundred bytes each). */
const MAX_VERIFIED = 4096;

const b64url = (b: Uint8Array) => Buffer.from(b).toString('base64url');

/** Node KeyObjects for an Ed25519 seed, for jose. */
export function ed25519KeyObjects(
  seed: Uint8Array,
  publicKey: Uint8Array,
): { priv: KeyObject; pub: KeyObject } {
  if (seed.length !== 32 || publicKey.length !== 32)
    throw new Error('Ed25519 seed and public key are 32 bytes');
  const x = b64url(publicKey);
  const priv = createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', d: b64url(seed), x }, format: 'jwk' });
  const pub = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });
  return { priv, pub };
}

const SessionPayload = z.object({
  sub: z.string().min(1),
  role: RoleSchema,
  room: z.string().optional(),
  seat: z.string().optional(),
  cert: z.boolean().optional(),
  auth_time: z.number().optional(),
  sid: z.string().optional(),
  iat: z.number().optional(),
  exp: z.number(),
});
const InvitePayload = z.object({
  room: z.string().min(1),
  seat: z.string().optional(),
  jti: z.string().min(1),
  exp: z.number(),
});

export interface IssuedToken {
  token: string;
  expiresAt: Date;
  /** The token's jti: an invite's row id in the store. */
  id: string;
}

/**
 * The server's own short-lived tokens: EdDSA JWTs signed by the server key, with a pinned algorithm,
 * our issuer, and an audience per token kind so an invite never passes as a session.
 */
export class TokenService {
  private readonly priv: KeyObject;
  private readonly pub: KeyObject;
  /** Session tokens whose signature has been checked, least recently used dropped first. */
  private readonly verified = new BoundedCache<string, Readonly<SessionClaims & { exp: number }>>(
    MAX_VERIFIED,
  );

  constructor(
    key: { seed: Uint8Array; publicKey: Uint8Array },
    readonly issuer: string,
    private readonly clock: () => number = Date.now,
  ) {
    const k = ed25519KeyObjects(key.seed, key.publicKey);
    this.priv = k.priv;
    this.pub = k.pub;
  }

  private async sign(claims: Record<string, unknown>, sub: string, aud: string, ttlSec: number) {
    const now = Math.floor(this.clock() / 1000);
    const exp = now + ttlSec;
    const id = b64url(randomBytes(12));
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: ALG, typ: 'JWT' })
      .setIssuer(this.issuer)
      .setAudience(aud)
      .setSubject(sub)
      .setIssuedAt(now)
      .setExpirationTime(exp)
      .setJti(id)
      .sign(this.priv);
    return { token, expiresAt: new Date(exp * 1000), id };
  }

  /** `expiredCode`: the code an expired token of this kind answers (401). */
  private async verify(
    token: string,
    aud: string,
    expiredCode = 'INVALID_TOKEN',
  ): Promise<Record<string, unknown>> {
    try {
      const { payload } = await jwtVerify(token, this.pub, {
        algorithms: [ALG],
        issuer: this.issuer,
        audience: aud,
        currentDate: new Date(this.clock()),
      });
      return payload as Record<string, unknown>;
    } catch (e) {
      if (e instanceof joseErrors.JWTExpired) throw new ApiError(401, expiredCode, 'token expired');
      throw new ApiError(401, 'INVALID_TOKEN', 'invalid token');
    }
  }

  issueSession(c: SessionClaims, ttlSec: number): Promise<IssuedToken> {
    const claims: Record<string, unknown> = { role: c.role };
    if (c.room) claims.room = c.room;
    if (c.seat) claims.seat = c.seat;
    if (c.cert) claims.cert = true;
    claims.auth_time = c.authTime ?? Math.floor(this.clock() / 1000);
    // One id per login, carried by its refreshes: logout revokes them all at once.
    claims.sid = c.sid ?? b64url(randomBytes(12));
    return this.sign(claims, c.sub, SESSION_AUD, ttlSec);
  }

  async verifySession(token: string): Promise<Readonly<SessionClaims & { exp: number }>> {
    // A client sends the same token with every request: its signature is checked once, its expiry
    // every time (as jose does: expired once the current second reaches exp).
    const hit = this.verified.get(token);
    if (hit) {
      if (Math.floor(this.clock() / 1000) < hit.exp) return hit;
      throw new ApiError(401, 'INVALID_TOKEN', 'token expired');
    }
    const p = SessionPayload.safeParse(await this.verify(token, SESSION_AUD));
    if (!p.success) throw new ApiError(401, 'INVALID_TOKEN', 'invalid token');
    const { auth_time, iat, sid, ...rest } = p.data;
    // Tokens from before auth_time existed date from their own issue.
    const authTime = auth_time ?? iat;
    const claims = Object.freeze({
      ...rest,
      ...(authTime !== undefined ? { authTime } : {}),
      ...(sid !== undefined ? { sid } : {}),
    });
    this.verified.set(token, claims);
    return claims;
  }

  issueInvite(room: string, seat: string | undefined, ttlSec: number): Promise<IssuedToken> {
    return this.sign(seat ? { room, seat } : { room }, `invite:${room}`, INVITE_AUD, ttlSec);
  }

  /** The invite's room, seat and id (its row in the store, which counts its uses). */
  async verifyInvite(token: string): Promise<{ room: string; seat?: string; id: string }> {
    const p = InvitePayload.safeParse(await this.verify(token, INVITE_AUD, 'INVITE_EXPIRED'));
    if (!p.success) throw new ApiError(401, 'INVALID_TOKEN', 'invalid invite');
    const { room, seat, jti } = p.data;
    return { room, ...(seat !== undefined ? { seat } : {}), id: jti };
  }

  /** Cheap pre-check: does this look like one of our JWTs (vs. an OIDC token or an API key)? */
  isOwnToken(token: string): boolean {
    const dot = token.indexOf('.');
    if (dot <= 0 || token.length > 8192) return false;
    try {
      const body = token.slice(dot + 1, token.indexOf('.', dot + 1));
      const p = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { iss?: unknown };
      return p.iss === this.issuer;
    } catch {
      return false;
    }
  }
}
