import { timerDelay } from '@db8/core';
import { Db8Error, MAX_IDEMPOTENT_ATTEMPTS, retryDelayMs, sleep } from '../errors.ts';
import { type CloseInfo, Connection, type Frame } from './connection.ts';
import { queueIterator } from './queue.ts';
import type { WebSocketCtor } from './websocket.ts';

/**
 * The one reconnecting socket client. A `Dialect` says how one frame format connects, greets and
 * orders its pushes; `LiveSocket` does the rest for every format: connect, hello, heartbeat,
 * reconnect with backoff, resume, and deliver each push once, in seq order.
 */

/** Where a push belongs: its stream, its position, and how the stream is ordered. */
export interface Placement {
  stream: string;
  seq: number;
  /**
   * `log`: every seq once, contiguous (a gap drops the connection and resumes from the cursor).
   * `latest`: snapshots; only a newer seq than the last delivered one goes out.
   */
  order: 'log' | 'latest';
}

export interface Dialect<M extends Frame, W> {
  /** The URL of the next attempt (may carry a token or a table id). */
  url(): string;
  parse(text: string): M | null;
  /** Types the server pushes unprompted. */
  pushTypes: ReadonlySet<string>;
  /** Greet a fresh connection: the welcome payload, or the server's typed refusal (thrown). */
  hello(c: Connection<M>): Promise<W>;
  /** The server's own heartbeat, if the welcome states it: the client pings at most this often. */
  heartbeatMs?(welcome: W): number | undefined;
  /** The stream of a push, or null for frames with no order (welcome, pong, errors). */
  place(m: M): Placement | null;
}

export type LiveStatus = 'connecting' | 'live' | 'offline' | 'closed';

export interface LiveOptions {
  /** WebSocket implementation; defaults to globalThis.WebSocket, else the `ws` package. */
  WebSocket?: WebSocketCtor;
  /** Open, hello and each reply must come within this, ms (default 10 s). */
  timeoutMs?: number;
  /** Ping this often; a connection that stays silent for a whole interval is dropped (default 15 s). */
  heartbeatMs?: number;
  /** Reconnect delay: `initialMs · 2^attempt`, capped at `maxMs`, with jitter (default 250 ms…10 s). */
  backoff?: { initialMs?: number; maxMs?: number };
  /**
   * Reject `ready()` and stop if the first attempts (3) all fail before a welcome (CLI, agents: a
   * wrong URL should say so). Default false: keep retrying, as a page does while its server restarts.
   */
  failFast?: boolean;
}

/** Transport failures a reconnect can cure; any other refusal of hello is the server's final word. */
const TRANSIENT = new Set(['CLOSED', 'TIMEOUT', 'CONNECT_FAILED', 'RATE_LIMITED']);
/** With `failFast`, attempts before the first welcome (a drop mid-handshake is not a wrong URL). */
const FAIL_FAST_ATTEMPTS = 3;
const isFatal = (e: unknown) => e instanceof Db8Error && !TRANSIENT.has(e.code);

type Events<M, W> = {
  push: M;
  status: LiveStatus;
  /** An error frame no request waited for, or the fatal error that stopped the client. */
  error: Db8Error;
  welcome: W;
  /** A frame that is neither a push nor a reply (a feed's error, say), as received. */
  notice: M;
};
type Handler<T> = (v: T) => void;

export class LiveSocket<M extends Frame, W> {
  private conn: Connection<M> | null = null;
  private readonly cursors = new Map<string, number>();
  private readonly handlers: { [K in keyof Events<M, W>]: Set<Handler<Events<M, W>[K]>> } = {
    push: new Set(),
    status: new Set(),
    error: new Set(),
    welcome: new Set(),
    notice: new Set(),
  };
  /** Run after every hello, before the client is live (re-subscribe from the cursors). */
  private readonly resumers = new Set<(c: Connection<M>) => Promise<void>>();
  private attempt = 0;
  private everLive = false;
  private stopped = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private statusNow: LiveStatus = 'connecting';
  /** Pushes delivered before anyone listened (a poker table pushes its state right after hello). */
  private early: M[] | null = [];
  private fatal: Db8Error | null = null;
  welcome: W | null = null;
  /** Pushes dropped because they were already delivered (after a resume, say). */
  duplicates = 0;
  /** Times a log stream skipped a seq and the client resumed to fill it (should stay 0). */
  gaps = 0;
  /** Connections opened (1 + reconnects). */
  connections = 0;

