import { playsOutside } from '../cli/game.ts';
import type { ArenaState, Match } from '../rules/index.ts';
import { seatClaimants } from './claims.ts';
import { LiveMatchRoom } from './live-room.ts';
import type { DriveOptions } from './tournament.ts';

/**
 * The live room of a match with an outside or person entrant, once its server room exists (null
 * for a match the server plays alone: the mirrored room plays it). The entrants' claimants are
 * seated first, so the seat is theirs before anyone else could take it.
 */
export async function liveMatch(
  o: DriveOptions,
  tournament: string,
  s: ArenaState,
  m: Match,
  id: string,
): Promise<LiveMatchRoom | null> {
  if (!m.entrants.some((name) => playsOutside(s.config, name))) return null;
  await seatClaimants(o.runtime, o.game, s.config, tournament, m, id);
  return LiveMatchRoom.open(o.runtime, id, { protocol: o.game.protocol, clock: o.clock, live: o.live });
}
