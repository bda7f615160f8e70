import type { ZodTypeProvider } from '@db8/server/kit';
import { ApiError } from '@db8/server/kit';
import type { FastifyInstance } from 'fastify';
import { type Rating, standings } from '../rules/index.ts';
import {
  IdentitiesQuerySchema,
  IdentitiesResponseSchema,
  type IdentityInfo,
  IdentityParamsSchema,
  IdentityQuerySchema,
  RatingHistoryResponseSchema,
  type RatingRow,
  RatingsQuerySchema,
  RatingsResponseSchema,
} from '../rules/ratings-wire.ts';
import type { DebateRatings } from './ratings.ts';

const row = (r: Rating, info: Record<string, IdentityInfo>): RatingRow => ({
  identity: r.identity,
  name: info[r.identity]?.name ?? null,
  scripted: info[r.identity]?.scripted ?? false,
  rating: r.rating,
  matches: r.matches,
  wins: r.wins,
  losses: r.losses,
  draws: r.draws,
});

/**
 * GET /v1/ratings (leaderboards: global and per topic tag), GET /v1/ratings/:identity (history) and
 * GET /v1/identities (the names a debate's unmasked results show in place of principal ids).
 */
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
      const { tag, limit, scripted } = req.query;
      const snap = await ratings.get({ scripted: scripted === 'include' });
      const tables = Object.entries(snap.topics)
        .filter(([t]) => tag === undefined || t === tag)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([t, table]) => [t, standings(table).slice(0, limit)] as const);
      const global = tag === undefined ? standings(snap.global).slice(0, limit) : [];
      const shown = [...global, ...tables.flatMap(([, t]) => t)].map((r) => r.identity);
      const info = await ratings.identities([...new Set(shown)]);
      return {
        matches: snap.matches,
        unrated: snap.unrated,
        computed_at: new Date(snap.computedAt).toISOString(),
        global: global.map((r) => row(r, info)),
        tags: Object.fromEntries(tables.map(([t, rows]) => [t, rows.map((r) => row(r, info))])),
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
        querystring: IdentityQuerySchema,
        response: { 200: RatingHistoryResponseSchema },
      },
    },
    async (req) => {
      const id = req.params.identity;
      const snap = await ratings.get({ scripted: req.query.scripted === 'include' });
      const info = await ratings.identities([id]);
      const global = snap.global[id];
      if (!global) throw new ApiError(404, 'UNKNOWN_IDENTITY', `no rated debates for ${id}`);
      const perTag: Record<string, RatingRow> = {};
      for (const [t, table] of Object.entries(snap.topics)) {
        const r = table[id];
        if (r) perTag[t] = row(r, info);
      }
      return {
        identity: id,
        name: info[id]?.name ?? null,
        scripted: info[id]?.scripted ?? false,
        global: row(global, info),
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

  app.get(
    '/v1/identities',
    {
      schema: {
        tags,
        summary: 'Display names (and the scripted flag) of agents and people, by principal id',
        querystring: IdentitiesQuerySchema,
        response: { 200: IdentitiesResponseSchema },
      },
    },
    async (req) => ({ identities: await ratings.identities(req.query.ids) }),
  );
}
