import type { ActWatch, ModuleRuntime, SqlDriver, ZodTypeProvider } from '@db8/server/kit';
import { ApiError, RateLimiter, RuntimeError, viewerIn } from '@db8/server/kit';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { MODERATOR } from '../rules/config.ts';

/**
 * Seed 000's dead-letter queue and its per-(room, author) submission limit (docs/debate.md, "Dead
 * letters and rate limits"). A refusal writes nothing to the room log, so a submission refused for
 * its signature or its deadline is kept here, with the reason, for its author, admins and the
 * moderator; and each debater's submissions in a room draw on their own bucket, besides the
 * per-principal bucket every request draws on.
 */

/**
 * The refusals the seed sends to the DLQ: a bad or missing signature; a missed deadline (at or past
 * it, before or after the tick) or a payload naming another round's deadline.
 */
export const DEAD_LETTER_CODES: ReadonlySet<string> = new Set([
  'BAD_SIGNATURE',
  'SIGNATURE_REQUIRED',
  'PHASE_CLOSED',
  'WRONG_PHASE',
  'ROUND_MISMATCH',
]);

export interface SubmitLimit {
  /** Submissions per (room, author) in `windowMs`, refilled continuously. */
  max: number;
  windowMs: number;
}

export const DEFAULT_SUBMIT_LIMIT: SubmitLimit = { max: 12, windowMs: 60_000 };

/** `DB8_DEBATE_SUBMIT_LIMIT=<max>/<window seconds>`, e.g. `12/60` (the default). */
export function submitLimitFromEnv(value: string | undefined): SubmitLimit {
  if (!value) return DEFAULT_SUBMIT_LIMIT;
  const m = /^(\d+)\/(\d+)$/.exec(value.trim());
  if (!m || Number(m[1]) < 1 || Number(m[2]) < 1)
    throw new Error(`DB8_DEBATE_SUBMIT_LIMIT must be <max>/<seconds>, e.g. 12/60, not ${value}`);
  return { max: Number(m[1]), windowMs: Number(m[2]) * 1000 };
}

const isSubmit = (action: unknown): boolean =>
  action !== null && typeof action === 'object' && (action as { type?: unknown }).type === 'submit';

/** Watches debate rooms' submissions: the limit before, the dead letter after a refusal. */
export function submissionWatch(db: SqlDriver, limit: SubmitLimit, clock: () => number): ActWatch {
  const bucket = new RateLimiter(limit.max, limit.windowMs, clock);
  return {
    before: ({ roomId, protocol, input }) => {
      if (protocol !== 'debate' || !isSubmit(input.action)) return;
      const wait = bucket.take(`${roomId}\u0000${input.seat}`);
      if (wait !== null)
        throw new RuntimeError(
          'RATE_LIMITED',
          429,
          `too many submissions from ${input.seat} in this room, retry in ${wait} ms`,
          { retry_after_ms: wait },
        );
    },
    refused: async ({ roomId, protocol, input, error }) => {
      if (protocol !== 'debate' || !isSubmit(input.action) || !DEAD_LETTER_CODES.has(error.code)) return;
      await db.query(
        `INSERT INTO debate_dead_letters (room_id, seat, principal, code, message, action_json, at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [
          roomId,
          input.seat,
          input.principal ?? null,
          error.code,
          error.message,
          JSON.stringify(input.action),
          clock(),
        ],
      );
    },
  };
}

const DeadLetterSchema = z.object({
  id: z.number().int(),
  seat: z.string(),
  code: z.string(),
  reason: z.string(),
  at: z.number().int(),
  /** The refused action as sent: only for its author and admins (the moderator sees the list). */
  action: z.unknown().optional(),
});

const ListSchema = z.object({ room_id: z.string(), dead_letters: z.array(DeadLetterSchema) });

interface Row {
  id: string | number;
  seat: string;
  code: string;
  message: string;
  action_json: string;
  at: string | number;
}

/**
 * GET /v1/debate/rooms/:id/dead-letters: admins and the moderator's seat see every refused
 * submission of the room, a debater their own; only the author and admins see what was sent.
 */
export function deadLetterRoutes(
  root: FastifyInstance,
  runtime: Pick<ModuleRuntime, 'getRoom'>,
  db: SqlDriver,
): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/v1/debate/rooms/:id/dead-letters',
    {
      schema: {
        tags: ['debate'],
        summary: "A debate room's refused submissions (signature, deadline) with the reason",
        params: z.object({ id: z.string().min(1).max(200) }),
        response: { 200: ListSchema },
      },
    },
    async (req) => {
      const id = req.params.id;
      const room = await runtime.getRoom(id);
      if (room.protocol !== 'debate') throw new ApiError(404, 'NOT_A_DEBATE', `room ${id} is not a debate`);
      const viewer = await viewerIn(root.db8, req.auth, id);
      if (viewer.kind === 'observer')
        throw new ApiError(403, 'FORBIDDEN', "dead letters are their author's, the moderator's and admins'");
      const all = viewer.kind === 'admin' || (viewer.kind === 'seat' && viewer.seat === MODERATOR);
      const rows = await db.query<Row>(
        `SELECT id, seat, code, message, action_json, at FROM debate_dead_letters
         WHERE room_id = $1 ${all ? '' : 'AND seat = $2'} ORDER BY id LIMIT 500`,
        all ? [id] : [id, viewer.kind === 'seat' ? viewer.seat : ''],
      );
      return {
        room_id: id,
        dead_letters: rows.map((r) => {
          const sealedTo = viewer.kind === 'admin' || (viewer.kind === 'seat' && viewer.seat === r.seat);
          return {
            id: Number(r.id),
            seat: r.seat,
            code: r.code,
            reason: r.message,
            at: Number(r.at),
            ...(sealedTo ? { action: JSON.parse(r.action_json) as unknown } : {}),
          };
        }),
      };
    },
  );
}
