import { truncateCodePoints } from '@db8/core';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { checkedCredential, limitKey, rateLimited } from '../auth/limits.ts';
import type { AuthContext } from '../auth/types.ts';
import { ApiError, toHttpError } from '../errors.ts';
import type { WireAction, WireCodec, WireCommand, WireReply, WireSession } from '../kit/wire.ts';
import { actorFor, viewerIn } from '../routes/access.ts';
import type { AppContext } from '../routes/context.ts';
import { parseClientJson } from '../routes/strict-json.ts';
import type { Subscription } from './feed.ts';
import type { RealtimeHub } from './hub.ts';
import { nativeWire } from './native.ts';
import { type RoomEventsHub, socketRoomEvents } from './room-events.ts';
import { keepAlive, MessageBucket, type Socket, SocketOut } from './ws-socket.ts';

const MAX_SUBSCRIPTIONS = 64;
const BUCKET = { burst: 100, perSec: 20 };

const QuerySchema = z.object({ token: z.string().min(1).max(16_384).optional() }).loose();

/**
 * One WebSocket connection, whatever its codec: heartbeat, a token bucket on client messages, send
 * buffering (a slow consumer is dropped, to resume with `since`), JSON parsing, one request at a
 * time in arrival order, and subscriptions fed by the room channels (realtime/hub.ts). The codec
 * (protocols/wire.ts) only translates messages.
 */
class Connection {
  private auth: AuthContext | null;
  private hello = false;
  private helloFirst = true;
  /** The room followed from the start (a codec's `follow`): replies without a room are about it. */
  private home: string | null = null;
  private readonly feeds = new Map<
    string,
    { auth: AuthContext | null; sub: Subscription; seat: string | null; extras: { close(): void } }
  >();
  /** Per room, the turn token the last state frame offered this connection's seat (unused yet). */
  private readonly turns = new Map<string, string>();
  private chain: Promise<void> = Promise.resolve();
  private readonly bucket: MessageBucket;
  private readonly out: SocketOut;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly helloTimer: NodeJS.Timeout;
  private readonly ip: string;
  private closed = false;
  private readonly log: FastifyBaseLogger;
  private readonly session: WireSession;

  constructor(
    private readonly ctx: AppContext,
    private readonly hub: RealtimeHub,
    codec: WireCodec,
    private readonly ws: Socket,
    req: FastifyRequest,
    private readonly events?: RoomEventsHub,
  ) {
    this.log = req.log;
    this.session = codec.session(ctx);
    this.bucket = new MessageBucket(codec.rate ?? BUCKET, () => ctx.clock());
    this.out = new SocketOut(ws, () => this.cleanup());
    this.auth = req.auth;
    this.ip = req.ip;
    ws.on('message', (data, isBinary) => this.onMessage(data, isBinary));
    ws.on('close', () => this.cleanup());
    ws.on('error', () => this.cleanup());
    this.heartbeat = keepAlive(ws, ctx.config.wsHeartbeatSec * 1000, () =>
      this.enqueue(() => this.checkRevoked()),
    );
    // A socket that must say hello and never does holds a slot for nothing: close it.
    this.helloTimer = setTimeout(() => {
      if (this.closed || this.hello || !this.helloFirst) return;
      this.fatal(new ApiError(408, 'HELLO_TIMEOUT', 'no hello in time'), 'HELLO_TIMEOUT');
    }, ctx.config.wsHelloTimeoutSec * 1000);
    this.helloTimer.unref();
    this.enqueue(() => this.open(req.query));
  }

  /** Credentials (the Authorization header, or ?token= since browsers cannot set headers), then the codec's open. */
  private async open(query: unknown): Promise<void> {
    const q = QuerySchema.safeParse(query);
    const token = q.success ? q.data.token : undefined;
    if (!this.auth && token) {
      try {
        this.auth = await this.bearer(token);
      } catch (e) {
        return this.fatal(e, 'invalid token');
      }
    }
    try {
      const opened = await this.session.open({ query, auth: this.auth });
      this.helloFirst = opened.helloFirst;
      if (opened.greet) this.reply(this.welcome());
      if (opened.follow !== undefined) {
        this.home = opened.follow;
        await this.subscribe({ type: 'subscribe', roomId: opened.follow });
      }
    } catch (e) {
      this.fatal(e, (e as { code?: string }).code ?? 'refused');
    }
  }

