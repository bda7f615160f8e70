import type { ModuleContext, RoomInfo, SeatLabel, SeatLabeler } from '@db8/server/kit';
import type { Games } from '../cli/game.ts';
import type { ArenaState, Match } from '../rules/index.ts';
import { entrantIdentity } from './entrants.ts';
import { isMatchRoom, matchRoomId } from './tournament.ts';

/**
 * Names beside a match room's seats (issue 28, "Names everywhere, never ids"): the entrants the
 * tournament's schedule put there — public in the tournament's log, which says which entrant takes
 * which seat — each with its profile, once the tournament has closed, where the config says which
 * principal it is (a model or scripted entrant, entrants.ts; an outside or person entrant's claimant
 * is private: a name only).
 * A game whose protocol keeps its seats' holders secret until the close (a debate) is labelled only
 * once the match room has closed with its result, when the protocol unmasks them itself. Every
 * other room: none.
 */
export function arenaSeatLabeler(ctx: ModuleContext, games: Games): SeatLabeler {
  return async (room) => {
    if (!isMatchRoom(room.createdBy)) return null;
    const found = await matchOf(ctx, room);
    if (!found) return null;
    const { state, match } = found;
    const game = games[state.config.game];
    // Masked: only a room whose result the tournament took — closed at its protocol's end, which
    // unmasks. Not one merely closed: a room ended as abandoned never unmasked, and its match is
    // replayed, same seat order, in a new room that is still running.
    if (!game?.seat || (game.seatsMaskedUntilClose && state.results[match.id]?.room !== room.id)) return null;
    // Profiles count the tournament's link to an entrant only once the tournament has closed (for
    // anyone but an admin, the same rule as a held seat: kit/identities.ts), so a profile is
    // named only from then on: before, its page would show no record of the tournament.
    const linked = state.phase === 'closed';
    const labels: Record<string, SeatLabel> = {};
    match.entrants.forEach((name, i) => {
      const entrant = state.config.entrants.find((e) => e.name === name);
      const who = linked && entrant ? entrantIdentity(entrant) : null;
      labels[game.seat!(i)] = { name, ...(who ? { agent_id: who.id } : {}) };
    });
    return labels;
  };
}

/**
 * The tournament and match a match room plays: its id is `<tournament>-<match>` or
 * `<tournament>-<match>-r<attempt>` (tournament.ts), and tournament and match ids may both hold
 * dashes, so each split is tried against the tournament's own schedule.
 */
async function matchOf(
  ctx: ModuleContext,
  room: RoomInfo,
): Promise<{ state: ArenaState; match: Match } | null> {
  const id = room.id;
  for (let dash = id.indexOf('-'); dash > 0; dash = id.indexOf('-', dash + 1)) {
    const tournament = id.slice(0, dash);
    const t = await ctx.runtime.getRoom(tournament).catch(() => null);
    if (t?.protocol !== 'arena') continue;
    const { state } = await ctx.runtime.protocolState(tournament);
    const s = state as ArenaState;
    const rest = id.slice(dash + 1);
    const match = s.matches.find((m) => {
      const attempt = rest.startsWith(`${m.id}-r`) ? Number(rest.slice(m.id.length + 2)) : 1;
      return Number.isInteger(attempt) && attempt >= 1 && matchRoomId(tournament, m.id, attempt) === id;
    });
    if (match) return { state: s, match };
  }
  return null;
}
