import type { Viewer } from '@db8/core';
import { RoomChannel } from './channel.ts';
import type { FeedSink, Subscription } from './feed.ts';
import type { FeedPort } from './port.ts';

/**
 * Per node, one channel per watched room (one bus subscription, one store read per append, frames
 * shared by viewer class). A slow poll of the store's head backs the bus up: if a bus message is
 * lost and nothing follows it, subscribers still catch up within one poll interval.
 */
export class RealtimeHub {
  private readonly rooms = new Map<string, RoomChannel>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly ctx: FeedPort,
    pollMs = 2000,
    private readonly buffer?: number,
  ) {
    this.timer = setInterval(() => void this.poll(), pollMs);
    this.timer.unref();
  }

  /** A subscription to `roomId` after `since`, idle until its `start()`; `close()` ends it. */
  subscribe(roomId: string, viewer: Viewer, since: number, sink: FeedSink): Subscription {
    let ch = this.rooms.get(roomId);
    if (!ch) {
      const created: RoomChannel = new RoomChannel(this.ctx, roomId, {
        ...(this.buffer !== undefined ? { buffer: this.buffer } : {}),
        onEmpty: () => {
          if (this.rooms.get(roomId) === created) this.rooms.delete(roomId);
        },
      });
      this.rooms.set(roomId, created);
      ch = created;
    }
    return ch.add(viewer, since, sink);
  }

  /** Number of rooms and subscriptions watched (metrics, tests). */
  get size(): { rooms: number; feeds: number } {
    let feeds = 0;
    for (const ch of this.rooms.values()) feeds += ch.size;
    return { rooms: this.rooms.size, feeds };
  }

  /** One statement for every watched room (a statement per room kept a busy embedded store busier). */
  private async poll(): Promise<void> {
    if (this.rooms.size === 0) return;
    let heads: Map<string, number>;
    try {
      heads = await this.ctx.store.rooms.heads([...this.rooms.keys()]);
    } catch {
      return; // store briefly unavailable: the next poll tries again
    }
    for (const [roomId, seq] of heads) this.rooms.get(roomId)?.notify(seq);
  }

  close(): void {
    clearInterval(this.timer);
    for (const ch of [...this.rooms.values()]) ch.close();
    this.rooms.clear();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's realtime hub: one channel per watched room, shared by sockets, SSE and server-side watchers. */
    realtime: RealtimeHub;
  }
}