  private send(text: string | Buffer): void {
    if (!this.closed) this.out.send(text);
  }

  private sendAll(msgs: ReadonlyArray<string | Buffer>): void {
    for (const m of msgs) this.send(m);
  }

  /** The last seq this client has of `roomId` (or of the room it follows), 0 when none. */
  private seqOf(roomId: string | null): number {
    const id = roomId ?? this.home;
    return Math.max(id ? (this.feeds.get(id)?.sub.lastSeq ?? 0) : 0, 0);
  }

  private reply(r: WireReply): void {
    const roomId = 'roomId' in r ? r.roomId : null;
    const text = this.session.reply(r, this.seqOf(roomId), this.ctx.clock());
    if (text !== null) this.send(text);
  }

  private welcome(id?: string): WireReply {
    return {
      type: 'welcome',
      ...(id !== undefined ? { id } : {}),
      auth: this.auth,
      heartbeatMs: this.ctx.config.wsHeartbeatSec * 1000,
    };
  }

  private sendError(roomId: string | null, id: string | undefined, err: unknown): void {
    const { body, internal } = toHttpError(err);
    if (internal) this.log.error({ err }, 'ws handler error');
    this.reply({ type: 'error', ...(id !== undefined ? { id } : {}), roomId, error: body.error });
  }

  private fatal(err: unknown, reason: string): void {
    this.sendError(null, undefined, err);
    this.ws.close(1008, reason);
    this.cleanup();
  }

  /** Client messages are handled one at a time, in arrival order. */
  private enqueue(fn: () => Promise<void>): void {
    this.chain = this.chain.then(fn).catch((err) => this.log.error({ err }, 'ws handler error'));
  }

  /** A token from a client, counted against its address's failed-credential budget (auth/limits.ts). */
  private bearer(token: string): Promise<AuthContext> {
    return checkedCredential(this.ctx.limits, this.ip, token, () => this.ctx.authn.fromBearer(token));
  }

  /** The principal's shared bucket (REST and all its sockets): null, or the refusal. */
  private overPrincipal(auth: AuthContext | null): ApiError | null {
    const wait = this.ctx.limits.requests.take(limitKey(auth, this.ip));
    return wait === null ? null : rateLimited(wait);
  }

  private onMessage(data: Buffer | string, isBinary: boolean): void {
    if (this.closed) return;
    // Replies go out in request order, errors included.
    this.enqueue(async () => this.dispatch(data, isBinary));
  }

  private async dispatch(data: Buffer | string, isBinary: boolean): Promise<void> {
    if (this.closed) return;
    this.session.received?.();
    const allowed = this.bucket.allow();
    if (isBinary) {
      this.sendError(null, undefined, new ApiError(400, 'BAD_REQUEST', 'binary frames are not supported'));
      return;
    }
    let raw: unknown;
    try {
      raw = parseClientJson(data);
    } catch (e) {
      this.sendError(null, undefined, allowed ? e : this.bucket.limited());
      return;
    }
    const id =
      raw && typeof raw === 'object' && typeof (raw as { id?: unknown }).id === 'string'
        ? truncateCodePoints((raw as { id: string }).id, 128)
        : undefined;
    let cmd: WireCommand;
    try {
      cmd = this.session.decode(raw);
    } catch (e) {
      this.sendError(null, id, allowed ? e : this.bucket.limited());
      return;
    }
    // A seat answering the turn it was just offered is never limited (once per token): starving it
    // would only make the room wait out its deadline.
    const action = cmd.type === 'action' ? cmd : null;
    const roomId = action ? action.roomId : null;
    const ownTurn =
      roomId !== null && action?.turnToken !== undefined && this.turns.get(roomId) === action.turnToken;
    if (roomId !== null && ownTurn) this.turns.delete(roomId);
    else {
      const auth = roomId !== null ? (this.feeds.get(roomId)?.auth ?? this.auth) : this.auth;
      const refusal = allowed ? this.overPrincipal(auth) : this.bucket.limited();
      if (refusal) {
        this.sendError(null, cmd.id, refusal);
        return;
      }
    }
    await this.handle(cmd);
  }

