import { timerDelay } from '@db8/core';
import {
  type Ack,
  type ActionBody,
  PROTOCOL_VERSION,
  type ServerMessage,
  type ServerMessageOf,
  ServerMessageSchema,
  type ServerMessageType,
} from '@db8/server/schemas';
import { Db8Error } from './errors.ts';
import { Connection } from './socket/connection.ts';
import type { WebSocketCtor } from './socket/websocket.ts';

export interface SocketOptions {
  /** `ws://host:port/v1/ws` */
  url: string;
  token?: string | null;
  clientProtocolVersion?: string;
  /** WebSocket implementation; defaults to globalThis.WebSocket, else the `ws` package (Node 20). */
  WebSocket?: WebSocketCtor;
  /** How long to wait for open + welcome and for each reply, ms. */
  timeoutMs?: number;
  /**
   * How many past messages to keep for `received`, `waitFor` and a new `messages()` iterator
   * (default 1000). Messages an active `messages()` iterator has not read yet are kept regardless.
   */
  history?: number;
}

export const DEFAULT_SOCKET_HISTORY = 1000;
/** Drop old messages in batches: one splice per this many, not one per message. */
const TRIM_BATCH = 256;

type Listener = (msg: ServerMessage) => void;

const PUSHES: ReadonlySet<string> = new Set(['state', 'entry']);

/**
 * One `/v1/ws` connection that records what it receives, without reconnecting: server tests read
 * every frame of it (`received`, `waitFor`, `messages()`). Applications use `RoomSocket`, which
 * reconnects and resumes.
 *
 * Memory stays bounded on a long-lived socket: it keeps the last `history` messages, plus whatever
 * a running `messages()` iterator has not read yet (a consumer that stops reading but never ends
 * its loop holds those; end it with `break`/`return`).
 */
export class Db8Socket {
  private readonly listeners = new Set<Listener>();
  /** Retained messages; buf[0] is message number `base` since connect. */
  private buf: ServerMessage[] = [];
  private base = 0;
  /** Absolute read positions of running messages() iterators. */
  private readonly cursors = new Set<{ i: number }>();
  private readonly wakers = new Set<() => void>();
  welcome!: ServerMessageOf<'welcome'>['payload'];

  private constructor(
    private readonly conn: Connection<ServerMessage>,
    private readonly history: number = DEFAULT_SOCKET_HISTORY,
  ) {
    conn.on((m) => this.onMessage(m));
    conn.onClose(() => this.wakeAll());
  }

  static async connect(opts: SocketOptions): Promise<Db8Socket> {
    const conn = await Connection.open<ServerMessage>({
      url: opts.token ? `${opts.url}?token=${encodeURIComponent(opts.token)}` : opts.url,
      parse: (text) => {
        const r = ServerMessageSchema.safeParse(JSON.parse(text));
        return r.success ? r.data : null;
      },
      pushTypes: PUSHES,
      ...(opts.WebSocket ? { WebSocket: opts.WebSocket } : {}),
      ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
    });
    const history = Math.max(0, Math.floor(opts.history ?? DEFAULT_SOCKET_HISTORY));
    const sock = new Db8Socket(conn, history);
    try {
      const w = await sock.request('hello', {
        client_protocol_version: opts.clientProtocolVersion ?? PROTOCOL_VERSION,
      });
      sock.welcome = (w as ServerMessageOf<'welcome'>).payload;
    } catch (e) {
      sock.close();
      throw e;
    }
    return sock;
  }

  /** Messages that did not match the server schema (should stay 0). */
  get invalid(): number {
    return this.conn.invalid;
  }

  private onMessage(msg: ServerMessage): void {
    this.buf.push(msg);
    this.trim(false);
    this.wakeAll();
    for (const fn of [...this.listeners]) fn(msg);
  }

  private wakeAll(): void {
    const ws = [...this.wakers];
    this.wakers.clear();
    for (const w of ws) w();
  }

