import type { PublicEntry } from '@db8/core';
import type { Bus } from '../../bus/types.ts';
import type { Store } from '../../store/index.ts';

export interface TableListener {
  /** Something was appended to the table (or maybe was): pull the new state. */
  notify(): void;
}

/**
 * Per node, one bus subscription per watched table, fanned out to its connections; a slow poll of
 * the store's head backs the bus up, so a lost bus message delays a push by one poll at most.
 */
export class TableFeeds {
  private readonly tables = new Map<
    string,
    { listeners: Set<TableListener>; off: () => void; head: number }
  >();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly bus: Bus,
    private readonly store: Store,
    pollMs = 2000,
  ) {
    this.timer = setInterval(() => void this.poll(), pollMs);
    this.timer.unref();
  }

  add(tableId: string, l: TableListener): () => void {
    let t = this.tables.get(tableId);
    if (!t) {
      const entry = { listeners: new Set<TableListener>(), off: () => {}, head: -1 };
      entry.off = this.bus.subscribe(tableId, (e: PublicEntry) => {
        if (e.seq > entry.head) entry.head = e.seq;
        for (const x of entry.listeners) x.notify();
      });
      this.tables.set(tableId, entry);
      t = entry;
    }
    t.listeners.add(l);
    const table = t;
    return () => {
      table.listeners.delete(l);
      if (table.listeners.size === 0) {
        table.off();
        this.tables.delete(tableId);
      }
    };
  }

  watching(tableId: string): boolean {
    return (this.tables.get(tableId)?.listeners.size ?? 0) > 0;
  }

  get size(): { tables: number; listeners: number } {
    let listeners = 0;
    for (const t of this.tables.values()) listeners += t.listeners.size;
    return { tables: this.tables.size, listeners };
  }

  private async poll(): Promise<void> {
    for (const [id, t] of this.tables) {
      try {
        const row = await this.store.rooms.get(id);
        if (row && row.headSeq > t.head) {
          t.head = row.headSeq;
          for (const x of t.listeners) x.notify();
        }
      } catch {
        // store briefly unavailable: the next poll tries again
      }
    }
  }

  close(): void {
    clearInterval(this.timer);
    for (const t of this.tables.values()) t.off();
    this.tables.clear();
  }
}
