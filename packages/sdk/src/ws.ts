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

/** The part of the WHATWG WebSocket API we use; browsers' WebSocket and the `ws` package both fit. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: string, fn: (ev: { data?: unknown; code?: number; reason?: string }) => void): void;
}
export type WebSocketCtor = new (url: string) => WebSocketLike;

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
type Pending = {
  resolve: (m: ServerMessage) => void;
  reject: (e: Error) => void;
  timer: ReturnType<typeof setTimeout>;
};

async function defaultCtor(): Promise<WebSocketCtor> {
  const g = (globalThis as { WebSocket?: WebSocketCtor }).WebSocket;
  if (g) return g;
  // A variable specifier keeps bundlers from pulling `ws` into browser builds.
  const name = 'ws';
  const mod = (await import(/* @vite-ignore */ name)) as {
    default: WebSocketCtor;
    WebSocket?: WebSocketCtor;
  };
  return mod.WebSocket ?? mod.default;
}

/**
 * One WebSocket to /v1/ws: hello/welcome, subscriptions, actions answered by `ack` or `error`
 * (matched by request id), and pushes (`state`, `entry`) to listeners or an async iterator.
 *
 * Memory stays bounded on a long-lived socket: it keeps the last `history` messages, plus whatever
 * a running `messages()` iterator has not read yet (a consumer that stops reading but never ends
 * its loop holds those; end it with `break`/`return`).
 */
export class Db8Socket {
  private readonly listeners = new Set<Listener>();
  private readonly pending = new Map<string, Pending>();
  /** Retained messages; buf[0] is message number `base` since connect. */
  private buf: ServerMessage[] = [];
  private base = 0;
  /** Absolute read positions of running messages() iterators. */
  private readonly cursors = new Set<{ i: number }>();
  private readonly wakers = new Set<() => void>();
  private nextId = 1;
  private closedWith: { code: number; reason: string } | null = null;
  welcome!: ServerMessageOf<'welcome'>['payload'];
  /** Messages that did not match the server schema (should stay 0). */
  invalid = 0;

  private constructor(
    private readonly ws: WebSocketLike,
    private readonly timeoutMs: number,
    private readonly history: number = DEFAULT_SOCKET_HISTORY,
  ) {
    ws.addEventListener('message', (ev) => this.onMessage(ev.data));
    ws.addEventListener('close', (ev) => {
      this.closedWith = { code: ev.code ?? 1006, reason: ev.reason ?? '' };
      for (const [, p] of this.pending) {
        clearTimeout(p.timer);
        p.reject(new Db8Error(0, 'CLOSED', `socket closed (${this.closedWith.code})`));
      }
      this.pending.clear();
      this.wakeAll();
    });
  }

  static async connect(opts: SocketOptions): Promise<Db8Socket> {
    const Ctor = opts.WebSocket ?? (await defaultCtor());
    const url = opts.token ? `${opts.url}?token=${encodeURIComponent(opts.token)}` : opts.url;
    const ws = new Ctor(url);
    const timeoutMs = opts.timeoutMs ?? 10_000;
    const history = Math.max(0, Math.floor(opts.history ?? DEFAULT_SOCKET_HISTORY));
    const sock = new Db8Socket(ws, timeoutMs, history);
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Db8Error(0, 'TIMEOUT', 'WebSocket open timed out')), timeoutMs);
      ws.addEventListener('open', () => {
        clearTimeout(t);
        resolve();
      });
      ws.addEventListener('error', () => {
        clearTimeout(t);
        reject(new Db8Error(0, 'CONNECT_FAILED', `cannot connect to ${opts.url}`));
      });
      ws.addEventListener('close', (ev) => {
        clearTimeout(t);
        reject(new Db8Error(0, 'CLOSED', `socket closed before open (${ev.code})`));
      });
    });
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

  private onMessage(data: unknown): void {
    let msg: ServerMessage;
    try {
      const r = ServerMessageSchema.safeParse(JSON.parse(String(data)));
      if (!r.success) {
        this.invalid++;
        return;
      }
      msg = r.data;
    } catch {
      this.invalid++;
      return;
    }
    if (msg.id !== undefined && this.pending.has(msg.id) && msg.type !== 'state' && msg.type !== 'entry') {
      const p = this.pending.get(msg.id)!;
      this.pending.delete(msg.id);
      clearTimeout(p.timer);
      if (msg.type === 'error')
        p.reject(new Db8Error(0, msg.payload.code, msg.payload.message, msg.payload.details));
      else p.resolve(msg);
    }
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
    const id = `r${this.nextId++}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Db8Error(0, 'TIMEOUT', `no reply to ${type} within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      try {
        this.ws.send(JSON.stringify({ type, id, payload }));
      } catch (e) {
        clearTimeout(timer);
        this.pending.delete(id);
        reject(e as Error);
      }
    });
  }

  /** Send text as is (tests of hostile input). */
  sendRaw(text: string): void {
    this.ws.send(text);
  }

  async subscribe(roomId: string, opts: { since?: number; token?: string } = {}) {
    const m = await this.request('subscribe', { room_id: roomId, ...opts });
    return (m as ServerMessageOf<'subscribed'>).payload;
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
        if (this.closedWith) return;
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
    timeoutMs = this.timeoutMs,
  ): Promise<ServerMessageOf<T>> {
    const found = this.recent().find((m) => m.type === type && pred(m as ServerMessageOf<T>));
    if (found) return found as ServerMessageOf<T>;
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => {
        off();
        reject(new Db8Error(0, 'TIMEOUT', `no ${type} message within ${timeoutMs} ms`));
      }, timeoutMs);
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
    return this.closedWith;
  }

  close(code = 1000, reason = ''): void {
    try {
      this.ws.close(code, reason);
    } catch {
      // already closed
    }
  }
}
