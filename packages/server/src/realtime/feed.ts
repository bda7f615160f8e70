import type { StoredEntry, Viewer } from '@db8/core';
import type { AppContext } from '../routes/context.ts';
import { stateToWire } from '../routes/wire.ts';
import type { State } from '../schemas/rest.ts';

export interface FeedSink {
  entry(e: StoredEntry): void;
  state(s: State): void;
  /** The feed failed (room vanished, store down); the transport reports it and drops the feed. */
  fail(err: unknown): void;
}

const PAGE = 500;

/**
 * One viewer's ordered view of one room. The bus only says "something was appended"; entries are
 * always read from the store by seq, redacted for this viewer, from `last + 1` — so a missed, late
 * or duplicated bus message can never cause a gap or a duplicate. One pull at a time per feed; a
 * notification during a pull makes the pull go around again.
 */
export class RoomFeed {
  private last: number;
  private pulling = false;
  private dirty = false;
  private closed = false;

  constructor(
    private readonly ctx: AppContext,
    readonly roomId: string,
    readonly viewer: Viewer,
    /** Seq already seen by the client (-1: nothing). */
    since: number,
    private readonly sink: FeedSink,
  ) {
    this.last = since;
  }

  get lastSeq(): number {
    return this.last;
  }

  /** Something was appended up to `seq` (or maybe was: null). */
  notify(seq: number | null): void {
    if (this.closed || (seq !== null && seq <= this.last)) return;
    void this.pull(false);
  }

  /** Send the backlog after `since`, then the current state. */
  start(): Promise<void> {
    return this.pull(true);
  }

  private async pull(forceState: boolean): Promise<void> {
    if (this.pulling) {
      this.dirty = true;
      return;
    }
    this.pulling = true;
    let sendState = forceState;
    try {
      do {
        this.dirty = false;
        for (;;) {
          const page = await this.ctx.runtime.entries(this.roomId, this.viewer, this.last + 1, PAGE);
          if (this.closed) return;
          for (const e of page) {
            // The store is contiguous from seq 0; anything else is not ours to send.
            if (e.seq !== this.last + 1) break;
            this.sink.entry(e);
            this.last = e.seq;
            sendState = true;
          }
          if (page.length < PAGE) break;
        }
        if (sendState) {
          const s = await this.ctx.runtime.stateFor(this.roomId, this.viewer);
          if (this.closed) return;
          this.sink.state(stateToWire(this.roomId, this.viewer, s));
          sendState = false;
        }
      } while (this.dirty && !this.closed);
    } catch (err) {
      if (!this.closed) this.sink.fail(err);
    } finally {
      this.pulling = false;
    }
  }

  close(): void {
    this.closed = true;
  }
}
