import { fileURLToPath } from 'node:url';
import type { ModuleContext, ProtocolModule } from '@db8/server/kit';
import { migrationsIn, requireAuth } from '@db8/server/kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { deliberation } from '../rules/index.ts';
import { deliberationAgent } from './agent.ts';
import { deliberationAgentRecord } from './agent-record.ts';
import { deliberationRestRoutes } from './routes.ts';
import { assertSandboxFor, sandboxOptionsFromEnv } from './sandbox.ts';
import { sqlSandboxRuns, sweepLegacyTempDirs } from './sandbox-runs.ts';
import { deliberationScript } from './scripted.ts';
import { deliberationSkillDoc } from './skill.ts';
import {
  applyEntry,
  countGivenLessons,
  deliberationStorageRoutes,
  withGivenLessons,
} from './storage/index.ts';
import { DeliberationWorker } from './worker.ts';

export { awaitingMeasurement, deliberationAgent, MEASURE_WAIT_MS } from './agent.ts';
export {
  type LocalDeliberation,
  type LocalDeliberationOptions,
  type LocalProgress,
  runLocalDeliberation,
} from './local.ts';
export { CreateDebateBodySchema, debateToRoom } from './rest-shapes.ts';
export { deliberationRestRoutes } from './routes.ts';
export * from './sandbox.ts';
export * from './sandbox-runs.ts';
export { deliberationScript, deliberationScriptReply, scriptedText } from './scripted.ts';
export { callMetaOf, playTurn, type TurnOutcome, turnKey, turnOf, turnPrompt } from './turn.ts';
export { replySchema } from './turn-reply.ts';
export { type Committed, type CommittedListener, DeliberationWorker } from './worker.ts';

/** What the module's `routes` returns (the mounted handle): the worker and its hook. */
export interface DeliberationPlugin {
  worker: DeliberationWorker;
  /**
   * The committed-entry hook: `fn({room, seq, ts, fromSeq}, state)` after entries are committed to
   * a deliberation room, with the folded state after `seq` (worker.ts). The storage projection is
   * registered through it; another consumer adds itself the same way. Returns the removal.
   */
  onCommitted: DeliberationWorker['onCommitted'];
}

/**
 * The module's background work and routes: the worker (committed-entry hook + the sandbox
 * measurer) on the bus, the storage projection on the hook (unless DB8_DELIBERATION_PROJECTION=off),
 * upstream-shaped REST (/v1/debates…) and the storage routes (/v1/deliberation/…).
 */
export function registerDeliberation(app: FastifyInstance, ctx: ModuleContext): DeliberationPlugin {
  const db = ctx.app.store.db;
  const worker = new DeliberationWorker(
    ctx.runtime,
    app.log,
    sandboxOptionsFromEnv(ctx.env),
    sqlSandboxRuns(db),
  );
  void sweepLegacyTempDirs().then((removed) => {
    if (removed.length) app.log.info({ removed }, 'deliberation: removed leftover sandbox temp dirs');
  });
  if (ctx.env.DB8_DELIBERATION_PROJECTION !== 'off')
    worker.onCommitted(async (e, state) => {
      const room = await ctx.runtime.getRoom(e.room);
      await applyEntry(db, { room: e.room, seq: e.fromSeq, ts: e.ts }, state, {
        ...(room.createdBy ? { initiatedBy: room.createdBy } : {}),
      });
    });
  // The lessons a session was given count as used once it ends (storage/lessons-given.ts).
  worker.onCommitted(async (e, state) => {
    await countGivenLessons(db, e.room, state, e.ts);
  });
  const stop = ctx.app.bus.subscribe('*', (entry) => worker.entry(entry));
  app.addHook('preClose', async () => {
    stop();
    await worker.close();
  });
  deliberationRestRoutes(app, ctx, worker);
  deliberationStorageRoutes(app, {
    db,
    authorize: (req: FastifyRequest) => void requireAuth(req),
  });
  return { worker, onCommitted: (fn) => worker.onCommitted(fn) };
}

/** Seed 004's orchestrated deliberation. */
export const deliberationModule: ProtocolModule = {
  protocol: deliberation,
  // Its projection, lessons and sandbox-run tables (docs/deliberation.md#storage).
  migrations: migrationsIn(fileURLToPath(new URL('./migrations', import.meta.url))),
  agent: deliberationAgent(),
  scripted: () => deliberationScript,
  // A code task with tests where no sandbox can run them is refused at creation (409).
  // The lessons the seats are given come from the server's bank, never from the request.
  prepareConfig: async (config, ctx) => {
    assertSandboxFor(config, sandboxOptionsFromEnv(ctx.env));
    return withGivenLessons(ctx.db, config);
  },
  routes: (app, ctx) => {
    registerDeliberation(app, ctx);
  },
  skillDoc: deliberationSkillDoc,
  agentRecord: deliberationAgentRecord,
};
