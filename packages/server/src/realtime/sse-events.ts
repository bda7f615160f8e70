import type { ServerResponse } from 'node:http';
import type { RoomEvent } from '@db8/core';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { viewerIn } from '../routes/access.ts';
import type { AppContext } from '../routes/context.ts';
import type { ZodTypeProvider } from '../routes/zod.ts';
import { RoomIdSchema } from '../schemas/common.ts';
import type { RealtimeHub } from './hub.ts';
import { RoomEventStream, type RoomEventsHub } from './room-events.ts';
import { openEventStream, sseCaller } from './sse-stream.ts';

const MAX_BUFFERED = 1024 * 1024;
const HEARTBEAT_MS = 15_000;

export const RoomEventsQuerySchema = z.object({
  room_id: RoomIdSchema,
  /** A session token (EventSource cannot send an Authorization header). */
  token: z.string().min(1).max(4096).optional(),
});

/**
 * GET /events?room_id= — seed 000's typed room events as server-sent events (`event: <t>`, data the
 * event object): the protocol's own (debate: phase, timer, submission, vote) as this viewer may see
 * them, then presence and typing. The same objects as a WebSocket subscription with `events: true`
 * (one producer: realtime/room-events.ts). The stream ends when the room closes (its final events
 * first); a room already closed answers 204, which also tells an EventSource not to reconnect.
 */
export function sseEventRoutes(
  root: FastifyInstance,
  ctx: AppContext,
  hub: RealtimeHub,
  events: RoomEventsHub,
): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const open = new Set<ServerResponse>();
  root.addHook('preClose', async () => {
    for (const res of open) res.end();
  });
  app.get(
    '/events',
    {
      schema: {
        tags: ['realtime'],
        summary:
          "Server-sent typed room events (a protocol's, then presence and typing); ends when the room closes",
        querystring: RoomEventsQuerySchema,
      },
    },
    async (req, reply) => {
      const roomId = req.query.room_id;
      const token = req.query.token;
      const auth = await sseCaller(ctx, req, token);
      const room = await ctx.runtime.getRoom(roomId);
      const viewer = await viewerIn(ctx, auth, roomId);
      // `connection: close`: nothing more comes from this client (an EventSource stops here), and an
      // idle kept-alive socket would only race the keep-alive timeout on its next use.
      if (room.status === 'closed') return reply.code(204).header('connection', 'close').send();

      const res = openEventStream(reply);
      open.add(res);
      const write = (text: string) => {
        if (res.writableEnded || res.destroyed) return;
        if (res.writableLength > MAX_BUFFERED) return end();
        res.write(text);
      };
      const stream = new RoomEventStream(roomId, events.producerFor(room.protocol), events, {
        send: (ev: RoomEvent) => write(`event: ${ev.t}\ndata: ${JSON.stringify(ev)}\n\n`),
        ended: () => end(),
      });
      // Entries are not sent here: the state frames drive the events (built once per viewer class).
      const sub = hub.subscribe(roomId, viewer, room.seq, {
        entry: () => {},
        state: (f) => stream.state(f),
        fail: (err) => {
          const message = err instanceof Error ? err.message : 'feed failed';
          write(`event: error\ndata: ${JSON.stringify({ code: 'FEED_FAILED', message })}\n\n`);
          end();
        },
      });
      const heartbeat = setInterval(() => write(': ping\n\n'), HEARTBEAT_MS);
      heartbeat.unref();
      function end(): void {
        clearInterval(heartbeat);
        stream.close();
        sub.close();
        open.delete(res);
        if (!res.writableEnded) res.end();
      }
      res.on('close', end);
      write(`retry: 2000\n: events of room ${roomId}\n\n`);
      void sub.start();
    },
  );
}
