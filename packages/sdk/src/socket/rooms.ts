import {
  type Ack,
  type ActionBody,
  type EntryWire,
  PROTOCOL_VERSION,
  type ServerMessage,
  type ServerMessageOf,
  ServerMessageSchema,
  type State,
} from '@db8/server/schemas';
import { Db8Error, socketError } from '../errors.ts';
import type { Connection } from './connection.ts';
import { type Dialect, type LiveOptions, LiveSocket } from './live.ts';
import { queueIterator } from './queue.ts';

/** The generic db8 envelope on `/v1/ws`: hello/welcome, subscribe with `since`, entry and state pushes. */

export type Welcome = ServerMessageOf<'welcome'>['payload'];
export type Subscribed = ServerMessageOf<'subscribed'>['payload'];
export type RoomEvent = { event: 'entry'; entry: EntryWire } | { event: 'state'; state: State };
/** A typed room event (`subscribe` with `events: true`): a protocol's schema (e.g. debate's) types it. */
export type TypedRoomEvent = ServerMessageOf<'event'>['payload'];

export interface RoomSocketOptions extends LiveOptions {
  /** `ws(s)://host/v1/ws`. */
  url: string;
  /** Session token or API key; sent in hello, so it stays out of URLs and access logs. */
  token?: string | null;
  clientProtocolVersion?: string;
}

const PUSHES: ReadonlySet<string> = new Set(['entry', 'state']);
const entryStream = (roomId: string) => `entry:${roomId}`;
const stateStream = (roomId: string) => `state:${roomId}`;

export function db8Dialect(o: RoomSocketOptions): Dialect<ServerMessage, Welcome> {
  return {
    url: () => o.url,
    parse: (text) => {
      // The server's own schema: a frame that does not match is dropped, not half-read.
      const r = ServerMessageSchema.safeParse(JSON.parse(text));
      return r.success ? r.data : null;
    },
    pushTypes: PUSHES,
    async hello(c) {
      const m = await c.request('hello', {
        client_protocol_version: o.clientProtocolVersion ?? PROTOCOL_VERSION,
        ...(o.token ? { token: o.token } : {}),
      });
      if (m.type !== 'welcome') throw new Db8Error(0, 'BAD_HELLO', `expected welcome, got ${m.type}`);
      return m.payload;
    },
    heartbeatMs: (w) => w.heartbeat_ms,
    place(m) {
      if (m.type === 'entry' && m.room_id)
        return { stream: entryStream(m.room_id), seq: m.payload.entry.seq, order: 'log' };
      if (m.type === 'state' && m.room_id)
        return { stream: stateStream(m.room_id), seq: m.payload.seq, order: 'latest' };
      return null;
    },
  };
}

/**
 * Rooms over one reconnecting `/v1/ws` socket. Each subscribed room delivers every entry once, in
 * seq order, across reconnects (it re-subscribes with `since` = the last seq delivered), and the
 * newest state; actions resolve with the ack or reject with the server's typed error.
 */
export class RoomSocket {
  readonly live: LiveSocket<ServerMessage, Welcome>;
  /** Subscribed rooms and their per-room token, re-subscribed after every reconnect. */
  private readonly rooms = new Map<string, { token?: string; state?: false; events?: true }>();

  constructor(o: RoomSocketOptions) {
    this.live = new LiveSocket(db8Dialect(o), o);
    this.live.onConnected((c) => this.resubscribe(c));
    // An error no request waited for, naming a room we follow: the server dropped that feed.
    this.live.on('notice', (m) => {
      if (m.type === 'error' && m.room_id && this.rooms.has(m.room_id))
        this.dropRoom(m.room_id, socketError(m.payload));
    });
  }

  /** Connect and wait for the welcome; a refusal (OUTDATED_CLIENT, a bad token) rejects. */
  static async connect(o: RoomSocketOptions): Promise<RoomSocket> {
    const s = new RoomSocket({ failFast: true, ...o });
    s.live.start();
    await s.live.ready();
    return s;
  }

  /** Start connecting and return at once (pages: status events say when it is live). */
  static open(o: RoomSocketOptions): RoomSocket {
    const s = new RoomSocket(o);
    s.live.start();
    return s;
  }

  get welcome(): Welcome | null {
    return this.live.welcome;
  }

  /**
   * Follow a room: entries after `since` (-1: the whole log; omitted: from now), then live, and
   * the newest state (`state: false`: entries only, no state pushes). Resolves when the server
   * accepts the subscription.
   */
  async subscribe(
    roomId: string,
    opts: { since?: number; token?: string; state?: boolean; events?: boolean } = {},
  ): Promise<Subscribed> {
    this.rooms.set(roomId, {
      ...(opts.token ? { token: opts.token } : {}),
      ...(opts.state === false ? { state: false as const } : {}),
      ...(opts.events ? { events: true as const } : {}),
    });
    if (opts.since !== undefined) this.live.setCursor(entryStream(roomId), opts.since);
    else this.live.forget(entryStream(roomId));
    this.live.forget(stateStream(roomId));
    for (;;) {
      await this.live.ready(this.live.timeoutMs);
      try {
        return await this.subscribeOn(this.live.connection!, roomId);
      } catch (e) {
        // The link dropped under the request: the next connection re-subscribes; wait for it.
        if (e instanceof Db8Error && e.code === 'CLOSED' && this.live.status !== 'closed') continue;
        // Refused (no such room, not allowed): not followed, and not retried on a reconnect.
        if (e instanceof Db8Error && e.code !== 'TIMEOUT') this.forgetRoom(roomId);
        throw e;
      }
    }
  }

