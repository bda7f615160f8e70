import type { ModuleContext, ProtocolModule } from '@db8/server/kit';
import type { FastifyInstance } from 'fastify';
import { poker } from '../rules/index.ts';
import { pokerAgent } from './agent.ts';
import { pokerAgentRecord } from './agent-record.ts';
import { type Presence, presenceOf } from './presence.ts';
import { pokerRoutes } from './routes.ts';
import { pokerScript } from './scripted.ts';
import { PokerTables } from './service.ts';
import { pokerSkillDoc } from './skill.ts';
import { pokerWire } from './wire.ts';

export interface PokerPlugin {
  tables: PokerTables;
  presence: Presence;
}

/**
 * Adds the poker table REST routes to an app built by buildApp (before `ready`/`listen`): /v1/tables,
 * /v1/admin/…, /v1/tables/skill.md and protocol.json. The socket /v1/poker/ws is the realtime
 * stack's, with `pokerWire`; deadlines are the runtime's scheduler's.
 */
export async function registerPoker(app: FastifyInstance, ctx: ModuleContext): Promise<PokerPlugin> {
  const tables = new PokerTables(ctx.runtime, { bus: ctx.app.bus, hub: app.realtime }, (ids) =>
    ctx.app.drivers ? ctx.app.drivers.drivenSeats(ids) : Promise.resolve(new Map()),
  );
  const presence = presenceOf(ctx.app);
  pokerRoutes(app, { ctx, tables, presence });
  return { tables, presence };
}

/** Seed 002's no-limit hold'em tables (REST /v1/tables, WebSocket /v1/poker/ws, skill doc). */
export const pokerModule: ProtocolModule = {
  protocol: poker,
  agent: pokerAgent,
  scripted: () => pokerScript,
  routes: async (app, ctx) => {
    await registerPoker(app, ctx);
  },
  skillDoc: ({ publicUrl }) => pokerSkillDoc(publicUrl),
  wire: pokerWire,
  agentRecord: pokerAgentRecord,
};
