import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../runtime/index.ts';
import { debateRoomHooks } from './hooks.ts';
import { DebateRatings } from './ratings.ts';
import { ratingRoutes } from './routes.ts';

export { bindIdentity, withRoomCa } from './hooks.ts';
export { DebateRatings, type RatingsSnapshot } from './ratings.ts';

export interface DebatePlugin {
  ratings: DebateRatings;
}

/**
 * The debate protocol's server side (docs/debate.md, "Running a debate"), added to an app built by
 * buildApp before it listens: the room CA in every debate room's trust, identity binding on join,
 * and the ratings API, refolded whenever a room closes.
 */
export async function registerDebate(
  app: FastifyInstance,
  opts: { runtime: Pick<Runtime, 'getRoom' | 'act' | 'listRooms' | 'entries'> },
): Promise<DebatePlugin> {
  const ratings = new DebateRatings(opts.runtime);
  debateRoomHooks(app, opts.runtime);
  ratingRoutes(app, ratings);
  const stop = app.db8.bus.subscribe('*', (e) => {
    if (e.kind === 'close') ratings.invalidate();
  });
  app.addHook('preClose', async () => stop());
  return { ratings };
}
