import type { PublicEntry } from '@db8/core';
import type { AppContext } from '../routes/context.ts';
import type { RoomFeed } from './feed.ts';

interface RoomWatch {
  feeds: Set<RoomFeed>;
  offBus: () => void;
  head: number;
}

/**
 * Per node, one bus subscription per watched room, fanned out to that room's feeds. A slow poll of
 * the store's head backs the bus up: if a bus message is lost and nothing follows it, feeds still
 * catch up within one poll interval.
 */
export class RealtimeHub {
  private readonly rooms = new Map<string, RoomWatch>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly ctx: AppContext,
    pollMs = 2000,
  ) {
    this.timer = setInterval(() => void this.poll(), pollMs);
    this.timer.unref();
  }

  add(feed: RoomFeed): () => void {
    let w = this.rooms.get(feed.roomId);
    if (!w) {
      const roomId = feed.roomId;
      const watch: RoomWatch = { feeds: new Set(), head: -1, offBus: () => {} };
      watch.offBus = this.ctx.bus.subscribe(roomId, (e: PublicEntry) => {
        if (e.seq > watch.head) watch.head = e.seq;
        for (const f of watch.feeds) f.notify(e.seq);
      });
      this.rooms.set(roomId, watch);
      w = watch;
    }
    w.feeds.add(feed);
    const watch = w;
    return () => {
      feed.close();
      watch.feeds.delete(feed);
      if (watch.feeds.size === 0) {
        watch.offBus();
        this.rooms.delete(feed.roomId);
      }
    };
  }

  /** Number of rooms and feeds watched (metrics, tests). */
  get size(): { rooms: number; feeds: number } {
    let feeds = 0;
    for (const w of this.rooms.values()) feeds += w.feeds.size;
    return { rooms: this.rooms.size, feeds };
  }

  private async poll(): Promise<void> {
    for (const [roomId, w] of this.rooms) {
      try {
        const row = await this.ctx.store.rooms.get(roomId);
        if (!row) continue;
        if (row.headSeq > w.head) w.head = row.headSeq;
        for (const f of w.feeds) if (f.lastSeq < row.headSeq) f.notify(row.headSeq);
      } catch {
        // store briefly unavailable: the next poll tries again
      }
    }
  }

  close(): void {
    clearInterval(this.timer);
    for (const w of this.rooms.values()) {
      w.offBus();
      for (const f of w.feeds) f.close();
    }
    this.rooms.clear();
  }
}
