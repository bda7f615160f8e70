import type { FastifyInstance } from 'fastify';
import { HealthResponseSchema, ReadyResponseSchema } from '../schemas/rest.ts';
import type { AppContext } from './context.ts';

export function healthRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(
    '/healthz',
    { schema: { hide: true, response: { 200: HealthResponseSchema } }, config: { rateLimit: false } },
    async () => ({ ok: true as const }),
  );

  // Ready when the store answers; the bus is reported but only the store gates readiness
  // (a bus outage degrades fan-out, and subscribers fill gaps from the store).
  app.get(
    '/readyz',
    {
      schema: { hide: true, response: { 200: ReadyResponseSchema, 503: ReadyResponseSchema } },
      config: { rateLimit: false },
    },
    async (_req, reply) => {
      let store = false;
      try {
        await ctx.store.db.query('SELECT 1 AS ok');
        store = true;
      } catch {
        store = false;
      }
      const bus = true;
      const ok = store;
      return reply.code(ok ? 200 : 503).send({ ok, store, bus });
    },
  );
}