  private async subscribeOn(c: Connection<ServerMessage>, roomId: string): Promise<Subscribed> {
    const since = this.live.cursor(entryStream(roomId));
    const { token, state, events } = this.rooms.get(roomId) ?? {};
    const m = await c.request('subscribe', {
      room_id: roomId,
      ...(since !== undefined ? { since } : {}),
      ...(token ? { token } : {}),
      ...(state === false ? { state } : {}),
      ...(events ? { events } : {}),
    });
    const p = (m as ServerMessageOf<'subscribed'>).payload;
    if (this.live.cursor(entryStream(roomId)) === undefined)
      this.live.setCursor(entryStream(roomId), p.head_seq);
    return p;
  }

  private async resubscribe(c: Connection<ServerMessage>): Promise<void> {
    for (const roomId of [...this.rooms.keys()]) {
      try {
        await this.subscribeOn(c, roomId);
      } catch (e) {
        if (!(e instanceof Db8Error) || e.code === 'CLOSED' || e.code === 'TIMEOUT') throw e;
        // The room refuses us now (gone, token expired): stop following it, say why.
        this.dropRoom(roomId, e);
      }
    }
  }

  private readonly errorFns = new Set<(e: Db8Error, roomId: string) => void>();

  private forgetRoom(roomId: string): void {
    this.rooms.delete(roomId);
    this.live.forget(entryStream(roomId));
    this.live.forget(stateStream(roomId));
  }

  private dropRoom(roomId: string, e: Db8Error): void {
    this.forgetRoom(roomId);
    for (const fn of [...this.errorFns]) fn(e, roomId);
  }

  /** A room's feed failed or refused a re-subscription (the client stops following it). */
  onRoomError(fn: (e: Db8Error, roomId: string) => void): () => void {
    this.errorFns.add(fn);
    return () => this.errorFns.delete(fn);
  }

  async unsubscribe(roomId: string): Promise<void> {
    this.forgetRoom(roomId);
    if (this.live.status === 'live') await this.live.request('unsubscribe', { room_id: roomId });
  }

  /** Act in a room; a nonce is added if missing, so a resend after a dropped link is safe. */
  async act(roomId: string, body: ActionBody): Promise<Ack> {
    const payload = { room_id: roomId, ...body, client_nonce: body.client_nonce ?? crypto.randomUUID() };
    const m = await this.live.requestIdempotent('action', payload);
    return (m as ServerMessageOf<'ack'>).payload;
  }

  /** Entries (each once, in seq order) and states of every subscribed room. */
  on(fn: (roomId: string, ev: RoomEvent) => void): () => void {
    return this.live.on('push', (m) => {
      if (m.type === 'entry') fn(m.room_id!, { event: 'entry', entry: m.payload.entry });
      else if (m.type === 'state') fn(m.room_id!, { event: 'state', state: m.payload });
    });
  }

  /** Typed room events of rooms subscribed with `events: true` (not replayed after a reconnect). */
  onEvent(fn: (roomId: string, ev: TypedRoomEvent) => void): () => void {
    return this.live.on('notice', (m) => {
      if (m.type === 'event' && m.room_id) fn(m.room_id, m.payload);
    });
  }

  /** Say this socket's seat is editing a draft (no reply; the server drops signals under a second apart). */
  typing(roomId: string): void {
    if (this.live.status === 'live')
      this.live.connection?.sendRaw(JSON.stringify({ type: 'typing', payload: { room_id: roomId } }));
  }

  /**
   * Subscribe and iterate one room's events; ends when the socket closes (throws its fatal error),
   * unsubscribes when the loop ends.
   */
  async *follow(
    roomId: string,
    opts: { since?: number; token?: string; state?: boolean } = {},
  ): AsyncGenerator<RoomEvent> {
    const events = queueIterator<RoomEvent>((push, end) => {
      const off = this.on((id, ev) => id === roomId && push(ev));
      const offStatus = this.live.on('status', (s) => s === 'closed' && end(this.live.error ?? undefined));
      const offErr = this.onRoomError((e, id) => id === roomId && end(e));
      return () => {
        off();
        offStatus();
        offErr();
      };
    });
    try {
      await this.subscribe(roomId, opts);
      yield* events;
    } finally {
      await events.return(undefined);
      if (this.live.status !== 'closed') await this.unsubscribe(roomId).catch(() => {});
    }
  }

  close(): void {
    this.live.close();
  }
}
