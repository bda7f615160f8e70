import type { FastifyInstance } from 'fastify';
import type { Bus } from './bus/types.ts';
import { type DriverHost, registerDrivers } from './drivers/index.ts';
import { agentRoutes } from './routes/agents.ts';
import type { Runtime } from './runtime/index.ts';
import type { Store } from './store/index.ts';
import { migrate } from './store/migrate.ts';

export interface MountedModules {
  drivers: DriverHost;
}

/**
 * Mounts the app's protocol modules (app.db8.modules) on an app built by buildApp, before it
 * listens: each module's routes and background work, then the driver host that plays model-held
 * seats with the modules' agents and scripted casts.
 */
export async function mountModules(
  app: FastifyInstance,
  opts: { runtime: Runtime; store: Store; bus: Bus; env?: Readonly<Record<string, string | undefined>> },
): Promise<MountedModules> {
  const ctx = app.db8;
  const env = opts.env ?? ctx.env;
  // Each module's own tables before its routes and background work use them.
  const migrations = [...ctx.modules.values()].flatMap((m) => m.migrations ?? []);
  if (migrations.length > 0) await migrate(opts.store.db, migrations);
  const mounted = [...ctx.modules.values()].map((module) => ({
    module,
    ctx: { app: ctx, runtime: opts.runtime, env },
  }));
  for (const m of mounted) await m.module.routes?.(app, m.ctx);
  // Agent profiles gather each module's section with the context its routes got.
  agentRoutes(app, ctx, mounted);
  const drivers = await registerDrivers(app, { ...opts, env, modules: ctx.modules });
  return { drivers };
}
