import type { ModuleRuntime, SqlDriver, ZodTypeProvider } from '@db8/server/kit';
import { ApiError, RateLimiter, viewerIn } from '@db8/server/kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  CitationCheckRequestSchema,
  CitationCheckSchema,
  type DebateView,
  quoteInSnapshot,
  ResearchFetchResponseSchema,
  ResearchListQuerySchema,
  ResearchListSchema,
  ResearchRequestSchema,
} from '../../rules/index.ts';
import type { AddressPolicy } from './address.ts';
import type { ResearchTool } from './agent-tool.ts';
import { ResearchCache } from './cache.ts';
import { DEFAULT_LIMITS, type FetchLimits, ResearchError } from './fetch.ts';

/**
 * The research tool's REST surface (docs/debate.md, "Research"):
 * - POST /v1/debate/rooms/:id/research {url}: a debater in research, submit or final_submit, or the
 *   fact-checker in verify or final_verify, fetches a page into the room's cache;
 * - GET  /v1/debate/rooms/:id/research[?url=]: the cache (with `url`, one entry and its text);
 * - POST /v1/debate/rooms/:id/research/check {url, quote}: is the quote in the cached snapshot.
 * The seed shares the cache across the room's participants: seat holders and admins read it;
 * once the room is closed (its transcript public), anyone may.
 */

/** Fetches per (room, seat); cache hits are free. */
export interface ResearchLimit {
  max: number;
  windowMs: number;
}
export const DEFAULT_RESEARCH_LIMIT: ResearchLimit = { max: 10, windowMs: 60_000 };

/** `DB8_RESEARCH_LIMIT=<max>/<window seconds>`, e.g. `10/60` (the default). */
export function researchLimitFromEnv(value: string | undefined): ResearchLimit {
  if (!value) return DEFAULT_RESEARCH_LIMIT;
  const m = /^(\d+)\/(\d+)$/.exec(value.trim());
  if (!m || Number(m[1]) < 1 || Number(m[2]) < 1)
    throw new Error(`DB8_RESEARCH_LIMIT must be <max>/<seconds>, e.g. 10/60, not ${value}`);
  return { max: Number(m[1]), windowMs: Number(m[2]) * 1000 };
}

export interface ResearchOptions {
  policy: AddressPolicy;
  limits?: FetchLimits;
  rate?: ResearchLimit;
}

/** Who may fetch in which phases (seed 000: "research_k (tools on)"; drafts are written in submit). */
const FETCHERS: Record<string, ReadonlySet<string>> = {
  debater: new Set(['research', 'submit', 'final_submit']),
  fact_checker: new Set(['verify', 'final_verify']),
};

const Params = z.object({ id: z.string().min(1).max(200) });

export function researchRoutes(
  root: FastifyInstance,
  runtime: Pick<ModuleRuntime, 'getRoom' | 'stateFor'>,
  db: SqlDriver,
  clock: () => number,
  opts: ResearchOptions,
): ResearchTool {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const cache = new ResearchCache(db, opts.policy, opts.limits ?? DEFAULT_LIMITS, clock);
  const rate = opts.rate ?? DEFAULT_RESEARCH_LIMIT;
  const bucket = new RateLimiter(rate.max, rate.windowMs, clock);
  const tags = ['debate'];

  async function debateRoom(id: string) {
    const room = await runtime.getRoom(id);
    if (room.protocol !== 'debate') throw new ApiError(404, 'NOT_A_DEBATE', `room ${id} is not a debate`);
    return room;
  }

  /** Readers of the cache: seat holders and admins; anyone once the room is closed. */
  async function mayRead(req: FastifyRequest, id: string): Promise<void> {
    const room = await debateRoom(id);
    const viewer = await viewerIn(root.db8, req.auth, id);
    if (viewer.kind === 'observer' && room.status !== 'closed')
      throw new ApiError(403, 'FORBIDDEN', "the research cache is the room's participants' until it closes");
  }

  /** One fetch as `seat`: its role and the phase allow it, its bucket has room (cache hits are free). */
  async function researchAs(id: string, seat: string, url: string, principal: string | null) {
    const st = await runtime.stateFor(id, { kind: 'seat', seat });
    const view = st.view as DebateView;
    const phases = FETCHERS[view.you.role];
    if (!phases?.has(view.phase))
      throw new ApiError(
        409,
        'WRONG_PHASE',
        `a ${view.you.role} cannot use the research tool in ${view.phase} (debaters: research, submit, final_submit; the fact-checker: verify, final_verify)`,
      );
    const take = () => {
      const wait = bucket.take(`${id}\u0000${seat}`);
      if (wait !== null)
        throw new ApiError(429, 'RATE_LIMITED', `too many research fetches, retry in ${wait} ms`, {
          retry_after_ms: wait,
        });
    };
    try {
      const got = await cache.fetch(id, url, { seat, principal }, take);
      return { ...got.entry, cached: got.cached };
    } catch (err) {
      if (err instanceof ResearchError) throw new ApiError(err.status, err.code, err.message, err.details);
      throw err;
    }
  }

  app.post(
    '/v1/debate/rooms/:id/research',
    {
      schema: {
        tags,
        summary: "Fetch a web page into the debate room's research cache (server-side, SSRF-safe)",
        params: Params,
        body: ResearchRequestSchema,
        response: { 200: ResearchFetchResponseSchema },
      },
    },
    async (req) => {
      const id = req.params.id;
      await debateRoom(id);
      const viewer = await viewerIn(root.db8, req.auth, id);
      if (viewer.kind !== 'seat')
        throw new ApiError(403, 'FORBIDDEN', 'the research tool is for seat holders of this room');
      return researchAs(id, viewer.seat, req.body.url, req.auth?.principal ?? null);
    },
  );

  app.get(
    '/v1/debate/rooms/:id/research',
    {
      schema: {
        tags,
        summary: "A debate room's research cache; with ?url= one entry and its text snapshot",
        params: Params,
        querystring: ResearchListQuerySchema,
        response: { 200: ResearchListSchema },
      },
    },
    async (req) => {
      const id = req.params.id;
      await mayRead(req, id);
      const url = req.query.url;
      if (url === undefined) return { room_id: id, entries: await cache.list(id) };
      const one = await cache.get(id, url);
      if (!one) throw new ApiError(404, 'NOT_CACHED', `the room has no snapshot of ${url.slice(0, 200)}`);
      return { room_id: id, entries: [one] };
    },
  );

  app.post(
    '/v1/debate/rooms/:id/research/check',
    {
      schema: {
        tags,
        summary: "Check a citation's quote against the room's cached snapshot of its URL",
        params: Params,
        body: CitationCheckRequestSchema,
        response: { 200: CitationCheckSchema },
      },
    },
    async (req) => {
      const id = req.params.id;
      await mayRead(req, id);
      const one = await cache.get(id, req.body.url);
      if (!one) return { url: req.body.url, result: 'not_cached' as const, sha256: null, fetched_at: null };
      return {
        url: req.body.url,
        result: quoteInSnapshot(one.text ?? '', req.body.quote) ? ('found' as const) : ('not_found' as const),
        sha256: one.sha256,
        fetched_at: one.fetched_at,
      };
    },
  );

  return {
    fetch: (roomId, seat, url) => researchAs(roomId, seat, url, null),
    entries: (roomId) => cache.entries(roomId),
  };
}
