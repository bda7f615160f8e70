import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { limitKey, rateLimited } from '../auth/limits.ts';
import { ApiError, errorBody } from '../errors.ts';
import type { AppContext } from '../routes/context.ts';
import { outdatedClient } from '../routes/outdated.ts';
import { isSupportedVersion, PROTOCOL_VERSION } from '../schemas/common.ts';
import { MCP_PATH, parsePost, RPC, rawBodies, rpcError } from './requests.ts';
import { registerResources, Subscriptions } from './resources.ts';
import { RestCaller } from './rest.ts';
import { ActionSchemas } from './schemas.ts';
import { registerTools, type ToolDeps } from './tools.ts';

/**
 * MCP (Streamable HTTP) at /mcp: any MCP client with an agent's API key or a session token takes a
 * seat in any room. One MCP session per `initialize`, bound to the principal that opened it; every
 * tool runs the REST route it mirrors with the credentials of the request carrying it (rest.ts).
 * `db8 mcp` (the CLI) bridges stdio to this endpoint.
 */

/** Clients that speak db8 itself (the CLI bridge) send their db8 protocol version here. */
export const DB8_VERSION_HEADER = 'db8-protocol-version';
const MAX_SESSIONS_PER_PRINCIPAL = 16;
/** Opening a session costs more than a request (a server, subscriptions): it has its own, lower limit. */
const MAX_OPENS_PER_MINUTE = 30;
const MAX_SESSIONS = 2_000;
const IDLE_MS = 30 * 60_000;

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  subs: Subscriptions;
  principal: string;
  lastSeen: number;
  /** Requests being answered now, the GET notification stream included. */
  inFlight: number;
}

const header = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

export function mcpRoutes(app: FastifyInstance, ctx: AppContext): void {
  const sessions = new Map<string, Session>();
  const schemas = new ActionSchemas(ctx.runtime.protocols);
  const deps: ToolDeps = {
    ctx,
    bus: ctx.bus,
    schemas,
    rest: (extra) => {
      const h = extra.requestInfo?.headers.authorization;
      return new RestCaller(app, (Array.isArray(h) ? h[0] : h) ?? null);
    },
  };

  const opens = new Map<string, number[]>();
  async function open(principal: string): Promise<Session> {
    const now = Date.now();
    const recent = (opens.get(principal) ?? []).filter((t) => t > now - 60_000);
    if (recent.length >= MAX_OPENS_PER_MINUTE) {
      throw new ApiError(429, 'RATE_LIMITED', `at most ${MAX_OPENS_PER_MINUTE} new MCP sessions a minute`);
    }
    recent.push(now);
    opens.set(principal, recent);
    const mine = [...sessions.values()].filter((s) => s.principal === principal);
    if (mine.length >= MAX_SESSIONS_PER_PRINCIPAL)
      await drop(mine.sort((a, b) => a.lastSeen - b.lastSeen)[0]!);
    if (sessions.size >= MAX_SESSIONS) throw new ApiError(503, 'TOO_MANY_SESSIONS', 'too many MCP sessions');
    const server = new McpServer(
      { name: 'db8', version: PROTOCOL_VERSION },
      {
        capabilities: { resources: { subscribe: true, listChanged: true }, tools: { listChanged: true } },
        instructions:
          'db8 rooms: list_rooms, join_room, then view_room / wait and the act_<protocol> tool for your seat. ' +
          `Every protocol documents itself at ${ctx.skillDocUrl}.`,
      },
    );
    registerTools(server, deps);
    registerResources(server, deps);
    const subs = new Subscriptions(server, ctx.bus);
    const session: Session = {
      server,
      subs,
      principal,
      lastSeen: Date.now(),
      inFlight: 0,
      transport: null as never,
    };
    session.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => {
        sessions.set(id, session);
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    session.transport.onclose = () => {
      subs.close();
      if (session.transport.sessionId) sessions.delete(session.transport.sessionId);
    };
    await server.connect(session.transport);
    return session;
  }

  async function drop(s: Session): Promise<void> {
    if (s.transport.sessionId) sessions.delete(s.transport.sessionId);
    s.subs.close();
    await s.server.close().catch(() => {});
  }

  const sweep = setInterval(() => {
    const cutoff = Date.now() - IDLE_MS;
    // A session with a request open (a notification stream, a wait) is in use, however old.
    for (const s of sessions.values()) if (s.inFlight === 0 && s.lastSeen < cutoff) void drop(s);
    for (const [p, times] of opens) if (times.every((t) => t < Date.now() - 60_000)) opens.delete(p);
  }, 60_000);
  sweep.unref();
  app.addHook('preClose', async () => {
    clearInterval(sweep);
    await Promise.all([...sessions.values()].map(drop));
  });

  // The /mcp route reads its own bodies (requests.ts): JSON-RPC errors, not REST ones.
  void app.register(async (scope) => {
    rawBodies(scope);
    scope.route({
      method: ['GET', 'POST', 'DELETE'],
      url: MCP_PATH,
      schema: { hide: true },
      handler: (req, reply) => handle(req, reply),
    });
  });

  async function handle(req: FastifyRequest, reply: FastifyReply) {
    const auth = req.auth;
    if (!auth) {
      // The error handler adds RFC 6750's challenge (WWW-Authenticate) to every 401; no OAuth
      // metadata is advertised, so clients do not start an OAuth dance.
      throw new ApiError(
        401,
        'UNAUTHORIZED',
        'MCP needs Authorization: Bearer <api key or session token> (register: POST /v1/agents)',
      );
    }
    let body: unknown;
    if (req.method === 'POST') {
      const parsed = parsePost(req, reply);
      if (!parsed) return reply;
      body = parsed.body;
    }
    // Every MCP request paid one token at the door (app.ts onRequest), like REST and each WS
    // message; a JSON-RPC batch pays for each message it carries.
    if (Array.isArray(body)) {
      for (let i = 1; i < body.length; i++) {
        const wait = ctx.limits.requests.take(limitKey(auth, req.ip));
        if (wait !== null) throw rateLimited(wait);
      }
    }
    const v = header(req, DB8_VERSION_HEADER);
    if (v !== undefined && !isSupportedVersion(v)) throw outdatedClient(ctx, v);

    const id = header(req, 'mcp-session-id');
    let session: Session | undefined;
    if (id !== undefined) {
      session = sessions.get(id);
      if (!session) return rpcError(reply, 404, RPC.sessionNotFound, 'Session not found');
      if (session.principal !== auth.principal) {
        throw new ApiError(403, 'FORBIDDEN', 'this MCP session belongs to another principal');
      }
    } else if (req.method === 'POST' && isInitializeRequest(body)) {
      // Any protocolVersion opens a session: the SDK answers an unknown one with the newest it
      // speaks (the spec's counter-offer); the client decides whether it can use it.
      session = await open(auth.principal);
    } else {
      return rpcError(reply, 400, RPC.transport, 'Bad Request: no MCP session; send initialize first');
    }
    const live = session;
    live.lastSeen = Date.now();
    live.inFlight++;
    reply.raw.once('close', () => {
      live.inFlight--;
      live.lastSeen = Date.now();
    });
    reply.hijack();
    try {
      await live.transport.handleRequest(req.raw, reply.raw, body);
    } catch (err) {
      req.log.error({ err }, 'mcp request failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json' });
        reply.raw.end(JSON.stringify(errorBody('INTERNAL', 'internal error')));
      }
    }
    return reply;
  }
}
