import { z } from 'zod';

const JWS_ALGS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
] as const;

export const OidcConfigSchema = z.object({
  /** Expected `iss`, exactly. */
  issuer: z.url(),
  /** Expected `aud`. */
  audience: z.string().min(1),
  /** JWKS location; defaults to `<issuer>/.well-known/jwks.json`. */
  jwksUrl: z.url().optional(),
  /** Pinned: a token signed with any other algorithm is refused (no `none`, no HS* confusion). */
  algorithms: z.array(z.enum(JWS_ALGS)).min(1).default(['RS256', 'ES256']),
  /** Which claim holds the email checked against adminEmails. */
  emailClaim: z.string().default('email'),
  /**
   * OIDC_CLIENT_ID: the web app's client id at the issuer (a public client: PKCE, no secret). Defaults
   * to the audience, so the id_token the web app receives is one this server accepts.
   */
  clientId: z.string().min(1).optional(),
  /** OIDC_SCOPES: what the web app asks the issuer for. */
  scopes: z.array(z.string().min(1)).min(1).default(['openid', 'profile', 'email']),
  /**
   * OIDC_CONNECT_ORIGINS: origins the sign-in pages may fetch from besides the issuer's, for a server
   * that cannot read the issuer's discovery document itself (routes/sign-in-origins.ts).
   */
  connectOrigins: z.array(z.url({ protocol: /^https?$/ })).optional(),
});
export type OidcConfig = z.infer<typeof OidcConfigSchema>;

export const ServerConfigSchema = z.object({
  port: z.number().int().min(0).max(65_535).default(8787),
  host: z.string().default('127.0.0.1'),
  dataDir: z.string().default('./.db8'),
  /** Public origin used in links (skill_doc_url, ws_url, invite and login links) and as JWT issuer. */
  publicUrl: z.string().optional(),
  databaseUrl: z.string().optional(),
  /** DB8_PG_SCHEMA: Postgres schema (search_path) with databaseUrl; migrations run in it. */
  pgSchema: z.string().min(1).optional(),
  natsUrl: z.string().optional(),
  /** DB8_SERVER_KEY: OpenSSH Ed25519 private key (path or text) shared by a cluster; else <dataDir>/server_ed25519. */
  serverKey: z.string().min(1).optional(),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** DB8_LOG_FORMAT: `pretty` lines or pino `json`; default pretty on a terminal, else JSON. */
  logFormat: z.enum(['pretty', 'json']).optional(),
  adminEmails: z.array(z.string().toLowerCase()).default([]),
  oidc: OidcConfigSchema.optional(),
  /** Print a one-time admin login link on start (embedded mode). */
  adminLink: z.boolean().optional(),
  adminLinkTtlSec: z
    .number()
    .int()
    .positive()
    .default(24 * 3600),
  sessionTtlSec: z.number().int().positive().default(3600),
  /** How long a chain of session refreshes may run from the original login before it must log in again. */
  sessionMaxLifetimeSec: z
    .number()
    .int()
    .positive()
    .default(7 * 24 * 3600),
  adminSessionTtlSec: z
    .number()
    .int()
    .positive()
    .default(12 * 3600),
  challengeTtlSec: z.number().int().positive().default(120),
  inviteTtlSec: z
    .number()
    .int()
    .positive()
    .default(7 * 86_400),
  /** Anyone may register an agent (seed 002 §7.1); turn off to require an admin. */
  openRegistration: z.boolean().default(true),
  bodyLimit: z
    .number()
    .int()
    .positive()
    .default(256 * 1024),
  rateLimit: z
    .object({ max: z.number().int().positive(), windowMs: z.number().int().positive() })
    .default({ max: 600, windowMs: 60_000 }),
  /** Stricter limit on credential routes (agents, token, challenge, verify, login). */
  authRateLimit: z
    .object({ max: z.number().int().positive(), windowMs: z.number().int().positive() })
    .default({ max: 30, windowMs: 60_000 }),
  /** Failed API keys per client address before its keys are refused unread (429). */
  authFailureLimit: z
    .object({ max: z.number().int().positive(), windowMs: z.number().int().positive() })
    .default({ max: 60, windowMs: 60_000 }),
  /**
   * Open connections (HTTP keep-alive, SSE, WebSocket), per client address and in total; one over
   * is answered 429 (address) or 503 (total) and closed. Behind a reverse proxy every connection
   * has the proxy's address: raise perAddress to total there. DB8_MAX_CONNECTIONS_PER_ADDRESS,
   * DB8_MAX_CONNECTIONS.
   */
  connectionLimit: z
    .object({ perAddress: z.number().int().positive(), total: z.number().int().positive() })
    .default({ perAddress: 2_048, total: 16_384 }),
  /** A client must finish its request headers within this (half-open sockets are closed). */
  headersTimeoutMs: z.number().int().positive().default(10_000),
  /** …and its whole request, body included, within this. */
  requestTimeoutMs: z.number().int().positive().default(30_000),
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: z.number().int().positive().default(5_000),
  /** Seconds a WebSocket that must say hello first may stay silent before it is closed. */
  wsHelloTimeoutSec: z.number().positive().default(10),
  /** Seconds between server WS pings; a socket that misses two is closed. */
  wsHeartbeatSec: z.number().positive().default(30),
  /** Static web app to serve at / when present. */
  webDist: z.string().optional(),
});
export type ServerConfigInput = z.input<typeof ServerConfigSchema>;
export type ServerConfig = z.infer<typeof ServerConfigSchema> & { publicUrl: string };

