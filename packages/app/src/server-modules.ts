import { arenaServerModule } from '@db8/arena/server';
import { councilModule } from '@db8/council/server';
import { debateModule } from '@db8/debate/server';
import { deliberationModule } from '@db8/deliberation/server';
import { pokerModule } from '@db8/poker/server';
import { questionModule } from '@db8/question/server';
import { sealedBidModule } from '@db8/sealed-bid/server';
import type { ModuleContext, ProtocolModule } from '@db8/server/kit';
import { makeArenaGames } from './arena-games.ts';
import { serverModels } from './arena-server-models.ts';

/**
 * What the server's arena plays: the games the arena CLI plays (arena-games.ts), model entrants
 * through the server's own providers, each call recorded in driver_calls (arena-server-models.ts).
 */
export const arenaServerGames = (ctx: ModuleContext, log: Parameters<typeof serverModels>[1]) => {
  const m = serverModels(ctx, log);
  return { games: makeArenaGames({}, m.models), modelReady: m.ready };
};

/** Every protocol module a db8 server runs out of the box: adding a protocol is one line here. */
export const builtinModules: readonly ProtocolModule[] = [
  sealedBidModule,
  pokerModule,
  councilModule,
  debateModule,
  questionModule,
  deliberationModule,
  arenaServerModule(arenaServerGames),
];
