import { type Rating, standings } from '@db8/protocols/debate';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../errors.ts';
import type { ZodTypeProvider } from '../../routes/zod.ts';
import {
  IdentityParamsSchema,
  RatingHistoryResponseSchema,
  type RatingRow,
  RatingsQuerySchema,
  RatingsResponseSchema,
} from '../../schemas/ratings.ts';
import type { DebateRatings } from './ratings.ts';

const row = (r: Rating): RatingRow => ({
  identity: r.identity,
  rating: r.rating,
  matches: r.matches,
  wins: r.wins,
  losses: r.losses,
  draws: r.draws,
});

/** GET /v1/ratings (leaderboards: global and per topic tag) and GET /v1/ratings/:identity (history). */
export function ratingRoutes(root: FastifyInstance, ratings: DebateRatings): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['ratings'];

  app.get(
    '/v1/ratings',
    {
      schema: {
        tags,
        summary: 'Debate Elo leaderboards: global and per topic tag, from closed debate rooms',
        querystring: RatingsQuerySchema,
        response: { 200: RatingsResponseSchema },
      },
    },
    async (req) => {
      const snap = await ratings.get();
      const { tag, limit } = req.query;
      const tables = Object.entries(snap.topics)
        .filter(([t]) => tag === undefined || t === tag)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([t, table]) => [t, standings(table).slice(0, limit).map(row)] as const);
      return {
        matches: snap.matches,
        computed_at: new Date(snap.computedAt).toISOString(),
        global: tag === undefined ? standings(snap.global).slice(0, limit).map(row) : [],
        tags: Object.fromEntries(tables),
      };
    },
  );

  app.get(
    '/v1/ratings/:identity',
    {
      schema: {
        tags,
        summary: "One identity's ratings and its rating history, match by match",
        params: IdentityParamsSchema,
        response: { 200: RatingHistoryResponseSchema },
      },
    },
    async (req) => {
      const id = req.params.identity;
      const snap = await ratings.get();
      const global = snap.global[id];
      if (!global) throw new ApiError(404, 'UNKNOWN_IDENTITY', `no rated debates for ${id}`);
      const perTag: Record<string, RatingRow> = {};
      for (const [t, table] of Object.entries(snap.topics)) {
        const r = table[id];
        if (r) perTag[t] = row(r);
      }
      return {
        identity: id,
        global: row(global),
        tags: perTag,
        history: snap.history
          .filter((h) => h.identity === id)
          .map((h) => ({
            match: h.match,
            at: h.at,
            scope: h.scope,
            place: h.place,
            before: h.before,
            raw: h.raw,
            delta: h.delta,
            after: h.after,
          })),
      };
    },
  );
}