export function resolveConfig(input: ServerConfigInput = {}): ServerConfig {
  const c = ServerConfigSchema.parse(input);
  const publicUrl = (c.publicUrl ?? `http://${linkHost(c.host)}:${c.port}`).replace(/\/+$/, '');
  return { ...c, publicUrl };
}

/** The host to put in links to a server bound on `host`: a wildcard is not an address to visit. */
export function linkHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

const list = (s: string | undefined) =>
  (s ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** Read the environment (DATABASE_URL, DB8_PG_SCHEMA, NATS_URL, OIDC_*, SUPABASE_URL, ADMIN_EMAILS, PUBLIC_BASE_URL …). */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ServerConfigInput {
  const out: ServerConfigInput = {};
  if (env.PORT) out.port = Number(env.PORT);
  if (env.HOST) out.host = env.HOST;
  if (env.DB8_DATA_DIR) out.dataDir = env.DB8_DATA_DIR;
  if (env.PUBLIC_BASE_URL) out.publicUrl = env.PUBLIC_BASE_URL;
  if (env.DATABASE_URL) out.databaseUrl = env.DATABASE_URL;
  if (env.DB8_PG_SCHEMA) out.pgSchema = env.DB8_PG_SCHEMA;
  if (env.NATS_URL) out.natsUrl = env.NATS_URL;
  if (env.DB8_SERVER_KEY) out.serverKey = env.DB8_SERVER_KEY;
  if (env.DB8_LOG_FORMAT === 'json' || env.DB8_LOG_FORMAT === 'pretty') out.logFormat = env.DB8_LOG_FORMAT;
  if (env.LOG_LEVEL) out.logLevel = env.LOG_LEVEL as ServerConfigInput['logLevel'];
  if (env.ADMIN_EMAILS) out.adminEmails = list(env.ADMIN_EMAILS);
  if (env.DB8_MAX_CONNECTIONS_PER_ADDRESS || env.DB8_MAX_CONNECTIONS) {
    const d = ServerConfigSchema.shape.connectionLimit.parse(undefined);
    out.connectionLimit = {
      perAddress: Number(env.DB8_MAX_CONNECTIONS_PER_ADDRESS ?? d.perAddress),
      total: Number(env.DB8_MAX_CONNECTIONS ?? d.total),
    };
  }
  const algorithms = env.OIDC_ALGORITHMS
    ? (list(env.OIDC_ALGORITHMS) as OidcConfig['algorithms'])
    : undefined;
  const web = {
    ...(env.OIDC_CLIENT_ID ? { clientId: env.OIDC_CLIENT_ID } : {}),
    ...(env.OIDC_SCOPES ? { scopes: env.OIDC_SCOPES.split(/[\s,]+/).filter(Boolean) } : {}),
    ...(env.OIDC_CONNECT_ORIGINS ? { connectOrigins: list(env.OIDC_CONNECT_ORIGINS) } : {}),
  };
  if (env.OIDC_ISSUER) {
    out.oidc = {
      issuer: env.OIDC_ISSUER,
      audience: env.OIDC_AUDIENCE ?? 'db8',
      ...(env.OIDC_JWKS_URL ? { jwksUrl: env.OIDC_JWKS_URL } : {}),
      ...(algorithms ? { algorithms } : {}),
      ...web,
    };
  } else if (env.SUPABASE_URL) {
    // Supabase Auth: issuer <url>/auth/v1, JWKS under it, audience "authenticated" (asymmetric keys only).
    const base = `${env.SUPABASE_URL.replace(/\/+$/, '')}/auth/v1`;
    out.oidc = {
      issuer: base,
      audience: env.OIDC_AUDIENCE ?? 'authenticated',
      jwksUrl: `${base}/.well-known/jwks.json`,
      ...(algorithms ? { algorithms } : {}),
      ...web,
    };
  }
  return out;
}
