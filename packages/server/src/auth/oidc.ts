import { createRemoteJWKSet, type JWTPayload, errors as joseErrors, jwtVerify } from 'jose';
import type { OidcConfig } from '../config.ts';
import { ApiError } from '../errors.ts';
import { personName } from './person-name.ts';

export interface OidcIdentity {
  sub: string;
  email: string | null;
  admin: boolean;
  /** The display name the token gives (person-name.ts), or null. */
  name: string | null;
}

/**
 * Verifies people's JWTs from an OIDC issuer or Supabase Auth against the issuer's JWKS, with pinned
 * algorithms, issuer and audience. Admins are the verified emails listed in ADMIN_EMAILS.
 */
export class OidcVerifier {
  private readonly jwks: ReturnType<typeof createRemoteJWKSet>;
  private readonly admins: Set<string>;

  constructor(
    private readonly cfg: OidcConfig,
    adminEmails: readonly string[],
    private readonly clock: () => number = Date.now,
  ) {
    const url = cfg.jwksUrl ?? `${cfg.issuer.replace(/\/+$/, '')}/.well-known/jwks.json`;
    this.jwks = createRemoteJWKSet(new URL(url), { timeoutDuration: 5000, cooldownDuration: 30_000 });
    this.admins = new Set(adminEmails.map((e) => e.toLowerCase()));
  }

  get issuer(): string {
    return this.cfg.issuer;
  }

  async verify(token: string): Promise<OidcIdentity> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.jwks, {
        issuer: this.cfg.issuer,
        audience: this.cfg.audience,
        algorithms: this.cfg.algorithms,
        currentDate: new Date(this.clock()),
        requiredClaims: ['sub', 'exp'],
      }));
    } catch (e) {
      const why = e instanceof joseErrors.JWTExpired ? 'token expired' : 'invalid token';
      throw new ApiError(401, 'INVALID_TOKEN', why);
    }
    const rawEmail = payload[this.cfg.emailClaim];
    const email = typeof rawEmail === 'string' ? rawEmail.toLowerCase() : null;
    // An unverified email must not grant admin (many IdPs let users type any address).
    const verified = payload.email_verified !== false;
    return {
      sub: String(payload.sub),
      email,
      admin: email !== null && verified && this.admins.has(email),
      name: personName(payload),
    };
  }

  /** Cheap routing check: is this token from our configured issuer? */
  claimsIssuer(token: string): boolean {
    const parts = token.split('.');
    if (parts.length !== 3 || token.length > 16_384) return false;
    try {
      const p = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as { iss?: unknown };
      return p.iss === this.cfg.issuer;
    } catch {
      return false;
    }
  }
}