  private async handle(cmd: WireCommand): Promise<void> {
    if (this.closed) return;
    if (cmd.type === 'ping') {
      this.reply({ type: 'pong', ...(cmd.id !== undefined ? { id: cmd.id } : {}) });
      return;
    }
    if (cmd.type === 'hello') {
      const outdated = this.session.outdated(cmd.version);
      if (outdated) {
        this.sendError(null, cmd.id, outdated);
        this.ws.close(1008, 'OUTDATED_CLIENT');
        this.cleanup();
        return;
      }
      if (cmd.token) {
        try {
          this.auth = await this.bearer(cmd.token);
        } catch (e) {
          this.sendError(null, cmd.id, e);
          return;
        }
      }
      this.hello = true;
      this.reply(this.welcome(cmd.id));
      return;
    }
    if (this.helloFirst && !this.hello) {
      this.sendError(
        null,
        cmd.id,
        new ApiError(400, 'HELLO_REQUIRED', 'send hello with client_protocol_version first'),
      );
      return;
    }
    try {
      if (cmd.type === 'subscribe') await this.subscribe(cmd);
      else if (cmd.type === 'typing') this.typing(cmd);
      else if (cmd.type === 'unsubscribe') {
        this.drop(cmd.roomId);
        this.reply({
          type: 'unsubscribed',
          ...(cmd.id !== undefined ? { id: cmd.id } : {}),
          roomId: cmd.roomId,
        });
      } else await this.act(cmd);
    } catch (e) {
      this.sendError(cmd.roomId, cmd.id, e);
    }
  }

  private async subscribe(cmd: Extract<WireCommand, { type: 'subscribe' }>): Promise<void> {
    const { roomId, since, token, state: wantsState = true, events = false } = cmd;
    const auth = token ? await this.bearer(token) : this.auth;
    if (!this.feeds.has(roomId) && this.feeds.size >= MAX_SUBSCRIPTIONS) {
      throw new ApiError(400, 'TOO_MANY_SUBSCRIPTIONS', `at most ${MAX_SUBSCRIPTIONS} rooms per connection`);
    }
    const room = await this.ctx.runtime.getRoom(roomId);
    const viewer = await viewerIn(this.ctx, auth, roomId);
    this.drop(roomId);
    // A client cannot have seen past the head: clamp, so a stale `since` never hides entries.
    const from = Math.min(since ?? room.seq, room.seq);
    const session = this.session;
    const extras = socketRoomEvents(this.events, {
      roomId,
      protocol: room.protocol,
      viewer,
      events: events && session.event !== undefined,
      send: (ev, seq) => this.send(session.event!(roomId, seq, ev, this.ctx.clock())),
      forward: wantsState
        ? (f) => {
            const turn = (f.body as { turn_token?: string | null }).turn_token;
            if (turn) this.turns.set(roomId, turn);
            else this.turns.delete(roomId);
            this.sendAll(this.session.state(f));
          }
        : null,
    });
    const sub = this.hub.subscribe(roomId, viewer, from, {
      entry: (f) => this.sendAll(this.session.entry(f)),
      ...(extras.state ? { state: extras.state } : {}),
      fail: (err) => {
        this.sendError(roomId, undefined, err);
        if (this.feeds.get(roomId)?.sub === sub) this.drop(roomId);
      },
      batch: (fn) => this.out.corked(fn),
    });
    this.feeds.set(roomId, { auth, sub, seat: viewer.kind === 'seat' ? viewer.seat : null, extras });
    this.reply({
      type: 'subscribed',
      ...(cmd.id !== undefined ? { id: cmd.id } : {}),
      roomId,
      viewer,
      headSeq: room.seq,
    });
    void sub.start();
  }

