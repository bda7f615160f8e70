import type { ModuleRuntime, Store, ZodTypeProvider } from '@db8/server/kit';
import { ApiError, requireAdmin } from '@db8/server/kit';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { MODERATOR } from '../rules/config.ts';
import { type OperateBody, OperateBodySchema, OperateResponseSchema } from '../rules/operate-wire.ts';

/**
 * POST /v1/debate/rooms/:id/operate (admin): abort, pause, resume, extend the current window, or
 * replace a no-show (docs/debate.md, "Operating a debate"). Each is written as the protocol's own
 * server-only action on the moderator seat, naming the admin, so the rules fold it and the
 * journal, replay and `db8 verify` show it; a move the rules refuse is a 409 with their code.
 */

/** The protocol action an operation is written as. */
export function operationAction(body: OperateBody, by: string): Record<string, unknown> {
  const why = body.op !== 'resume' && body.reason !== undefined ? { reason: body.reason } : {};
  switch (body.op) {
    case 'abort':
    case 'pause':
      return { type: body.op, by, ...why };
    case 'resume':
      return { type: 'resume', by };
    case 'extend':
      return { type: 'extend', by, ms: body.seconds * 1000, ...why };
    case 'replace':
      return { type: 'replace_seat', by, seat: body.seat, ...why };
  }
}

export function operateRoutes(
  root: FastifyInstance,
  runtime: Pick<ModuleRuntime, 'getRoom' | 'serverAct'>,
  store: Pick<Store, 'principals'>,
): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/v1/debate/rooms/:id/operate',
    {
      schema: {
        tags: ['debate'],
        summary:
          'Operate a debate (admin): abort, pause, resume, extend the current window, replace a no-show',
        params: z.object({ id: z.string().min(1).max(200) }),
        body: OperateBodySchema,
        response: { 200: OperateResponseSchema },
      },
    },
    async (req) => {
      const admin = requireAdmin(req);
      const id = req.params.id;
      const room = await runtime.getRoom(id); // ROOM_NOT_FOUND (404)
      if (room.protocol !== 'debate') throw new ApiError(404, 'NOT_A_DEBATE', `room ${id} is not a debate`);
      if (room.status !== 'open') throw new ApiError(409, 'DEBATE_OVER', `room ${id} is closed`);
      const body = req.body;
      let reseat: { seat: string; principal: string } | undefined;
      if (body.op === 'replace') {
        const p = await store.principals.get(body.principal);
        if (!p || (p.kind !== 'agent' && p.kind !== 'person'))
          throw new ApiError(404, 'UNKNOWN_PRINCIPAL', `no agent or person ${body.principal}`);
        reseat = { seat: body.seat, principal: body.principal };
      }
      const action = operationAction(body, admin.principal);
      const ack = await runtime.serverAct(id, { seat: MODERATOR, action }, reseat);
      return {
        room_id: id,
        op: body.op,
        seq: ack.seq,
        ...(ack.joinSeq !== undefined ? { join_seq: ack.joinSeq } : {}),
      };
    },
  );
}
