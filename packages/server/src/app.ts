import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { formatSshPublicKey } from '@db8/core';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { AdminLinks } from './auth/admin-link.ts';
import { apiKeyPepper } from './auth/api-keys.ts';
import { Authenticator } from './auth/authenticator.ts';
import { checkedCredential, IN_PROCESS_HEADER, limitKey, RateLimiter, rateLimited } from './auth/limits.ts';
import { OidcVerifier } from './auth/oidc.ts';
import { SshLogin } from './auth/ssh-login.ts';
import { storeAuth } from './auth/store-adapter.ts';
import { TokenService } from './auth/tokens.ts';
import type { AuthStore } from './auth/types.ts';
import type { Bus } from './bus/types.ts';
import { resolveConfig, type ServerConfig, type ServerConfigInput } from './config.ts';
import { type ConnectionCounts, limitConnections } from './connections.ts';
import { toHttpError } from './errors.ts';
import type { ProtocolModule } from './kit/module.ts';
import type { AppRuntime } from './kit/runtime.ts';
import { mcpRoutes } from './mcp/index.ts';
import { mcpOriginGuard } from './mcp/requests.ts';
import { createModuleRegistry } from './modules.ts';
import { RealtimeHub } from './realtime/hub.ts';
import { PresenceRegistry } from './realtime/presence.ts';
import type { RoomEventsHub } from './realtime/room-events.ts';
import { sseRoutes } from './realtime/sse.ts';
import { sseEventRoutes } from './realtime/sse-events.ts';
import { RoomTicker } from './realtime/ticker.ts';
import { wsRoutes } from './realtime/ws.ts';
import { adminRoomRoutes } from './routes/admin-rooms.ts';
import { authRoutes } from './routes/auth.ts';
import { authProviderRoutes } from './routes/auth-providers.ts';
import type { AppContext } from './routes/context.ts';
import { docsRoutes } from './routes/docs.ts';
import { healthRoutes } from './routes/health.ts';
import { keysRoutes } from './routes/keys.ts';
import { DebugRequestLog, loggerOptions, resolveLogFormat } from './routes/logging.ts';
import { pathParamError } from './routes/path-params.ts';
import { roomRoutes } from './routes/rooms.ts';
import { allowInlineStyles, securityHeaders } from './routes/security-headers.ts';
import { seedAuthRoutes } from './routes/seed-auth.ts';
import { SignInOrigins } from './routes/sign-in-origins.ts';
import { parseClientJson } from './routes/strict-json.ts';
import { plainSerializerCompiler, swaggerTransform, zodValidatorCompiler } from './routes/zod.ts';
import { PROTOCOL_VERSION } from './schemas/common.ts';
import type { Store } from './store/index.ts';

export interface AppDeps {
  runtime: AppRuntime;
  store: Store;
  bus: Bus;
  serverKey: { seed: Uint8Array; publicKey: Uint8Array };
  config?: ServerConfigInput | ServerConfig;
  /** Defaults to storeAuth(store). */
  authStore?: AuthStore;
  adminLinks?: AdminLinks;
  /** CA keys for room certificates; defaults to the server key (it issues room certs). */
  roomCaKeys?: (roomId: string) => Promise<Uint8Array[]>;
  clock?: () => number;
  /** How often realtime feeds check the store head as a backstop to the bus (ms). */
  feedPollMs?: number;
  /** Where pino writes (tests capture logs here); stdout by default. */
  logStream?: NodeJS.WritableStream;
  /** The protocol modules the app serves (none by default). Their routes are mounted by mountModules. */
  modules?: readonly ProtocolModule[];
  /** Provider keys and module options (default process.env). */
  env?: Readonly<Record<string, string | undefined>>;
}

/** Our JWT issuer: derived from the server key, so every node sharing the key agrees without config. */
export function issuerFor(publicKey: Uint8Array): string {
  return `db8:${createHash('sha256').update(publicKey).digest('base64url').slice(0, 22)}`;
}

/** The `WWW-Authenticate` of a 401: the Bearer scheme, and why a token that was sent failed. */
export function bearerChallenge(code: string): string {
  return code === 'INVALID_TOKEN' ? 'Bearer realm="db8", error="invalid_token"' : 'Bearer realm="db8"';
}

