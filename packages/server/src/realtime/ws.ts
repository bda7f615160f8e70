import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AuthContext } from '../auth/types.ts';
import { ApiError, toHttpError, zodDetails } from '../errors.ts';
import { actorFor, viewerIn } from '../routes/access.ts';
import type { AppContext } from '../routes/context.ts';
import { ackToWire, viewerToWire } from '../routes/wire.ts';
import { isSupportedVersion, MIN_SUPPORTED_PROTOCOL_VERSION, PROTOCOL_VERSION } from '../schemas/common.ts';
import { type ClientMessage, ClientMessageSchema } from '../schemas/ws.ts';
import { envelope } from './envelope.ts';
import type { Subscription } from './feed.ts';
import type { Frame } from './frame.ts';
import type { RealtimeHub } from './hub.ts';

/** The slice of a `ws` WebSocket we use. */
interface Socket {
  readonly readyState: number;
  readonly bufferedAmount: number;
  send(data: string | Buffer, opts?: { binary?: boolean }): void;
  ping(): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  on(ev: 'message', fn: (data: Buffer | string, isBinary: boolean) => void): void;
  on(ev: 'close' | 'pong', fn: () => void): void;
  on(ev: 'error', fn: (err: Error) => void): void;
}

const OPEN = 1;
const MAX_SUBSCRIPTIONS = 64;
/** A client that cannot keep up is dropped (it resumes with `since`) rather than buffered forever. */
const MAX_BUFFERED = 8 * 1024 * 1024;
const BUCKET = { burst: 100, perSec: 20 };

const QuerySchema = z.object({ token: z.string().min(1).max(16_384).optional() }).loose();

/** One WebSocket connection: hello/welcome, subscriptions (room feeds), actions, ping. */
class Connection {
  private auth: AuthContext | null = null;
  private hello = false;
  private readonly feeds = new Map<string, { auth: AuthContext | null; sub: Subscription }>();
  private chain: Promise<void> = Promise.resolve();
  private tokens = BUCKET.burst;
  private lastRefill: number;
  private alive = true;
  private readonly heartbeat: NodeJS.Timeout;
  private closed = false;
  private readonly log: FastifyBaseLogger;

  constructor(
    private readonly ctx: AppContext,
    private readonly hub: RealtimeHub,
    private readonly ws: Socket,
    req: FastifyRequest,
  ) {
    this.log = req.log;
    this.lastRefill = ctx.clock();
    // Credentials: the Authorization header (already resolved) or ?token= (browsers cannot set headers).
    const q = QuerySchema.safeParse(req.query);
    const token = q.success ? q.data.token : undefined;
    this.auth = req.auth;
    if (!this.auth && token) {
      this.enqueue(async () => {
        try {
          this.auth = await ctx.authn.fromBearer(token);
        } catch (e) {
          this.sendError(null, null, e);
          this.ws.close(1008, 'invalid token');
          this.closed = true;
        }
      });
    }
    ws.on('message', (data, isBinary) => this.onMessage(data, isBinary));
    ws.on('pong', () => {
      this.alive = true;
    });
    ws.on('close', () => this.cleanup());
    ws.on('error', () => this.cleanup());
    this.heartbeat = setInterval(() => {
      if (!this.alive) {
        this.ws.terminate();
        return;
      }
      this.alive = false;
      try {
        this.ws.ping();
      } catch {
        // closing anyway
      }
    }, ctx.config.wsHeartbeatSec * 1000);
    this.heartbeat.unref();
  }

  private send(text: string | Buffer): void {
    if (this.closed || this.ws.readyState !== OPEN) return;
    if (this.ws.bufferedAmount > MAX_BUFFERED) {
      this.ws.close(1013, 'slow consumer: reconnect and resume with since');
      this.cleanup();
      return;
    }
    // Frames are shared bytes (serialised once per viewer class): send them as text frames.
    if (typeof text === 'string') this.ws.send(text);
    else this.ws.send(text, { binary: false });
  }