  constructor(
    private readonly dialect: Dialect<M, W>,
    private readonly opts: LiveOptions = {},
  ) {}

  get status(): LiveStatus {
    return this.statusNow;
  }

  get timeoutMs(): number {
    return this.opts.timeoutMs ?? 10_000;
  }

  on<K extends keyof Events<M, W>>(ev: K, fn: Handler<Events<M, W>[K]>): () => void {
    this.handlers[ev].add(fn);
    if (ev === 'push' && this.early) {
      const early = this.early;
      this.early = null;
      for (const m of early) (fn as Handler<M>)(m);
    }
    return () => this.handlers[ev].delete(fn);
  }

  private emit<K extends keyof Events<M, W>>(ev: K, v: Events<M, W>[K]): void {
    if (ev === 'push' && this.early) this.early.push(v as M);
    else for (const fn of [...this.handlers[ev]]) fn(v);
  }

  private setStatus(s: LiveStatus): void {
    if (this.statusNow === s) return;
    this.statusNow = s;
    this.emit('status', s);
  }

  /** Register a resume step: it runs on every connection after hello, before the client is live. */
  onConnected(fn: (c: Connection<M>) => Promise<void>): () => void {
    this.resumers.add(fn);
    return () => this.resumers.delete(fn);
  }

  /** The last seq delivered on a stream (undefined: nothing yet). */
  cursor(stream: string): number | undefined {
    return this.cursors.get(stream);
  }

  /** Deliver a stream from after `seq` (a subscription's `since`). */
  setCursor(stream: string, seq: number): void {
    this.cursors.set(stream, seq);
  }

  forget(stream: string): void {
    this.cursors.delete(stream);
  }

  start(): this {
    if (this.connections === 0 && !this.stopped) void this.attemptOnce();
    return this;
  }

  /** Resolves once live (the first time, or again after a drop); rejects if the client stops. */
  ready(timeoutMs = Number.POSITIVE_INFINITY): Promise<void> {
    if (this.statusNow === 'live') return Promise.resolve();
    if (this.stopped) return Promise.reject(this.fatal ?? new Db8Error(0, 'CLOSED', 'client is closed'));
    return new Promise((resolve, reject) => {
      const t = Number.isFinite(timeoutMs)
        ? setTimeout(() => {
            off();
            reject(new Db8Error(0, 'TIMEOUT', `not connected within ${timeoutMs} ms`));
          }, timerDelay(timeoutMs))
        : undefined;
      const off = this.on('status', (s) => {
        if (s !== 'live' && s !== 'closed') return;
        clearTimeout(t);
        off();
        if (s === 'live') resolve();
        else reject(this.fatal ?? new Db8Error(0, 'CLOSED', 'client is closed'));
      });
    });
  }

  private async attemptOnce(): Promise<void> {
    this.retryTimer = undefined;
    if (this.stopped) return;
    this.setStatus('connecting');
    this.connections++;
    let conn: Connection<M>;
    try {
      conn = await Connection.open({
        url: this.dialect.url(),
        parse: (t) => this.dialect.parse(t),
        pushTypes: this.dialect.pushTypes,
        timeoutMs: this.timeoutMs,
        ...(this.opts.WebSocket ? { WebSocket: this.opts.WebSocket } : {}),
      });
    } catch (e) {
      return this.retry(e);
    }
    if (this.stopped) return conn.close();
    this.conn = conn;
    let heard = true;
    conn.on((m, reply) => {
      heard = true;
      if (this.conn === conn) this.onFrame(conn, m, reply);
    });
    conn.onClose((c) => this.onClosed(conn, c));
    try {
      const w = await this.dialect.hello(conn);
      this.welcome = w;
      this.emit('welcome', w);
      for (const fn of [...this.resumers]) await fn(conn);
    } catch (e) {
      if (this.conn !== conn) return;
      if (this.givesUp(e)) return this.stop(e as Error, conn);
      conn.drop(4002, 'handshake failed');
      return;
    }
    if (this.conn !== conn || conn.closed) return;
    this.attempt = 0;
    this.everLive = true;
    const fromServer = this.dialect.heartbeatMs?.(this.welcome as W);
    const every = Math.min(this.opts.heartbeatMs ?? 15_000, fromServer ?? Number.POSITIVE_INFINITY);
    this.heartbeat = setInterval(() => {
      // Silent for a whole interval, our last ping included: the peer is gone even if TCP says not.
      if (!heard) return conn.drop(4000, 'heartbeat timeout');
      heard = false;
      conn.sendRaw(JSON.stringify({ type: 'ping' }));
    }, every);
    (this.heartbeat as { unref?: () => void }).unref?.();
    this.setStatus('live');
  }

