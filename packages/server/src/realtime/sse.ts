import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';
import { viewerIn } from '../routes/access.ts';
import type { AppContext } from '../routes/context.ts';
import type { ZodTypeProvider } from '../routes/zod.ts';
import { EventsQuerySchema, RoomParamsSchema } from '../schemas/rest.ts';
import type { Frame } from './frame.ts';
import type { RealtimeHub } from './hub.ts';
import { openEventStream, sseCaller } from './sse-stream.ts';

const MAX_BUFFERED = 8 * 1024 * 1024;
const HEARTBEAT_MS = 15_000;

function parseLastEventId(h: string | string[] | undefined): number | undefined {
  const v = Array.isArray(h) ? h[0] : h;
  if (v === undefined || v === '') return undefined;
  if (!/^-?\d{1,16}$/.test(v)) throw new ApiError(400, 'BAD_REQUEST', 'Last-Event-ID must be a seq');
  const n = Number(v);
  if (n < -1) throw new ApiError(400, 'BAD_REQUEST', 'Last-Event-ID must be >= -1');
  return n;
}

/**
 * GET /v1/rooms/:id/events — the room's entries (event `entry`, id = seq) and this viewer's state
 * (event `state`) as server-sent events. Resume with Last-Event-ID (or ?since=): entries after it
 * are replayed from the store first, with no gap and no duplicate.
 */
export function sseRoutes(root: FastifyInstance, ctx: AppContext, hub: RealtimeHub): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  // Open responses, ended when the server closes (a hijacked response would hold it open).
  const openStreams = new Set<ServerResponse>();
  root.addHook('preClose', async () => {
    for (const res of openStreams) res.end();
  });
  app.get(
    '/v1/rooms/:id/events',
    {
      schema: {
        tags: ['realtime'],
        summary: 'Server-sent events: entries (id = seq) and state; resume with Last-Event-ID',
        params: RoomParamsSchema,
        querystring: EventsQuerySchema,
      },
    },
    async (req, reply) => {
      const roomId = req.params.id;
      // ?token= (EventSource cannot send headers) passes the same failed-key limiter as a header.
      const token = req.query.token;
      const auth = await sseCaller(ctx, req, token);
      const lastEventId = parseLastEventId(req.headers['last-event-id']);
      const room = await ctx.runtime.getRoom(roomId);
      const viewer = await viewerIn(ctx, auth, roomId);
      const since = Math.min(lastEventId ?? req.query.since ?? room.seq, room.seq);

      const res = openEventStream(reply);
      openStreams.add(res);
      let off = () => {};
      const write = (text: string | Buffer) => {
        if (res.writableEnded || res.destroyed) return;
        if (res.writableLength > MAX_BUFFERED) {
          end();
          return;
        }
        res.write(text);
      };
      const heartbeat = setInterval(() => write(': ping\n\n'), HEARTBEAT_MS);
      heartbeat.unref();
      const end = () => {
        clearInterval(heartbeat);
        off();
        openStreams.delete(res);
        if (!res.writableEnded) res.end();
      };
      res.on('close', end);
      write(`retry: 2000\n: room ${roomId} from seq ${since + 1}\n\n`);

      const sub = hub.subscribe(roomId, viewer, since, {
        entry: (f) => write(f.sse),
        ...(req.query.state === '0' ? {} : { state: (f: Frame) => write(f.sse) }),
        fail: (err) => {
          const message = err instanceof Error ? err.message : 'feed failed';
          write(`event: error\ndata: ${JSON.stringify({ code: 'FEED_FAILED', message })}\n\n`);
          end();
        },
        batch: (fn) => {
          res.cork();
          try {
            fn();
          } finally {
            res.uncork();
          }
        },
      });
      off = () => sub.close();
      void sub.start();
    },
  );
}
