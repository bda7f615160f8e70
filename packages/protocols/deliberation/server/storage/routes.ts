import type { SqlDriver } from '@db8/server/kit';
import { ApiError } from '@db8/server/kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { listLessons, recordLessonUse, searchLessons, viewLesson } from './lessons.ts';
import { LESSON_CATEGORIES, TIERS } from './lessons-extract.ts';
import { type SessionFilter, sessionHistory, statistics } from './stats.ts';

/**
 * REST for lessons, history and statistics. Request parts are zod schemas (the app's validator
 * compiler checks them: a bad query is a 400 VALIDATION_FAILED, never a 500), shown at /docs.
 */

export interface StorageRoutesOptions {
  db: SqlDriver;
  /** Throws (e.g. ApiError 401/403) when the request may not do this; reads and the use record. */
  authorize(req: FastifyRequest, access: 'read' | 'write'): Promise<void> | void;
  /** Clock for expiry and use records (unix ms); default Date.now. */
  now?: () => number;
  /** Default `/v1/deliberation`. */
  prefix?: string;
}

const tags = ['deliberation'];
const Text = (n: number) => z.string().trim().min(1).max(n);
const Bool = z.enum(['true', 'false']).transform((v) => v === 'true');
const Ms = z.coerce.number().int().min(0).max(8.64e15);
const Score = z.coerce.number().min(0).max(1);

const LessonFilterShape = {
  domain: Text(80).optional(),
  category: z.enum(LESSON_CATEGORIES).optional(),
  tier: z.enum(TIERS).optional(),
  minTier: z.enum(TIERS).optional(),
  minScore: Score.optional(),
  includeExpired: Bool.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(10_000).default(0),
};
export const LessonsQuerySchema = z.object({ q: Text(500).optional(), ...LessonFilterShape }).strict();
export const LessonParamsSchema = z.object({ id: z.uuid() }).strict();
export const LessonUseBodySchema = z.object({ success: z.boolean() }).strict();

const SessionFilterShape = {
  status: z.enum(['pending', 'running', 'paused', 'completed', 'failed', 'cancelled']).optional(),
  topology: z.enum(['graph_mesh', 'star', 'chain', 'tree']).optional(),
  coordination: z.enum(['cpde', 'dpde', 'adaptive']).optional(),
  domain: Text(80).optional(),
  success: Bool.optional(),
  minConsensus: Score.optional(),
  from: Ms.optional(),
  to: Ms.optional(),
};
export const HistoryQuerySchema = z
  .object({
    ...SessionFilterShape,
    limit: z.coerce.number().int().min(1).max(200).default(50),
    /** The `next_cursor` of the previous page. */
    cursor: z
      .string()
      .regex(/^\d{1,16}:[0-9a-f-]{36}$/)
      .optional(),
  })
  .strict();
export const StatisticsQuerySchema = z.object(SessionFilterShape).strict();

const sessionFilter = (q: z.output<typeof StatisticsQuerySchema>): SessionFilter => ({ ...q });

export function deliberationStorageRoutes(app: FastifyInstance, opts: StorageRoutesOptions): void {
  const base = opts.prefix ?? '/v1/deliberation';
  const now = opts.now ?? Date.now;
  const db = opts.db;

  app.get(
    `${base}/lessons`,
    {
      schema: {
        tags,
        summary: 'Search lessons (full text, ranked, highlighted) or list them',
        querystring: LessonsQuerySchema,
      },
    },
    async (req) => {
      await opts.authorize(req, 'read');
      const q = req.query as z.output<typeof LessonsQuerySchema>;
      if (q.q === undefined)
        return { hits: (await listLessons(db, { ...q, now: now() })).map((lesson) => ({ lesson })) };
      return { hits: await searchLessons(db, { ...q, q: q.q, now: now() }) };
    },
  );

  app.get(
    `${base}/lessons/:id`,
    { schema: { tags, summary: 'One lesson (counts a view)', params: LessonParamsSchema } },
    async (req) => {
      await opts.authorize(req, 'read');
      const lesson = await viewLesson(db, (req.params as { id: string }).id);
      if (!lesson) throw new ApiError(404, 'LESSON_NOT_FOUND', 'no such lesson');
      return { lesson };
    },
  );

  app.post(
    `${base}/lessons/:id/uses`,
    {
      schema: {
        tags,
        summary: 'Record that a lesson was applied and whether it worked (promotes tiers)',
        params: LessonParamsSchema,
        body: LessonUseBodySchema,
      },
    },
    async (req, reply) => {
      await opts.authorize(req, 'write');
      const { success } = req.body as z.output<typeof LessonUseBodySchema>;
      const lesson = await recordLessonUse(db, (req.params as { id: string }).id, { success, now: now() });
      if (!lesson) throw new ApiError(404, 'LESSON_NOT_FOUND', 'no such lesson');
      return reply.code(201).send({ lesson });
    },
  );

  app.get(
    `${base}/history`,
    {
      schema: {
        tags,
        summary: 'Deliberation sessions, newest first, with filters',
        querystring: HistoryQuerySchema,
      },
    },
    async (req) => {
      await opts.authorize(req, 'read');
      const q = req.query as z.output<typeof HistoryQuerySchema>;
      const { cursor, limit, ...filter } = q;
      const [at, id] = cursor ? cursor.split(':') : [];
      const sessions = await sessionHistory(db, {
        ...sessionFilter(filter),
        limit,
        before: at && id ? { createdAt: Number(at), id } : undefined,
      });
      const last = sessions.at(-1);
      return {
        sessions,
        next_cursor: sessions.length === limit && last ? `${last.createdAt}:${last.id}` : null,
      };
    },
  );

  app.get(
    `${base}/statistics`,
    {
      schema: {
        tags,
        summary: 'Totals, success rate, consensus by round, roles, providers, lessons',
        querystring: StatisticsQuerySchema,
      },
    },
    async (req) => {
      await opts.authorize(req, 'read');
      return statistics(db, sessionFilter(req.query as z.output<typeof StatisticsQuerySchema>));
    },
  );
}