  private onFrame(conn: Connection<M>, m: M, reply: boolean): void {
    const at = this.dialect.place(m);
    if (!at) {
      if (reply) return;
      this.emit('notice', m);
      if (m.type === 'error' && conn.lastError) this.emit('error', conn.lastError);
      return;
    }
    const last = this.cursors.get(at.stream);
    if (last !== undefined && at.seq <= last) {
      this.duplicates++;
      return;
    }
    if (at.order === 'log' && last !== undefined && at.seq !== last + 1) {
      // The server never skips; if this one did, resuming from the cursor fills the hole.
      this.gaps++;
      conn.drop(4001, `gap in ${at.stream} after ${last}`);
      return;
    }
    this.cursors.set(at.stream, at.seq);
    this.emit('push', m);
  }

  private onClosed(conn: Connection<M>, c: CloseInfo): void {
    if (this.conn !== conn) return;
    this.conn = null;
    clearInterval(this.heartbeat);
    if (this.stopped) return;
    // A policy close comes with the error frame that explains it: that is final.
    if (c.code === 1008 && conn.lastError && isFatal(conn.lastError)) this.stop(conn.lastError, null);
    else this.retry(new Db8Error(0, 'CLOSED', `socket closed (${c.code})`));
  }

  private retry(e: unknown): void {
    if (this.stopped) return;
    if (this.givesUp(e)) {
      this.stop(e as Error, null);
      return;
    }
    this.setStatus('offline');
    const { initialMs = 250, maxMs = 10_000 } = this.opts.backoff ?? {};
    const base = Math.min(maxMs, initialMs * 2 ** this.attempt++);
    // Jitter: a restarted server is not met by every client in the same millisecond.
    this.retryTimer = setTimeout(() => void this.attemptOnce(), timerDelay(base * (0.5 + Math.random() / 2)));
  }

  /** A refusal ends the client; so do the first attempts failing, with `failFast`. */
  private givesUp(e: unknown): boolean {
    return isFatal(e) || (!this.everLive && !!this.opts.failFast && this.connections >= FAIL_FAST_ATTEMPTS);
  }

  private stop(e: Error, conn: Connection<M> | null): void {
    this.fatal = e instanceof Db8Error ? e : new Db8Error(0, 'FAILED', e.message);
    this.emit('error', this.fatal);
    conn?.close();
    this.close();
  }

  /** Why the client stopped on its own (a typed refusal such as OUTDATED_CLIENT), if it did. */
  get error(): Db8Error | null {
    return this.fatal;
  }

  /** Send a request once live; rejects with the server's typed error, CLOSED if the link drops first. */
  async request(type: string, payload: unknown, extra?: Record<string, unknown>): Promise<M> {
    await this.ready(this.timeoutMs);
    return this.conn!.request(type, payload, extra);
  }

  /**
   * A request the server deduplicates (an action with a client nonce or a turn token): if the link
   * drops before the reply, send it again on the next connection; the server answers the retry with
   * the first outcome.
   */
  async requestIdempotent(type: string, payload: unknown, extra?: Record<string, unknown>): Promise<M> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.request(type, payload, extra);
      } catch (e) {
        if (!(e instanceof Db8Error) || this.stopped || attempt >= MAX_IDEMPOTENT_ATTEMPTS) throw e;
        const wait = retryDelayMs(e);
        if (wait !== null) await sleep(wait);
        else if (e.code !== 'CLOSED') throw e;
      }
    }
  }

  /** The current connection (tests; a resumer gets its own). */
  get connection(): Connection<M> | null {
    return this.conn;
  }

  /** Every delivered push from now on, in order; ends when the client closes (throws if it failed). */
  pushes(): AsyncGenerator<M> {
    return queueIterator<M>((push, end) => {
      const offPush = this.on('push', push);
      const offStatus = this.on('status', (s) => s === 'closed' && end(this.fatal ?? undefined));
      if (this.stopped) end(this.fatal ?? undefined);
      return () => {
        offPush();
        offStatus();
      };
    });
  }

  close(): void {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.heartbeat);
    const c = this.conn;
    this.conn = null;
    c?.close();
    this.setStatus('closed');
  }
}
