import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { checkedCredential } from '../auth/limits.ts';
import type { AppContext } from '../routes/context.ts';

// What both server-sent-event routes (/v1/rooms/:id/events and the typed /events) do alike: who is
// asking, and taking the response over from Fastify with the event-stream head.

/** The header credential, or `?token=` (EventSource cannot send headers) through the same failed-key limiter. */
export async function sseCaller(ctx: AppContext, req: FastifyRequest, token: string | undefined) {
  if (req.auth) return req.auth;
  return token ? checkedCredential(ctx.limits, req.ip, token, () => ctx.authn.fromBearer(token)) : null;
}

/** Hijacks the reply and writes the stream's head; the caller writes events and ends it. */
export function openEventStream(reply: FastifyReply): ServerResponse {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // A proxy must not buffer the stream (nginx reads this header).
    'x-accel-buffering': 'no',
  });
  return res;
}
