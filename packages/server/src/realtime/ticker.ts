/**
 * The 1-second `timer` events: ONE interval per room that has watchers (event streams), shared by
 * all of them — not one per connection. It starts with the room's first watcher and stops when the
 * last one leaves; a stream leaves when its room ends (its final event sent), so an ended room's
 * ticker stops with it and no interval outlives the rooms being watched.
 */
export class RoomTicker {
  private readonly rooms = new Map<string, { timer: NodeJS.Timeout; watchers: Set<() => void> }>();

  constructor(private readonly everyMs = 1000) {}

  /** Call `fn` every tick of `roomId`'s ticker; the returned function stops (idempotent). */
  watch(roomId: string, fn: () => void): () => void {
    let r = this.rooms.get(roomId);
    if (!r) {
      const watchers = new Set<() => void>();
      const timer = setInterval(() => {
        for (const w of [...watchers]) w();
      }, this.everyMs);
      timer.unref();
      r = { timer, watchers };
      this.rooms.set(roomId, r);
    }
    const room = r;
    room.watchers.add(fn);
    return () => {
      room.watchers.delete(fn);
      if (room.watchers.size === 0 && this.rooms.get(roomId) === room) {
        clearInterval(room.timer);
        this.rooms.delete(roomId);
      }
    };
  }

  /** Rooms with a running ticker (one interval each). */
  get running(): number {
    return this.rooms.size;
  }

  close(): void {
    for (const r of this.rooms.values()) clearInterval(r.timer);
    this.rooms.clear();
  }
}
