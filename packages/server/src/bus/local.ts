import type { PublicEntry } from '@db8/core';
import type { Bus, BusHandler } from './types.ts';

/** In-process bus for embedded mode and tests: synchronous fan-out, isolated handler failures. */
export class LocalBus implements Bus {
  private readonly handlers = new Map<string, Set<BusHandler>>();
  private closed = false;

  async publish(roomId: string, entry: PublicEntry): Promise<void> {
    if (this.closed) throw new Error('bus closed');
    // Snapshot the sets so a handler that unsubscribes mid-dispatch does not skip its neighbours.
    const targets = [...(this.handlers.get(roomId) ?? []), ...(this.handlers.get('*') ?? [])];
    for (const fn of targets) {
      try {
        fn(entry);
      } catch {
        // One broken subscriber must not stop the others nor fail the append that published.
      }
    }
  }

  subscribe(roomId: string | '*', fn: BusHandler): () => void {
    if (this.closed) throw new Error('bus closed');
    let set = this.handlers.get(roomId);
    if (!set) {
      set = new Set();
      this.handlers.set(roomId, set);
    }
    // Wrap so the same function may subscribe twice and unsubscribe each independently.
    const wrapped: BusHandler = (e) => fn(e);
    set.add(wrapped);
    return () => {
      const s = this.handlers.get(roomId);
      if (!s) return;
      s.delete(wrapped);
      if (s.size === 0) this.handlers.delete(roomId);
    };
  }

  /** Number of live subscriptions (for tests and metrics). */
  get size(): number {
    let n = 0;
    for (const s of this.handlers.values()) n += s.size;
    return n;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.handlers.clear();
  }
}