  private sendFrame(f: Frame): void {
    this.send(f.ws);
  }

  private sendError(roomId: string | null, id: string | undefined | null, err: unknown): void {
    const { body, internal } = toHttpError(err);
    if (internal) this.log.error({ err }, 'ws handler error');
    const seq = roomId ? (this.feeds.get(roomId)?.sub.lastSeq ?? 0) : 0;
    this.send(envelope('error', roomId, Math.max(seq, 0), body.error, this.ctx.clock(), id ?? undefined));
  }

  /** Client messages are handled one at a time, in arrival order. */
  private enqueue(fn: () => Promise<void>): void {
    this.chain = this.chain.then(fn).catch(() => {});
  }

  private allow(): boolean {
    const now = this.ctx.clock();
    this.tokens = Math.min(BUCKET.burst, this.tokens + ((now - this.lastRefill) / 1000) * BUCKET.perSec);
    this.lastRefill = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  private onMessage(data: Buffer | string, isBinary: boolean): void {
    if (this.closed) return;
    // Replies go out in request order, errors included.
    this.enqueue(async () => this.dispatch(data, isBinary));
  }

  private async dispatch(data: Buffer | string, isBinary: boolean): Promise<void> {
    if (this.closed) return;
    if (!this.allow()) {
      this.sendError(null, null, new ApiError(429, 'RATE_LIMITED', 'too many messages'));
      return;
    }
    if (isBinary) {
      this.sendError(null, null, new ApiError(400, 'BAD_REQUEST', 'binary frames are not supported'));
      return;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(String(data));
    } catch {
      this.sendError(null, null, new ApiError(400, 'INVALID_JSON', 'message is not JSON'));
      return;
    }
    const id =
      raw && typeof raw === 'object' && typeof (raw as { id?: unknown }).id === 'string'
        ? ((raw as { id: string }).id.slice(0, 128) as string)
        : undefined;
    const parsed = ClientMessageSchema.safeParse(raw);
    if (!parsed.success) {
      this.sendError(
        null,
        id,
        new ApiError(400, 'VALIDATION_FAILED', 'message does not match the schema', zodDetails(parsed.error)),
      );
      return;
    }
    await this.handle(parsed.data);
  }

  private async handle(msg: ClientMessage): Promise<void> {
    if (this.closed) return;
    const now = this.ctx.clock();
    if (msg.type === 'ping') {
      this.send(envelope('pong', null, 0, {}, now, msg.id));
      return;
    }
    if (msg.type === 'hello') {
      const v = msg.payload.client_protocol_version;
      if (!isSupportedVersion(v)) {
        this.sendError(
          null,
          msg.id,
          new ApiError(426, 'OUTDATED_CLIENT', `client protocol ${v} is no longer supported`, {
            protocol_version: PROTOCOL_VERSION,
            min_supported_protocol_version: MIN_SUPPORTED_PROTOCOL_VERSION,
            skill_doc_url: this.ctx.skillDocUrl,
          }),
        );
        this.ws.close(1008, 'OUTDATED_CLIENT');
        this.cleanup();
        return;
      }
      if (msg.payload.token) {
        try {
          this.auth = await this.ctx.authn.fromBearer(msg.payload.token);
        } catch (e) {
          this.sendError(null, msg.id, e);
          return;
        }
      }
      this.hello = true;
      this.send(
        envelope(
          'welcome',
          null,
          0,
          {
            protocol_version: PROTOCOL_VERSION,
            min_supported_protocol_version: MIN_SUPPORTED_PROTOCOL_VERSION,
            skill_doc_url: this.ctx.skillDocUrl,
            principal: this.auth?.principal ?? null,
            role: this.auth?.role ?? null,
            server_time_ms: now,
            heartbeat_ms: this.ctx.config.wsHeartbeatSec * 1000,
          },
          now,
          msg.id,
        ),
      );
      return;
    }
    if (!this.hello) {
      this.sendError(
        null,
        msg.id,
        new ApiError(400, 'HELLO_REQUIRED', 'send hello with client_protocol_version first'),
      );
      return;
    }
    try {
      if (msg.type === 'subscribe') await this.subscribe(msg);
      else if (msg.type === 'unsubscribe') {
        const roomId = msg.payload.room_id;
        this.feeds.get(roomId)?.sub.close();
        this.feeds.delete(roomId);
        this.send(envelope('unsubscribed', roomId, 0, { room_id: roomId }, now, msg.id));
      } else if (msg.type === 'action') await this.act(msg);
    } catch (e) {
      const roomId = 'room_id' in msg.payload ? (msg.payload.room_id as string) : null;
      this.sendError(roomId, msg.id, e);
    }
  }

  private async subscribe(msg: Extract<ClientMessage, { type: 'subscribe' }>): Promise<void> {
    const { room_id: roomId, since, token } = msg.payload;
    const auth = token ? await this.ctx.authn.fromBearer(token) : this.auth;
    if (!this.feeds.has(roomId) && this.feeds.size >= MAX_SUBSCRIPTIONS) {
      throw new ApiError(400, 'TOO_MANY_SUBSCRIPTIONS', `at most ${MAX_SUBSCRIPTIONS} rooms per connection`);
    }
    const room = (await this.ctx.runtime.getRoom(roomId)) as { seq: number };
    const viewer = await viewerIn(this.ctx, auth, roomId);
    this.feeds.get(roomId)?.sub.close();
    // A client cannot have seen past the head: clamp, so a stale `since` never hides entries.
    const from = Math.min(since ?? room.seq, room.seq);
    const sub = this.hub.subscribe(roomId, viewer, from, {
      entry: (f) => this.sendFrame(f),
      state: (f) => this.sendFrame(f),
      fail: (err) => {
        this.sendError(roomId, undefined, err);
        if (this.feeds.get(roomId)?.sub === sub) this.feeds.delete(roomId);
      },
    });
    this.feeds.set(roomId, { auth, sub });
    this.send(
      envelope(
        'subscribed',
        roomId,
        room.seq,
        { room_id: roomId, viewer: viewerToWire(viewer), head_seq: room.seq },
        this.ctx.clock(),
        msg.id,
      ),
    );
    void sub.start();
  }

  private async act(msg: Extract<ClientMessage, { type: 'action' }>): Promise<void> {
    const p = msg.payload;
    const auth = this.feeds.get(p.room_id)?.auth ?? this.auth;
    const principal = actorFor(auth, p.room_id, p.seat);
    const ack = await this.ctx.runtime.act(p.room_id, {
      seat: p.seat,
      action: p.action,
      ...(p.client_nonce !== undefined ? { clientNonce: p.client_nonce } : {}),
      ...(p.turn_token !== undefined ? { turnToken: p.turn_token } : {}),
      ...(p.expected_seq !== undefined ? { expectedSeq: p.expected_seq } : {}),
      ...(principal !== undefined ? { principal } : {}),
    });
    this.send(envelope('ack', p.room_id, ack.seq, ackToWire(p.room_id, ack), this.ctx.clock(), msg.id));
  }

  cleanup(): void {
    if (this.closed && this.feeds.size === 0) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    for (const { sub } of this.feeds.values()) sub.close();
    this.feeds.clear();
  }
}

export function wsRoutes(app: FastifyInstance, ctx: AppContext, hub: RealtimeHub): void {
  app.route({
    method: 'GET',
    url: '/v1/ws',
    schema: { hide: true },
    // A plain GET (no Upgrade) is told what this endpoint is, in the error shape.
    handler: async (_req, reply) =>
      reply
        .code(426)
        .header('upgrade', 'websocket')
        .send({ error: { code: 'UPGRADE_REQUIRED', message: 'connect with a WebSocket client' } }),
    wsHandler: (socket, req) => {
      new Connection(ctx, hub, socket as unknown as Socket, req);
    },
  });
}
