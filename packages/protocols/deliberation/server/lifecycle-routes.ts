import type { Viewer } from '@db8/core';
import type { ModuleContext, ZodTypeProvider } from '@db8/server/kit';
import { ApiError, requireAdmin } from '@db8/server/kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type DeliberationView, OPERATOR } from '../rules/index.ts';
import { deleteSession } from './storage/index.ts';
import type { DeliberationWorker } from './worker.ts';

/**
 * A deliberation's end of life, two separate admin acts (seed 004's lifecycle has `cancelled`):
 *   DELETE /v1/debates/:id        cancels: the operator's `cancel` action, recording who and why;
 *                                 the session and its storage rows stay, `cancelled`.
 *   POST /v1/debates/:id/purge    drops an ended session's storage projection (the signed log,
 *                                 which is the record, stays).
 */

const tags = ['deliberation'];
const IdParams = z.object({ id: z.string().min(1).max(128) }).strict();
const CancelQuery = z.object({ reason: z.string().trim().min(1).max(2000).optional() }).strict();
const ENDED = ['completed', 'failed', 'cancelled'];

type ViewFor = (
  req: FastifyRequest,
  id: string,
  viewer?: Viewer,
) => Promise<{ view: DeliberationView; room: unknown }>;

export function deliberationLifecycleRoutes(
  root: FastifyInstance,
  ctx: ModuleContext,
  deps: { viewFor: ViewFor; worker: DeliberationWorker | undefined },
): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { viewFor, worker } = deps;

  app.delete(
    '/v1/debates/:id',
    {
      schema: {
        tags,
        summary: 'Cancel a deliberation (admin): it stays, cancelled, with who and why',
        params: IdParams,
        querystring: CancelQuery,
      },
    },
    async (req) => {
      const admin = requireAdmin(req);
      const { id } = req.params;
      const { view } = await viewFor(req, id, { kind: 'admin' });
      if (ENDED.includes(view.status))
        throw new ApiError(409, 'SESSION_OVER', `the session is already ${view.status}`, {
          status: view.status,
        });
      const reason = req.query.reason ?? `cancelled by ${admin.principal}`;
      await ctx.runtime.act(id, {
        seat: OPERATOR,
        action: { type: 'cancel', reason, by: admin.principal },
        clientNonce: `cancel:${id}`,
      });
      await worker?.idle(); // the projection records the cancellation before we answer
      const after = (await viewFor(req, id, { kind: 'admin' })).view;
      return { id, status: after.status, cancellation: after.cancellation };
    },
  );

  app.post(
    '/v1/debates/:id/purge',
    {
      schema: {
        tags,
        summary: "Purge an ended deliberation's storage rows (admin; the signed log stays)",
        params: IdParams,
      },
    },
    async (req) => {
      requireAdmin(req);
      const { id } = req.params;
      const { view } = await viewFor(req, id, { kind: 'admin' });
      if (!ENDED.includes(view.status))
        throw new ApiError(409, 'SESSION_RUNNING', 'cancel the session before purging it', {
          status: view.status,
        });
      worker?.drop(id); // no later entry re-projects it
      await worker?.idle();
      const purged = await deleteSession(ctx.app.store.db, id);
      return { id, purged };
    },
  );
}
