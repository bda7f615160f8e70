import type { Viewer } from '@db8/core';
import type { Frame } from './frame.ts';

/** Where a subscription's messages go (one WebSocket subscription or one SSE stream). */
export interface FeedSink {
  entry(f: Frame): void;
  /** Absent: the subscriber follows entries only and is sent no state. */
  state?(f: Frame): void;
  /** The feed failed (room vanished, store down); the transport reports it and drops the feed. */
  fail(err: unknown): void;
  /** Runs `fn`'s sends as one write (a corked socket): an append's entry and state go out together. */
  batch?(fn: () => void): void;
}

/** What a subscription needs from the room channel that feeds it. */
export interface FeedSource {
  start(sub: Subscription): Promise<void>;
  remove(sub: Subscription): void;
}

/** Viewers that see exactly the same entries and state share a class (and its frames). */
export function viewerKey(v: Viewer): string {
  return v.kind === 'seat' ? `seat:${v.seat}` : v.kind;
}

/**
 * One client's ordered view of one room, fed by the room's channel. It only ever moves forward one
 * seq at a time (`last + 1`), so whatever the bus does there is no gap and no duplicate. Created
 * idle: the transport acknowledges the subscription, then calls `start()` (backlog, then state).
 */
export class Subscription {
  /** Seq of the last entry the client has (-1: nothing). */
  last: number;
  /** Caught up and fed by the channel's single read (else still reading its own backlog). */
  live = false;
  closed = false;
  /** Entries were sent past the last state (or none was ever sent): a state is owed. */
  needState: boolean;
  /** Follows the room's state too (else entries only: one frame per append). */
  readonly wantsState: boolean;
  /** Seq of the last state sent (-1: none). A state can run ahead of the entries sent. */
  private stateSeq = -1;
  readonly key: string;

  constructor(
    private readonly source: FeedSource,
    readonly viewer: Viewer,
    since: number,
    private readonly sink: FeedSink,
  ) {
    this.last = since;
    this.key = viewerKey(viewer);
    this.wantsState = sink.state !== undefined;
    this.needState = this.wantsState;
  }

  get lastSeq(): number {
    return this.last;
  }

  /** Send the backlog after `since`, then the current state; live entries follow. */
  start(): Promise<void> {
    return this.source.start(this);
  }

  /** Runs `fn`'s pushes as one transport write when the sink can. */
  batch(fn: () => void): void {
    if (this.sink.batch) this.sink.batch(fn);
    else fn();
  }

  pushEntry(f: Frame): void {
    if (this.closed || f.seq !== this.last + 1) return;
    this.last = f.seq;
    // A state already sent at or past this entry covers it: the client gets no state twice.
    if (f.seq > this.stateSeq && this.wantsState) this.needState = true;
    this.sink.entry(f);
  }

  pushState(f: Frame): void {
    if (this.closed || !this.wantsState) return;
    this.needState = false;
    if (f.seq <= this.stateSeq) return;
    this.stateSeq = f.seq;
    this.sink.state?.(f);
  }

  fail(err: unknown): void {
    if (this.closed) return;
    this.close();
    this.sink.fail(err);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.live = false;
    this.source.remove(this);
  }
}