  /** Forget messages older than both the history window and every running iterator's position. */
  private trim(force: boolean): void {
    let keepFrom = this.base + this.buf.length - this.history;
    for (const c of this.cursors) keepFrom = Math.min(keepFrom, c.i);
    const drop = keepFrom - this.base;
    if (drop <= 0 || (!force && drop < TRIM_BATCH)) return;
    this.buf.splice(0, drop);
    this.base += drop;
  }

  /** The last `history` messages, oldest first. */
  private recent(): ServerMessage[] {
    return this.buf.slice(Math.max(0, this.buf.length - this.history));
  }

  /** Send a request and wait for the reply carrying its id. */
  request(type: string, payload: unknown): Promise<ServerMessage> {
    return this.conn.request(type, payload);
  }

  /** Send text as is (tests of hostile input). */
  sendRaw(text: string): void {
    this.conn.sendRaw(text);
  }

  /** `state: false` follows entries only (no `state` pushes); `events: true` adds typed room events. */
  async subscribe(
    roomId: string,
    opts: { since?: number; token?: string; state?: boolean; events?: boolean } = {},
  ) {
    const m = await this.request('subscribe', { room_id: roomId, ...opts });
    return (m as ServerMessageOf<'subscribed'>).payload;
  }

  /** This socket's seat is editing a draft (no reply; the server drops signals under a second apart). */
  typing(roomId: string): void {
    this.conn.sendRaw(JSON.stringify({ type: 'typing', payload: { room_id: roomId } }));
  }

  async unsubscribe(roomId: string): Promise<void> {
    await this.request('unsubscribe', { room_id: roomId });
  }

  async act(roomId: string, body: ActionBody): Promise<Ack> {
    const m = await this.request('action', { room_id: roomId, ...body });
    return (m as ServerMessageOf<'ack'>).payload;
  }

  async ping(): Promise<void> {
    await this.request('ping', {});
  }

  /** Listen to every message; returns an unsubscribe function. */
  on(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /**
   * Every message still retained when iteration starts (all since connect while fewer than
   * `history` have arrived), then every later one, in order, none skipped. Ends when the socket
   * closes. Several iterators may run at once.
   */
  async *messages(): AsyncGenerator<ServerMessage> {
    const cur = { i: this.base };
    this.cursors.add(cur);
    try {
      for (;;) {
        while (cur.i < this.base + this.buf.length) {
          const m = this.buf[cur.i - this.base]!;
          cur.i++;
          yield m;
        }
        if (this.conn.closed) return;
        await new Promise<void>((r) => this.wakers.add(r));
      }
    } finally {
      this.cursors.delete(cur);
      this.trim(true);
    }
  }

  /** Wait for the first message (among the last `history` received, or from now) matching `pred`. */
  async waitFor<T extends ServerMessageType>(
    type: T,
    pred: (m: ServerMessageOf<T>) => boolean = () => true,
    timeoutMs = this.conn.timeoutMs,
  ): Promise<ServerMessageOf<T>> {
    const found = this.recent().find((m) => m.type === type && pred(m as ServerMessageOf<T>));
    if (found) return found as ServerMessageOf<T>;
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => {
        off();
        reject(new Db8Error(0, 'TIMEOUT', `no ${type} message within ${timeoutMs} ms`));
      }, timerDelay(timeoutMs));
      const off = this.on((m) => {
        if (m.type === type && pred(m as ServerMessageOf<T>)) {
          clearTimeout(t);
          off();
          resolve(m as ServerMessageOf<T>);
        }
      });
    });
  }

  /** The last `history` messages received (a copy; tests and debugging). */
  get received(): readonly ServerMessage[] {
    return this.recent();
  }

  get closed(): { code: number; reason: string } | null {
    return this.conn.closed;
  }

  close(code = 1000, reason = ''): void {
    this.conn.close(code, reason);
  }
}
