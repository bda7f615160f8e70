import type { Viewer } from '@db8/core';
import type { AuthContext } from '../auth/types.ts';
import type { ApiError } from '../errors.ts';
import type { Frame } from '../realtime/frame.ts';
import type { AppContext } from '../routes/context.ts';

/**
 * A wire codec: one message format on the generic realtime connection (realtime/ws.ts). The
 * connection owns everything else — heartbeat, rate limit, send buffering, JSON parsing, one
 * request at a time, subscriptions on the room channels — and the codec only translates: a client
 * message into a command, a reply or a room's entry/state frame into the codec's own messages.
 * db8's `/v1/ws` is one codec (realtime/native.ts); poker's seed-002 socket is another
 * (protocols/poker/wire.ts), declared by its module as `wire`.
 */
export interface WireCodec {
  /** The WebSocket path the realtime stack serves this codec at (e.g. `/v1/poker/ws`). */
  readonly path: string;
  /** Client messages allowed per connection: burst, and refill per second (default 100, 20/s). */
  readonly rate?: { burst: number; perSec: number };
  /** A new connection's session: the per-connection part of the codec (format, seat, what was sent). */
  session(ctx: WireHost): WireSession;
}

/** What a codec's session is given of the app: the same object every request and module sees. */
export type WireHost = Pick<AppContext, 'config' | 'store' | 'clock' | 'runtime' | 'skillDocUrl'>;

export interface WireSession {
  /**
   * Runs once the socket is open and its credentials resolved (Authorization header or `?token=`):
   * reads the upgrade query, may name a room to follow at once. Throwing sends the error and closes.
   */
  open(input: { query: unknown; auth: AuthContext | null }): Promise<WireOpened>;
  /** A client message (parsed JSON) as a command; throws an ApiError for a message it refuses. */
  decode(msg: unknown): WireCommand;
  /** The error a hello from this client version gets (OUTDATED_CLIENT), or null if supported. */
  outdated(version: string): ApiError | null;
  /**
   * A reply's wire form, or null when the format has no such message. `seq` is the last seq this
   * client has of the reply's room (0 when none); `now` stamps it.
   */
  reply(r: WireReply, seq: number, now: number): string | null;
  /**
   * Messages for a room's entry / state frame. Frames are shared by every subscriber of a viewer
   * class, so cache encodings on them (`frame.encode(key, …)`) rather than per connection.
   */
  entry(f: Frame): ReadonlyArray<string | Buffer>;
  /** A typed room event (absent: the codec sends none). */
  event?(roomId: string, seq: number, ev: unknown, now: number): string;
  state(f: Frame): ReadonlyArray<string | Buffer>;
  /** Each client message, before rate limiting (presence). */
  received?(): void;
  /** Once, when the connection ends. */
  closed?(): void;
}

export interface WireOpened {
  /** Refuse commands other than hello and ping until the client has said hello. */
  helloFirst: boolean;
  /** Send `welcome` at once, without waiting for a hello. */
  greet: boolean;
  /** A room to follow from its head straight away, as if subscribed (poker: the token's table). */
  follow?: string;
}

/** A client request, whatever format it came in. */
export type WireCommand =
  | { type: 'ping'; id?: string }
  | { type: 'hello'; id?: string; version: string; token?: string }
  | {
      type: 'subscribe';
      id?: string;
      roomId: string;
      since?: number;
      token?: string;
      state?: boolean;
      /** Also send the room's typed events (realtime/room-events.ts); only codecs with `event`. */
      events?: boolean;
    }
  /** The subscribed seat is editing a draft (presence's typing signal; no reply unless refused). */
  | { type: 'typing'; id?: string; roomId: string }
  | { type: 'unsubscribe'; id?: string; roomId: string }
  | WireAction;

export interface WireAction {
  type: 'action';
  id?: string;
  roomId: string;
  seat: string;
  action: unknown;
  clientNonce?: string;
  turnToken?: string;
  expectedSeq?: number;
}

/** What the connection answers; the codec gives each its wire form. */
export type WireReply =
  | { type: 'welcome'; id?: string; auth: AuthContext | null; heartbeatMs: number }
  | { type: 'pong'; id?: string }
  | { type: 'subscribed'; id?: string; roomId: string; viewer: Viewer; headSeq: number }
  | { type: 'unsubscribed'; id?: string; roomId: string }
  | {
      type: 'ack';
      id?: string;
      roomId: string;
      ack: { seq: number; duplicate: boolean; ts: number };
      command: WireAction;
    }
  | {
      type: 'error';
      id?: string;
      roomId: string | null;
      error: { code: string; message: string; details?: unknown };
    };