  /** Stop following `roomId` (its feed, presence and events). */
  private drop(roomId: string): void {
    const f = this.feeds.get(roomId);
    if (!f) return;
    f.sub.close();
    f.extras.close();
    this.feeds.delete(roomId);
  }

  /** A typing signal: only a seat this socket follows the room as; too-frequent ones are dropped. */
  private typing(cmd: Extract<WireCommand, { type: 'typing' }>): void {
    const seat = this.feeds.get(cmd.roomId)?.seat;
    if (!seat || !this.events)
      throw new ApiError(403, 'NOT_A_SEAT', 'subscribe to the room as one of its seats to signal typing');
    this.events.presence.typing(cmd.roomId, seat);
  }

  private async act(cmd: WireAction): Promise<void> {
    const auth = this.feeds.get(cmd.roomId)?.auth ?? this.auth;
    // A socket outlives its token: past the token's expiry it reads on but acts no more.
    if (auth?.expiresAt !== undefined && this.ctx.clock() >= auth.expiresAt)
      throw new ApiError(
        401,
        'TOKEN_EXPIRED',
        'the token this socket acts with has expired: send hello with a fresh one',
      );
    if (auth && !(await this.ctx.authn.sessionLive(auth))) {
      this.revoked(cmd.roomId, cmd.id);
      return;
    }
    const principal = actorFor(auth, cmd.roomId, cmd.seat);
    const ack = await this.ctx.runtime.act(cmd.roomId, {
      seat: cmd.seat,
      action: cmd.action,
      ...(cmd.clientNonce !== undefined ? { clientNonce: cmd.clientNonce } : {}),
      ...(cmd.turnToken !== undefined ? { turnToken: cmd.turnToken } : {}),
      ...(cmd.expectedSeq !== undefined ? { expectedSeq: cmd.expectedSeq } : {}),
      ...(principal !== undefined ? { principal } : {}),
    });
    this.out.corkedUntilImmediate(() =>
      this.reply({
        type: 'ack',
        ...(cmd.id !== undefined ? { id: cmd.id } : {}),
        roomId: cmd.roomId,
        ack,
        command: cmd,
      }),
    );
  }

  /** A logged-out session's socket: the action is refused and the socket closed (its feeds came from it). */
  private revoked(roomId: string | null, id?: string): void {
    const err = new ApiError(401, 'SESSION_REVOKED', 'this session was logged out: reconnect with a new one');
    this.sendError(roomId, id, err);
    this.ws.close(1008, 'SESSION_REVOKED');
    this.cleanup();
  }

  /** Heartbeat check: a socket whose session (or a feed's) was logged out is closed, acting or not. */
  private async checkRevoked(): Promise<void> {
    if (this.closed) return;
    const auths = [this.auth, ...[...this.feeds.values()].map((f) => f.auth)];
    for (const a of auths) {
      if (a?.sessionId !== undefined && !(await this.ctx.authn.sessionLive(a))) return this.revoked(null);
    }
  }

  cleanup(): void {
    if (this.closed && this.feeds.size === 0) return;
    const first = !this.closed;
    this.closed = true;
    clearInterval(this.heartbeat);
    clearTimeout(this.helloTimer);
    for (const roomId of [...this.feeds.keys()]) this.drop(roomId);
    if (first) this.session.closed?.();
  }
}

/**
 * The realtime WebSocket endpoints: db8's `/v1/ws` and each codec's own path (protocol modules'
 * `wire`), all served by the one Connection above.
 */
export function wsRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  hub: RealtimeHub,
  codecs: readonly WireCodec[] = [],
  events?: RoomEventsHub,
): void {
  for (const codec of [nativeWire, ...codecs]) {
    app.route({
      method: 'GET',
      url: codec.path,
      schema: { hide: true },
      // A plain GET (no Upgrade) is told what this endpoint is, in the error shape.
      handler: async (_req, reply) =>
        reply
          .code(426)
          .header('upgrade', 'websocket')
          .send({ error: { code: 'UPGRADE_REQUIRED', message: 'connect with a WebSocket client' } }),
      wsHandler: (socket, req) => {
        new Connection(ctx, hub, codec, socket as unknown as Socket, req, events);
      },
    });
  }
}
