import type { RoomEvent, Viewer } from '@db8/core';
import type { State } from '../schemas/rest.ts';
import type { Frame } from './frame.ts';
import type { PresenceRegistry } from './presence.ts';
import type { RoomTicker } from './ticker.ts';

/**
 * A protocol's typed events (its module's `events`), computed from one viewer's views only — so an
 * event never says more than the view it came from. Pure functions of the views given.
 */
export interface RoomEventProducer {
  /** The events between two views of one viewer (`prev` null: the viewer just connected). */
  changes(roomId: string, prev: unknown, next: unknown): readonly RoomEvent[];
  /** The event each tick of the room's 1-second ticker, for the newest view (null: none now). */
  timer(roomId: string, view: unknown): RoomEvent | null;
}

export interface RoomEventDeps {
  presence: PresenceRegistry;
  ticker: RoomTicker;
}

/**
 * One subscriber's event stream of one room — the single producer behind SSE `/events` and a
 * WebSocket subscription with `events: true`. It is fed the subscriber's state frames (its viewer
 * class's views): the protocol's events for each change, then presence and typing, and the timer
 * on the room's shared ticker. When a state says the room is closed, its events are sent, then
 * `ended` — the transport closes; the stream leaves the ticker and presence at once.
 */
export class RoomEventStream {
  private view: unknown = null;
  private seq = -1;
  private started = false;
  private closed = false;
  private offs: Array<() => void> = [];

  constructor(
    private readonly roomId: string,
    private readonly producer: RoomEventProducer | undefined,
    private readonly deps: RoomEventDeps,
    private readonly out: {
      send(ev: RoomEvent, seq: number): void;
      /** The room closed: its final events are out. */
      ended(): void;
    },
  ) {}

  /** A state frame for this subscriber's viewer class. */
  state(f: Frame): void {
    if (this.closed) return;
    const s = f.body as State;
    if (s.seq <= this.seq) return;
    const events = this.producer?.changes(this.roomId, this.started ? this.view : null, s.view) ?? [];
    this.view = s.view;
    this.seq = s.seq;
    for (const ev of events) this.out.send(ev, s.seq);
    if (s.status === 'closed') {
      this.close();
      this.out.ended();
      return;
    }
    if (this.started) return;
    this.started = true;
    this.out.send(this.deps.presence.snapshot(this.roomId), s.seq);
    this.offs.push(this.deps.presence.watch(this.roomId, (ev) => this.out.send(ev, this.seq)));
    if (this.producer) this.offs.push(this.deps.ticker.watch(this.roomId, () => this.tick()));
  }

  private tick(): void {
    if (this.closed || !this.producer) return;
    const ev = this.producer.timer(this.roomId, this.view);
    if (ev) this.out.send(ev, this.seq);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const off of this.offs) off();
    this.offs = [];
  }
}

/** The node's event machinery, shared by SSE `/events` and every WebSocket connection. */
export interface RoomEventsHub extends RoomEventDeps {
  /** The room protocol's producer (its module's `events`), or none: presence alone then. */
  producerFor(protocol: string): RoomEventProducer | undefined;
}

/**
 * What one WebSocket subscription adds to its feed: its seat's presence in the room (any socket
 * that follows a room as a seat is present), and the event stream when it asked for `events`.
 */
export function socketRoomEvents(
  hub: RoomEventsHub | undefined,
  o: {
    roomId: string;
    protocol: string;
    viewer: Viewer;
    events: boolean;
    send(ev: RoomEvent, seq: number): void;
    /** Sends a state frame to the client (null: it asked for no states). */
    forward: ((f: Frame) => void) | null;
  },
): { state: ((f: Frame) => void) | null; close(): void } {
  const { forward } = o;
  if (!hub) return { state: forward, close: () => {} };
  const leave = o.viewer.kind === 'seat' ? hub.presence.join(o.roomId, o.viewer.seat) : () => {};
  const stream = o.events
    ? new RoomEventStream(o.roomId, hub.producerFor(o.protocol), hub, { send: o.send, ended: () => {} })
    : null;
  return {
    // Events come from the states, so an events subscription is fed them even with `state: false`.
    state: stream
      ? (f) => {
          forward?.(f);
          stream.state(f);
        }
      : forward,
    close: () => {
      stream?.close();
      leave();
    },
  };
}
