import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../routes/context.ts';

/** MCP over Streamable HTTP at /mcp (filled in by the next commits). */
export function mcpRoutes(_app: FastifyInstance, _ctx: AppContext): void {}
