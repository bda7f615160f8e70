import type { ModuleContext } from '@db8/server/kit';
import { ApiError } from '@db8/server/kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type CouncilView, renderPacketMarkdown } from '../rules/index.ts';

/** The council's Final Packet as files: JSON and Markdown rendered from the one object. */
export function councilRoutes(app: FastifyInstance, ctx: ModuleContext): void {
  const packet = async (id: string) => {
    const room = await ctx.runtime.getRoom(id);
    if (room.protocol !== 'council') throw new ApiError(404, 'NOT_A_COUNCIL', `room ${id} is not a council`);
    const st = await ctx.runtime.stateFor(id, { kind: 'observer' });
    const view = st.view as CouncilView;
    if (!view.packet)
      throw new ApiError(404, 'NO_PACKET', `the council has no packet yet (stage ${view.stage})`);
    return { packet: view.packet, sha256: view.packetSha256 };
  };
  app.get(
    '/v1/rooms/:id/council/packet.json',
    async (req: FastifyRequest<{ Params: { id: string } }>, reply) => {
      const p = await packet(req.params.id);
      return reply
        .header('content-disposition', `attachment; filename="council-${req.params.id}.json"`)
        .header('x-packet-sha256', p.sha256 ?? '')
        .send(p.packet);
    },
  );
  app.get(
    '/v1/rooms/:id/council/packet.md',
    async (req: FastifyRequest<{ Params: { id: string } }>, reply) => {
      const p = await packet(req.params.id);
      return reply
        .type('text/markdown; charset=utf-8')
        .header('content-disposition', `attachment; filename="council-${req.params.id}.md"`)
        .send(renderPacketMarkdown(p.packet));
    },
  );
}