/**
 * The HTTP server: REST under /v1, WebSocket /v1/ws, SSE, docs, health. Every error is
 * `{error:{code,message,details}}`; client mistakes are 4xx; every input is parsed by zod.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const config = resolveConfig(deps.config as ServerConfigInput);
  const clock = deps.clock ?? Date.now;
  const authStore = deps.authStore ?? storeAuth(deps.store);
  const tokens = new TokenService(deps.serverKey, issuerFor(deps.serverKey.publicKey), clock);
  const pepper = apiKeyPepper(deps.serverKey.seed);
  const oidc = config.oidc ? new OidcVerifier(config.oidc, config.adminEmails, clock) : null;
  const serverCa = deps.serverKey.publicKey;
  const modules = createModuleRegistry(deps.modules ?? []);
  // A room's certificate logins trust the server's room CA and the CAs its protocol's module names
  // for that room (a debate's `trust.ca_keys`), so a certificate that signs in the room logs in too.
  const roomCaKeys = async (roomId: string): Promise<Uint8Array[]> => {
    const room = await deps.runtime.getRoom(roomId).catch(() => null);
    const own = room ? (modules.get(room.protocol)?.loginCaKeys?.(room.config) ?? []) : [];
    return [serverCa, ...own];
  };
  const ctx: AppContext = {
    config,
    runtime: deps.runtime,
    store: deps.store,
    bus: deps.bus,
    authStore,
    tokens,
    authn: new Authenticator(tokens, authStore, pepper, oidc, clock),
    limits: {
      requests: new RateLimiter(config.rateLimit.max, config.rateLimit.windowMs, clock),
      authFailures: new RateLimiter(config.authFailureLimit.max, config.authFailureLimit.windowMs, clock),
      inProcess: randomBytes(16).toString('hex'),
    },
    ssh: new SshLogin({
      store: authStore,
      ttlSec: config.challengeTtlSec,
      roomCaKeys: deps.roomCaKeys ?? roomCaKeys,
      clock,
    }),
    adminLinks: deps.adminLinks ?? new AdminLinks(clock),
    oidc,
    pepper,
    clock,
    skillDocUrl: `${config.publicUrl}/skill.md`,
    wsUrl: `${config.publicUrl.replace(/^http/, 'ws')}/v1/ws`,
    serverKey: deps.serverKey,
    caPublicLine: formatSshPublicKey(deps.serverKey.publicKey, 'db8-room-ca'),
    modules,
    drivers: null,
    env: deps.env ?? process.env,
    joinGuards: [],
    seatLabelers: [],
  };

  const app = Fastify({
    // Pretty lines on a terminal, JSON otherwise (or as DB8_LOG_FORMAT says); a given stream: JSON.
    logger: loggerOptions(
      config.logLevel,
      deps.logStream,
      config.logFormat ?? (deps.logStream ? 'json' : resolveLogFormat(undefined, !!process.stdout.isTTY)),
    ),
    // One line per request, at debug (LOG_LEVEL=debug shows them): not hundreds of lines a minute at info.
    logController: new DebugRequestLog(),
    bodyLimit: config.bodyLimit,
    // Long enough for real clients, short enough that a slow-loris does not hold sockets: the
    // headers within headersTimeoutMs, the whole request within requestTimeoutMs (checked every
    // second, not Node's default 30 s), an idle keep-alive socket closed after keepAliveTimeoutMs.
    // A response being streamed (SSE, an export) is not a request being received: it is not cut.
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    http: {
      headersTimeout: Math.min(config.headersTimeoutMs, config.requestTimeoutMs),
      connectionsCheckingInterval: 1_000,
    },
    routerOptions: { maxParamLength: 200 },
    return503OnClosing: true,
    // Bad URLs, over-long params, constraint failures: answered before routing, in our error shape.
    frameworkErrors: (err, _req, reply: FastifyReply) => {
      const { status, body } = toHttpError(err);
      void reply.code(status >= 500 ? 400 : status).send(body);
    },
  });
  // Before anything else sees a socket: over the cap, one clear answer and closed (connections.ts).
  const connections = limitConnections(app.server, config.connectionLimit);
  app.decorate('connections', connections);
  app.decorate('db8', ctx);
  // Every route as registered, modules' included: what the fuzz suite walks, path parameter by
  // path parameter (the check itself is the onRequest hook below, for all routes at once).
  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) routeTable.push({ method, url: r.url });
  });
  app.decorateRequest('auth', null);
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(plainSerializerCompiler);

  // The one strict parser of every edge (routes/strict-json.ts; the WebSocket uses it too).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => {
    const bytes = body as Buffer;
    if (bytes.every((b) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09))
      return done(null, undefined);
    try {
      done(null, parseClientJson(bytes));
    } catch (e) {
      done(e as Error, undefined);
    }
  });

  app.setErrorHandler((err, req, reply) => {
    const { status, body, internal } = toHttpError(err);
    if (internal) req.log.error({ err }, 'unhandled error');
    else if (status === 429) req.log.warn({ code: body.error.code }, 'rate limited');
    if (reply.sent) return;
    const retryMs = (body.error.details as { retry_after_ms?: unknown } | undefined)?.retry_after_ms;
    if (status === 429 && typeof retryMs === 'number') reply.header('retry-after', Math.ceil(retryMs / 1000));
    // RFC 6750: a 401 names the scheme it wants (MCP clients read it to learn how to authenticate).
    if (status === 401) reply.header('www-authenticate', bearerChallenge(body.error.code));
    return reply.code(status).send(body);
  });

  const web = config.webDist && existsSync(config.webDist) ? config.webDist : null;
  app.setNotFoundHandler((req, reply) => {
    // The SPA owns every other GET page (/login, /rooms/…): answer them with index.html.
    const path = req.url.split('?')[0] ?? '';
    if (
      web &&
      req.method === 'GET' &&
      !path.startsWith('/v1/') &&
      String(req.headers.accept ?? '').includes('text/html')
    ) {
      return reply.type('text/html; charset=utf-8').sendFile('index.html');
    }
    return reply.code(404).send({ error: { code: 'NOT_FOUND', message: `no route ${req.method} ${path}` } });
  });

  // First of all hooks, so even a refusal by the next one carries them: CSP, nosniff, no framing,
  // no referrer on every answer (security-headers.ts).
  const signIn = new SignInOrigins(config, app.log);
  await securityHeaders(app, () => signIn.current());

  // A foreign Origin on /mcp is refused before credentials are even read (the MCP transport spec).
  mcpOriginGuard(app, config.publicUrl);

  // Path parameters first (one check for every route: routes/path-params.ts), then credentials, so
  // the limit can key on the principal; an address that keeps failing them is refused before the
  // lookup. One bucket per principal, shared with its WebSockets.
  app.addHook('onRequest', async (req) => {
    const badParam = pathParamError(req.params);
    if (badParam) throw badParam;
    const header = req.headers.authorization;
    const value = Array.isArray(header) ? header[0] : header;
    req.auth = value
      ? await checkedCredential(ctx.limits, req.ip, value, () => ctx.authn.fromHeader(value))
      : null;
    if ((req.routeOptions.config as { rateLimit?: unknown } | undefined)?.rateLimit === false) return;
    if (req.headers[IN_PROCESS_HEADER] === ctx.limits.inProcess) return;
    const wait = ctx.limits.requests.take(limitKey(req.auth, req.ip));
    if (wait !== null) throw rateLimited(wait);
  });

  // Only the stricter per-route limits (credential routes' config.rateLimit) are the plugin's.
  await app.register(rateLimit, {
    global: false,
    hook: 'preHandler',
    keyGenerator: (req) => limitKey(req.auth, req.ip),
    errorResponseBuilder: (_req, c) => rateLimited(c.ttl),
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'db8', version: PROTOCOL_VERSION, description: 'db8 REST API (WebSocket: /v1/ws)' },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
      security: [{ bearer: [] }],
    },
    transform: swaggerTransform,
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // Swagger UI adds a <style> element at run time: its pages alone may use inline styles (never scripts).
    transformStaticCSP: allowInlineStyles,
  });
  await app.register(websocket, { options: { maxPayload: config.bodyLimit } });

  healthRoutes(app, ctx);
  docsRoutes(app, ctx);
  authRoutes(app, ctx);
  authProviderRoutes(app, ctx);
  seedAuthRoutes(app, ctx);
  roomRoutes(app, ctx);
  adminRoomRoutes(app, ctx);
  keysRoutes(app, ctx);
  const hub = new RealtimeHub(
    { runtime: deps.runtime, bus: deps.bus, store: deps.store, clock },
    deps.feedPollMs,
  );
  // Server-side watchers (a module's routes) ride the same channels as sockets.
  app.decorate('realtime', hub);
  // Typed room events (a module's `events`, presence, typing): ephemeral, per node.
  const events: RoomEventsHub = {
    presence: new PresenceRegistry({ clock }),
    ticker: new RoomTicker(),
    producerFor: (protocol) => ctx.modules.get(protocol)?.events,
  };
  // One connection implementation for /v1/ws and every module's wire codec, each at its own path.
  wsRoutes(
    app,
    ctx,
    hub,
    [...ctx.modules.values()].flatMap((m) => (m.wire ? [m.wire] : [])),
    events,
  );
  sseRoutes(app, ctx, hub);
  sseEventRoutes(app, ctx, hub, events);
  mcpRoutes(app, ctx);
  app.addHook('preClose', async () => {
    hub.close();
    events.ticker.close();
    events.presence.close();
  });

  if (web) {
    await app.register(fastifyStatic, {
      root: web,
      wildcard: false,
      // The web build writes .br and .gz beside each asset (packages/web/vite.config.ts); source
      // maps stay on disk for debugging, never served.
      preCompressed: true,
      globIgnore: ['**/*.map'],
      cacheControl: false,
      // Vite names assets by content hash: cache them for good; the page itself is always revalidated.
      setHeaders: (reply, path) =>
        reply.header(
          'cache-control',
          /[\\/]assets[\\/]/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache',
        ),
    });
  }
  return app;
}

/** One method and path of the route table (`/v1/rooms/:id/...`). */
export interface RouteEntry {
  method: string;
  url: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    db8: AppContext;
    routeTable: readonly RouteEntry[];
    /** Open connections now, by client address (connections.ts). */
    connections: ConnectionCounts;
  }
}
