import { fileURLToPath } from 'node:url';
import { type ModuleContext, migrationsIn, type ProtocolModule } from '@db8/server/kit';
import type { Games } from '../cli/game.ts';
import { arena } from '../rules/index.ts';
import { arenaAgentRecord } from './agent-record.ts';
import { entrantLinker } from './entrants.ts';
import type { Pace } from './match-room.ts';
import { arenaMcpTools, arenaRoutes } from './routes.ts';
import { type RunnerGames, type RunnerLog, runnerOptions, TournamentRunner } from './runner.ts';
import { arenaSeatLabeler } from './seat-labels.ts';
import { arenaSkillDoc } from './skill.ts';
import { isMatchRoom } from './tournament.ts';

export { type ArenaDetail, ArenaDetailSchema } from './agent-record.ts';
export { entrantIdentity } from './entrants.ts';
export type { Pace } from './match-room.ts';
export type { RunnerGames } from './runner.ts';
export { isMatchRoom, matchRoomId } from './tournament.ts';

/**
 * A tournament is created and read like any room: the generic routes serve it; its view holds the
 * standings. The server plays the tournaments it can (runner.ts): `games` are the match protocols
 * it plays, supplied by the composition root (a protocol never imports another); none, and every
 * tournament waits for its organizer seat. Given as a function of the module's context, they may
 * play model entrants through the server's providers (`modelReady` says which it can play).
 * `pace`, awaited before each write of every match this server plays, is the one injection point for
 * tests (hold a match at a chosen write until the test lets it go or the server stops); unset, the
 * server waits `DB8_ARENA_STEP_DELAY_MS` there.
 */
export function arenaServerModule(
  games: Games | ((ctx: ModuleContext, log: RunnerLog) => RunnerGames) = {},
  hooks: { pace?: Pace } = {},
): ProtocolModule {
  return {
    protocol: arena,
    agentRecord: arenaAgentRecord,
    routes(app, ctx) {
      const setup = typeof games === 'function' ? games(ctx, app.log) : { games };
      const options = { ...runnerOptions(ctx.env), ...(hooks.pace ? { pace: hooks.pace } : {}) };
      const runner = new TournamentRunner(ctx, setup, options, app.log);
      arenaRoutes(app, ctx, setup.games);
      // A match room's seats are the tournament's to give: the server plays its entrants' seats and
      // seats each claimant itself (claims.ts), so a stranger who joined would take a seat the server
      // plays (its moves refused) or an entrant's. Only the public join is refused; a rejoin passes.
      ctx.app.joinGuards.push(async (roomId) => {
        const room = await ctx.runtime.getRoom(roomId).catch(() => null);
        return room && isMatchRoom(room.createdBy)
          ? `room ${roomId} is a match of an arena tournament: its seats are given to the tournament's entrants (an outside entrant claims its invitation: see the arena's skill.md)`
          : null;
      });
      // Each match room's seats named by the entrants the schedule put there (seat-labels.ts).
      ctx.app.seatLabelers.push(arenaSeatLabeler(ctx, setup.games));
      // After listen: every module's routes are mounted and the runtime is serving.
      // Each tournament's model and scripted entrants are linked to their profiles (entrants.ts).
      const linker = entrantLinker(ctx, app.log);
      app.addHook('onReady', async () => {
        linker.start();
        runner.start();
      });
      app.addHook('onClose', async () => {
        linker.stop();
        await runner.stop();
      });
    },
    // Who claimed which outside or person entrant (entrants.ts).
    migrations: migrationsIn(fileURLToPath(new URL('./migrations', import.meta.url))),
    mcpTools: arenaMcpTools,
    skillDoc: ({ publicUrl }) => arenaSkillDoc(publicUrl),
  };
}

/** The arena without match games: tournaments are written by their organizer seat only. */
export const arenaModule: ProtocolModule = arenaServerModule();
