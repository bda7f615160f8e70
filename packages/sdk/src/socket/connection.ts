import { timerDelay } from '@db8/core';
import { Db8Error, socketError } from '../errors.ts';
import { defaultWebSocket, OPEN, type WebSocketCtor, type WebSocketLike } from './websocket.ts';

/** What every server frame has, in both dialects (`{type, seq, ts, id?, payload}`). */
export interface Frame {
  type: string;
  seq: number;
  id?: string | undefined;
  payload: unknown;
}

export interface CloseInfo {
  code: number;
  reason: string;
}

export interface ConnectionOptions<M> {
  url: string;
  /** WebSocket implementation; defaults to globalThis.WebSocket, else the `ws` package. */
  WebSocket?: WebSocketCtor;
  /** How long to wait for the socket to open and for each reply, ms (default 10 s). */
  timeoutMs?: number;
  /** Parse one text frame; null drops it (counted in `invalid`). */
  parse: (text: string) => M | null;
  /** Types the server pushes unprompted: never taken as a reply, whatever id they carry. */
  pushTypes?: ReadonlySet<string>;
}

type Pending<M> = {
  resolve: (m: M) => void;
  reject: (e: Error) => void;
  timer: ReturnType<typeof setTimeout>;
};

/** A policy close (1008) follows an error frame that says why. */
const POLICY_CLOSE = 1008;

/**
 * One WebSocket, no reconnection: frames parsed by the dialect, requests answered by the reply
 * carrying their id (`error` frames reject with a typed Db8Error). `LiveSocket` opens one of these
 * per attempt; `Db8Socket` and raw wire tests use one directly.
 */
export class Connection<M extends Frame> {
  private readonly pending = new Map<string, Pending<M>>();
  private readonly listeners = new Set<(m: M, reply: boolean) => void>();
  private readonly closeListeners = new Set<(c: CloseInfo) => void>();
  /** Frames that arrived before anyone listened (they can come with the upgrade response). */
  private early: Array<[M, boolean]> | null = [];
  private nextId = 1;
  private closedWith: CloseInfo | null = null;
  /** Frames that did not parse (should stay 0). */
  invalid = 0;
  /** The last error frame no request waited for: the reason a policy close gives. */
  lastError: Db8Error | null = null;

  private constructor(
    private readonly ws: WebSocketLike,
    private readonly opts: ConnectionOptions<M>,
    readonly timeoutMs: number,
  ) {
    ws.addEventListener('message', (ev) => this.onText(String(ev.data)));
    ws.addEventListener('close', (ev) => this.finish({ code: ev.code ?? 1006, reason: ev.reason ?? '' }));
  }

  static async open<M extends Frame>(opts: ConnectionOptions<M>): Promise<Connection<M>> {
    const Ctor = opts.WebSocket ?? (await defaultWebSocket());
    const timeoutMs = opts.timeoutMs ?? 10_000;
    const ws = new Ctor(opts.url);
    const conn = new Connection(ws, opts, timeoutMs);
    await new Promise<void>((resolve, reject) => {
      const fail = (e: Db8Error) => {
        clearTimeout(t);
        reject(e);
      };
      const t = setTimeout(() => {
        fail(new Db8Error(0, 'TIMEOUT', 'WebSocket open timed out'));
        conn.drop(1006, 'open timed out');
      }, timerDelay(timeoutMs));
      ws.addEventListener('open', () => {
        clearTimeout(t);
        resolve();
      });
      ws.addEventListener('error', () =>
        fail(new Db8Error(0, 'CONNECT_FAILED', `cannot connect to ${opts.url}`)),
      );
      ws.addEventListener('close', (ev) =>
        fail(conn.lastError ?? new Db8Error(0, 'CLOSED', `socket closed before open (${ev.code})`)),
      );
    });
    return conn;
  }

  private onText(text: string): void {
    if (this.closedWith) return;
    let msg: M | null = null;
    try {
      msg = this.opts.parse(text);
    } catch {
      msg = null;
    }
    if (!msg) {
      this.invalid++;
      return;
    }
    const waiting =
      msg.id !== undefined && !this.opts.pushTypes?.has(msg.type) ? this.pending.get(msg.id) : undefined;
    if (waiting) {
      this.pending.delete(msg.id!);
      clearTimeout(waiting.timer);
      if (msg.type === 'error') waiting.reject(socketError(msg.payload as Parameters<typeof socketError>[0]));
      else waiting.resolve(msg);
    } else if (msg.type === 'error') {
      this.lastError = socketError(msg.payload as Parameters<typeof socketError>[0]);
    }
    const reply = waiting !== undefined;
    if (this.early) this.early.push([msg, reply]);
    else for (const fn of [...this.listeners]) fn(msg, reply);
  }

  private finish(c: CloseInfo): void {
    if (this.closedWith) return;
    this.closedWith = c;
    const why =
      c.code === POLICY_CLOSE && this.lastError
        ? this.lastError
        : new Db8Error(0, 'CLOSED', `socket closed (${c.code}${c.reason ? ` ${c.reason}` : ''})`);
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(why);
    }
    this.pending.clear();
    for (const fn of [...this.closeListeners]) fn(c);
  }

  /**
   * Every frame in arrival order, replies included (`reply`: it answered a request of ours); the
   * first listener also gets the frames that came before it.
   */
  on(fn: (m: M, reply: boolean) => void): () => void {
    this.listeners.add(fn);
    const early = this.early;
    this.early = null;
    for (const [m, reply] of early ?? []) if (this.listeners.has(fn)) fn(m, reply);
    return () => this.listeners.delete(fn);
  }

  onClose(fn: (c: CloseInfo) => void): () => void {
    if (this.closedWith) fn(this.closedWith);
    else this.closeListeners.add(fn);
    return () => this.closeListeners.delete(fn);
  }

  /** Send `{type, id, ...extra, payload}` and wait for the reply carrying that id. */
  request(type: string, payload: unknown, extra: Record<string, unknown> = {}): Promise<M> {
    if (this.closedWith) return Promise.reject(new Db8Error(0, 'CLOSED', 'socket is closed'));
    const id = `r${this.nextId++}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Db8Error(0, 'TIMEOUT', `no reply to ${type} within ${this.timeoutMs} ms`));
      }, timerDelay(this.timeoutMs));
      this.pending.set(id, { resolve, reject, timer });
      try {
        this.ws.send(JSON.stringify({ type, id, ...extra, payload }));
      } catch (e) {
        clearTimeout(timer);
        this.pending.delete(id);
        reject(e as Error);
      }
    });
  }

  /** Send text as is (raw wire tests, fire-and-forget frames). */
  sendRaw(text: string): void {
    if (this.ws.readyState === OPEN) this.ws.send(text);
  }

  get closed(): CloseInfo | null {
    return this.closedWith;
  }

  close(code = 1000, reason = ''): void {
    try {
      this.ws.close(code, reason);
    } catch {
      // already closed
    }
  }

  /**
   * Treat the socket as closed now (a dead peer can take a long time to finish a close handshake),
   * then close it.
   */
  drop(code: number, reason: string): void {
    this.finish({ code, reason });
    this.close(code >= 4000 && code < 5000 ? code : 1000, reason);
  }
}
