import { poker } from '@db8/protocols/poker';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../routes/context.ts';
import type { ProtocolModule } from '../module.ts';
import { pokerAgent } from './agent.ts';
import { TableFeeds } from './feeds.ts';
import { Presence } from './presence.ts';
import { pokerRoutes } from './routes.ts';
import { pokerScript } from './scripted.ts';
import { type PokerRuntime, PokerTables } from './service.ts';
import { pokerSkillDoc } from './skill.ts';
import { pokerWsRoutes } from './ws.ts';

export { HOUSE_PRINCIPAL, type PokerRuntime, PokerTables } from './service.ts';
export { pokerSkillDoc } from './skill.ts';

export interface PokerPlugin {
  tables: PokerTables;
  presence: Presence;
  feeds: TableFeeds;
}

/**
 * Adds the poker table server to an app built by buildApp (before `ready`/`listen`): REST under
 * /v1/tables and /v1/admin/…, the WebSocket /v1/poker/ws, /v1/tables/skill.md and protocol.json,
 * and per-table deadline timers (pass the real Runtime, which has `tick`).
 */
export async function registerPoker(
  app: FastifyInstance,
  opts: { runtime?: PokerRuntime; feedPollMs?: number } = {},
): Promise<PokerPlugin> {
  const ctx: AppContext = app.db8;
  const runtime: PokerRuntime = opts.runtime ?? ctx.runtime;
  // Timers wait in real time, measured on the runtime's clock (the one entries are stamped with).
  const clock = () => runtime.now?.() ?? Date.now();
  const tables = new PokerTables(runtime, ctx.bus, clock, (err) => app.log.warn({ err }, 'poker timer'));
  const presence = new Presence(ctx.clock);
  const feeds = new TableFeeds(ctx.bus, ctx.store, opts.feedPollMs);
  tables.watched = (id) => feeds.watching(id);
  pokerRoutes(app, { ctx, tables, presence });
  pokerWsRoutes(app, {
    ctx,
    tables,
    feeds,
    presence,
    skillDocUrl: `${ctx.config.publicUrl}/v1/tables/skill.md`,
  });
  app.addHook('onReady', async () => tables.start());
  app.addHook('preClose', async () => {
    feeds.close();
    await tables.close();
  });
  return { tables, presence, feeds };
}
export { allEntries, loadTableExport, type TableExport, toJsonl, toPhhs } from './export.ts';
export { freePort, type LocalPokerServer, startLocalPokerServer } from './standalone.ts';

/** Seed 002's no-limit hold'em tables (REST /v1/tables, WebSocket /v1/poker/ws, skill doc). */
export const pokerModule: ProtocolModule = {
  protocol: poker,
  agent: pokerAgent,
  scripted: () => pokerScript,
  routes: (app, ctx) => registerPoker(app, { runtime: ctx.runtime }),
  skillDoc: ({ publicUrl }) => pokerSkillDoc(publicUrl),
};
