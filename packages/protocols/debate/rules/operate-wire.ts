import { z } from 'zod';
import { SeatIdSchema } from './config.ts';

/** The wire of POST /v1/debate/rooms/:id/operate (server/operate.ts), shared by the CLI and web. */

const reason = z.string().min(1).max(500).optional();
export const OperateBodySchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('abort'), reason }).strict(),
  z.object({ op: z.literal('pause'), reason }).strict(),
  z.object({ op: z.literal('resume') }).strict(),
  z.object({ op: z.literal('extend'), seconds: z.number().int().min(1).max(86_400), reason }).strict(),
  z
    .object({
      op: z.literal('replace'),
      seat: SeatIdSchema,
      /** The new holder: an agent or a person the server knows. */
      principal: z.string().min(1).max(200),
      reason,
    })
    .strict(),
]);
export type OperateBody = z.infer<typeof OperateBodySchema>;

export const OperateResponseSchema = z.object({
  room_id: z.string(),
  op: z.enum(['abort', 'pause', 'resume', 'extend', 'replace']),
  /** The operation's entry. */
  seq: z.number().int(),
  /** replace: the new holder's join entry. */
  join_seq: z.number().int().optional(),
});
export type OperateResponse = z.infer<typeof OperateResponseSchema>;
