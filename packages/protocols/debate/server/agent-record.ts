import {
  type AgentRecordSource,
  type AgentRoomRecord,
  type ModuleRuntime,
  ordinal,
  roomRecord,
  sectionOf,
} from '@db8/server/kit';
import { DebateRecordDetailSchema } from '../rules/ratings-wire.ts';
import { DebateRatings, type IdentityLookup } from './ratings.ts';

/**
 * Debate's section of an agent's profile: its place in each closed debate (from the close entry's
 * unmasked results, as the ratings read them) and its Elo, overall and per topic tag. The ratings
 * only read closed rooms, so nothing here names a seat its room has not unmasked.
 */

/** The ratings each server's debate routes built, so a profile reads the same cached tables. */
const built = new WeakMap<object, DebateRatings>();

export function shareRatings(runtime: object, ratings: DebateRatings): void {
  built.set(runtime, ratings);
}

export function debateAgentRecord(lookup: (rt: ModuleRuntime) => IdentityLookup): AgentRecordSource {
  return {
    detail: DebateRecordDetailSchema,
    async read(q, ctx) {
      let ratings = built.get(ctx.runtime);
      if (!ratings) {
        ratings = new DebateRatings(ctx.runtime, Date.now, lookup(ctx.runtime));
        built.set(ctx.runtime, ratings);
      }
      const scripted = (await ratings.identities([q.principal]))[q.principal]?.scripted === true;
      const all = await ratings.get({ scripted: true });
      const shown = scripted ? all : await ratings.get({ scripted: false });
      // Places from every result (the table with scripted seats folds every debate with a result).
      const places = new Map<string, { place: number; of: number }>();
      const global = all.history.filter((h) => h.scope === 'global');
      for (const h of global.filter((x) => x.identity === q.principal))
        places.set(h.match, { place: h.place, of: global.filter((x) => x.match === h.match).length });
      const matches: AgentRoomRecord[] = q.seats.map((seat) => {
        const p = places.get(seat.roomId);
        if (seat.status === 'open') return roomRecord(seat, { outcome: 'running' });
        // Judges and viewers take part without a place.
        if (seat.role !== 'debater') return roomRecord(seat, { outcome: `took part as ${seat.role}` });
        if (!p) return roomRecord(seat, { outcome: 'no result' });
        return roomRecord(seat, {
          outcome: `${ordinal(p.place)} of ${p.of}`,
          place: p.place,
          won: p.place === 1,
        });
      });
      const row = (
        scope: string,
        r: { rating: number; matches: number; wins: number; losses: number; draws: number },
      ) => ({
        scope,
        rating: Math.round(r.rating),
        matches: r.matches,
        wins: r.wins,
        losses: r.losses,
        draws: r.draws,
      });
      const mine = shown.global[q.principal];
      const ratingsRows = [
        ...(mine ? [row('global', mine)] : []),
        ...Object.entries(shown.topics).flatMap(([tag, table]) => {
          const r = table[q.principal];
          return r ? [row(tag, r)] : [];
        }),
      ];
      const history = shown.history
        .filter((h) => h.scope === 'global' && h.identity === q.principal)
        .map((h) => ({
          room_id: h.match,
          at: h.at,
          before: Math.round(h.before),
          rating: Math.round(h.after),
        }));
      const placed = [...places.values()];
      const avg = placed.length > 0 ? placed.reduce((s, p) => s + p.place, 0) / placed.length : null;
      return sectionOf(
        'debate',
        matches,
        [
          ...(mine ? [{ label: 'rating', value: Math.round(mine.rating) }] : []),
          ...(avg !== null ? [{ label: 'average place', value: Math.round(avg * 10) / 10 }] : []),
        ],
        { detail: { ratings: ratingsRows, history, scripted } },
      );
    },
  };
}
