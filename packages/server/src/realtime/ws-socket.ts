import { rateLimited } from '../auth/limits.ts';
import type { ApiError } from '../errors.ts';

/** The slice of a `ws` WebSocket we use. */
export interface Socket {
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
/** A client that cannot keep up is dropped (it resumes with `since`) rather than buffered forever. */
const MAX_BUFFERED = 8 * 1024 * 1024;

type Corkable = { cork?(): void; uncork?(): void };

/**
 * What a connection writes to its socket: frames, with a slow consumer dropped (`onDrop` cleans the
 * connection up), and the writes of a batch held to one syscall by corking the underlying net.Socket.
 */
export class SocketOut {
  constructor(
    private readonly ws: Socket,
    private readonly onDrop: () => void,
  ) {}

  send(text: string | Buffer): void {
    if (this.ws.readyState !== OPEN) return;
    if (this.ws.bufferedAmount > MAX_BUFFERED) {
      this.ws.close(1013, 'slow consumer: reconnect and resume with since');
      this.onDrop();
      return;
    }
    // Frames are shared bytes (serialised once per viewer class): send them as text frames.
    if (typeof text === 'string') this.ws.send(text);
    else this.ws.send(text, { binary: false });
  }

  private raw(): Corkable | undefined {
    return (this.ws as unknown as { _socket?: Corkable })._socket;
  }

  /**
   * Runs `fn`'s sends as one write: `ws` writes each message to its net.Socket at once, so corking
   * that socket turns an append's entry and state messages into one syscall instead of two.
   */
  corked(fn: () => void): void {
    const raw = this.raw();
    raw?.cork?.();
    try {
      fn();
    } finally {
      raw?.uncork?.();
    }
  }

  /**
   * Holds this socket's writes until the next check phase: an action's ack then leaves in one write
   * with the state its append fans out (the room channel's fan-out runs in the check phase the
   * append scheduled, before this), rather than in a syscall of its own. Nothing waits longer
   * than that turn.
   */
  corkedUntilImmediate(fn: () => void): void {
    const raw = this.raw();
    if (!raw?.cork || !raw.uncork) {
      fn();
      return;
    }
    raw.cork();
    try {
      fn();
    } finally {
      setImmediate(() => raw.uncork?.());
    }
  }
}

/** A connection's token bucket on client messages (`burst` at most, refilled at `perSec`). */
export class MessageBucket {
  private tokens: number;
  private lastRefill: number;

  constructor(
    private readonly rate: { burst: number; perSec: number },
    private readonly clock: () => number,
  ) {
    this.tokens = rate.burst;
    this.lastRefill = clock();
  }

  /** Takes a token: false when none is left. */
  allow(): boolean {
    const now = this.clock();
    const { burst, perSec } = this.rate;
    this.tokens = Math.min(burst, this.tokens + ((now - this.lastRefill) / 1000) * perSec);
    this.lastRefill = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** The refusal for a message over the bucket, with when the next token is due. */
  limited(): ApiError {
    return rateLimited(Math.ceil(((1 - this.tokens) / this.rate.perSec) * 1000), 'too many messages');
  }
}

/**
 * Pings `ws` every `intervalMs`; a socket that did not answer the previous ping is terminated.
 * `onBeat` runs at each ping (the connection's periodic checks). Clear the returned timer on close.
 */
export function keepAlive(ws: Socket, intervalMs: number, onBeat: () => void): NodeJS.Timeout {
  let alive = true;
  ws.on('pong', () => {
    alive = true;
  });
  const timer = setInterval(() => {
    if (!alive) {
      ws.terminate();
      return;
    }
    alive = false;
    try {
      ws.ping();
    } catch {
      // closing anyway
    }
    onBeat();
  }, intervalMs);
  timer.unref();
  return timer;
}
