import type { StoredEntry } from '@db8/core';

const KEEP = 64;

/**
 * The last entries this node committed, per cached room: realtime hands them out right after the
 * commit instead of reading back what was just written. Only this node's own commits — what the
 * bus brings from elsewhere is read from the store, never taken on the bus's word.
 */
export class CommittedEntries {
  private readonly rooms = new Map<string, StoredEntry[]>();

  add(roomId: string, entries: readonly StoredEntry[]): void {
    if (entries.length === 0) return;
    let list = this.rooms.get(roomId);
    // Only a contiguous run is useful: anything else (another node wrote between) starts over.
    if (!list || (list.at(-1)?.seq ?? -2) + 1 !== entries[0]?.seq) {
      list = [];
      this.rooms.set(roomId, list);
    }
    list.push(...entries);
    if (list.length > KEEP) list.splice(0, list.length - KEEP);
  }

  /** The contiguous entries from `fromSeq` on, if this node committed `fromSeq` recently; else []. */
  since(roomId: string, fromSeq: number): StoredEntry[] {
    const list = this.rooms.get(roomId);
    const first = list?.[0]?.seq;
    if (!list || first === undefined || fromSeq < first) return [];
    return list.slice(fromSeq - first);
  }

  forget(roomId?: string): void {
    if (roomId === undefined) this.rooms.clear();
    else this.rooms.delete(roomId);
  }
}
