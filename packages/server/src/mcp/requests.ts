import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseClientJson } from '../routes/strict-json.ts';

/**
 * What the MCP Streamable HTTP transport asks of every request before it reaches a session: a
 * trusted `Origin`, a JSON `Content-Type` and a body that parses. Each refusal is a JSON-RPC error
 * (`id: null`), as MCP clients read them, not db8's REST error shape.
 */

export const MCP_PATH = '/mcp';

/** JSON-RPC and MCP error codes used at the transport level. */
export const RPC = {
  parseError: -32700,
  /** The SDK's code for transport refusals (bad media type, no session, forbidden origin). */
  transport: -32000,
  sessionNotFound: -32001,
} as const;

export function rpcError(reply: FastifyReply, status: number, code: number, message: string, data?: unknown) {
  return reply.code(status).send({
    jsonrpc: '2.0',
    error: { code, message, ...(data !== undefined ? { data } : {}) },
    id: null,
  });
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A browser page may call /mcp only from this server's own origin (its public URL or the host the
 * request was sent to, i.e. the web app) or from a page on this machine (localhost). No `Origin`
 * means a non-browser client. The bearer token is still required; this stops other sites' pages
 * from driving a user's MCP session.
 */
export function originAllowed(
  origin: string | undefined,
  host: string | undefined,
  publicUrl: string,
): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // includes the opaque origin "null"
  }
  if (url.origin === new URL(publicUrl).origin) return true;
  if (host !== undefined && url.host === host.toLowerCase()) return true;
  return LOOPBACK.has(url.hostname);
}

/**
 * Refuses a foreign `Origin` with 403 before anything else looks at the request (credentials, rate
 * limits): register it before the credential hook.
 */
export function mcpOriginGuard(app: FastifyInstance, publicUrl: string): void {
  app.addHook('onRequest', async (req, reply) => {
    if (req.routeOptions.url !== MCP_PATH) return;
    const origin = one(req.headers.origin);
    if (originAllowed(origin, one(req.headers.host), publicUrl)) return;
    return rpcError(reply, 403, RPC.transport, `Forbidden: Origin ${origin} is not allowed`);
  });
}

/** The POST body as JSON-RPC sees it, or the refusal already sent (415 or -32700). */
export function parsePost(req: FastifyRequest, reply: FastifyReply): { body: unknown } | null {
  const type = one(req.headers['content-type'])?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    rpcError(reply, 415, RPC.transport, 'Unsupported Media Type: Content-Type must be application/json');
    return null;
  }
  try {
    return { body: parseClientJson((req.body as Buffer | undefined) ?? Buffer.alloc(0)) };
  } catch (e) {
    rpcError(reply, 400, RPC.parseError, `Parse error: ${(e as Error).message}`);
    return null;
  }
}

/** The /mcp scope reads bodies as bytes of any type: parsePost decides, in JSON-RPC's terms. */
export function rawBodies(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
}

function one(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
