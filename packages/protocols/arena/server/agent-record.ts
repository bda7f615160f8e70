import { type AgentRecordSource, ordinal, roomRecord, sectionOf } from '@db8/server/kit';
import { type ArenaState, standingsOf } from '../rules/index.ts';
import { type ArenaDetail, ArenaDetailSchema } from '../rules/profile.ts';

export { type ArenaDetail, ArenaDetailSchema };

const round = (x: number) => Math.round(x);

/**
 * The arena's section of a profile: per tournament the entrant linked to this principal (its seat
 * label is the entrant's name, server/entrants.ts), its place in the standings the log folds to,
 * its Bradley–Terry rating with the bootstrap interval, and the matches it played. A tournament is
 * public from its genesis, but the platform hands over closed ones only (an admin's: all).
 */
export const arenaAgentRecord: AgentRecordSource = {
  detail: ArenaDetailSchema,
  async read(q, ctx) {
    const rows = [];
    const tournaments: ArenaDetail['tournaments'] = [];
    let played = 0;
    for (const seat of q.seats) {
      const { state } = await ctx.runtime.protocolState(seat.roomId);
      const s = state as ArenaState;
      const standings = standingsOf(s);
      const i = standings.rows.findIndex((r) => r.entrant === seat.seat);
      const row = standings.rows[i];
      const title = seat.title ?? s.config.name;
      if (!row) {
        // The organizer seat's holder (a principal that wrote the record, not an entrant).
        rows.push(
          roomRecord(
            { ...seat, title },
            { outcome: seat.role === 'organizer' ? 'organized' : 'not in the standings' },
          ),
        );
        continue;
      }
      const matches = Object.values(s.results).filter((r) =>
        r.placements.some((p) => p.entrant === seat.seat),
      ).length;
      played += matches;
      const place = i + 1;
      const ci = row.ci ? ` [${round(row.ci[0])}, ${round(row.ci[1])}]` : '';
      const closed = s.phase === 'closed';
      rows.push(
        roomRecord(
          { ...seat, title },
          {
            outcome: `${closed ? '' : 'so far '}${ordinal(place)} of ${standings.rows.length}, rating ${round(row.rating)}${ci}, ${matches} match${matches === 1 ? '' : 'es'}`,
            won: closed ? place === 1 : null,
            place,
          },
        ),
      );
      tournaments.push({
        room_id: seat.roomId,
        name: s.config.name,
        game: s.config.game,
        entrant: seat.seat,
        place,
        of: standings.rows.length,
        rating: row.rating,
        ci: row.ci,
        sets: row.played,
        matches,
        closed,
      });
    }
    return sectionOf('arena', rows, [{ label: 'matches played', value: played }], {
      detail: { tournaments },
    });
  },
};
