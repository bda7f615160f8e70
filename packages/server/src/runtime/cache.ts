import type { StoredEntry } from '@db8/core';
import type { Store } from '../store/store.ts';
import { CommittedEntries } from './committed.ts';
import type { BuiltEntry } from './entries.ts';
import { loadMemo, syncTail } from './load.ts';
import type { FoldedRoom } from './room.ts';
import type { TailWatch } from './tail.ts';
import type { ProtocolRegistry } from './types.ts';

export type Sync = 'always' | 'if-behind' | 'never';

const MAX_CACHED_ROOMS = 10_000;

/**
 * The rooms this node holds folded in memory (at most MAX_CACHED_ROOMS; an idle room is dropped
 * first), the entries it committed last (realtime hands them out without a read), and — with other
 * writers (Postgres) — what the bus announced, so a read re-reads a room's tail only when behind.
 */
export class RoomCache {
  private readonly memos = new Map<string, FoldedRoom>();
  private readonly committed = new CommittedEntries();

  constructor(
    private readonly store: Store,
    private readonly protocols: ProtocolRegistry,
    readonly tail: TailWatch | null,
    /** A room whose queue is busy is never the one dropped. */
    private readonly busy: (roomId: string) => boolean,
  ) {}

  get(roomId: string): FoldedRoom | undefined {
    return this.memos.get(roomId);
  }

  /**
   * The bus announced `seq` of a room (or a caller read it from the store). A room being loaded
   * (`loading`, no memo yet) still hears: the load may predate the entry.
   */
  hear(roomId: string, seq: number, loading: boolean): void {
    this.tail?.hear(roomId, seq, this.memos.get(roomId)?.seq ?? (loading ? undefined : null));
  }

  /**
   * The cached room, first brought up to the stored tail: `always`, `never`, or `if-behind` (the
   * bus announced a newer seq, or the last check is older than tailStaleMs).
   */
  async load(roomId: string, sync: Sync): Promise<FoldedRoom> {
    const cached = this.memos.get(roomId);
    if (cached) {
      if (sync === 'never' || (sync === 'if-behind' && !this.tail?.behind(roomId, cached.seq))) return cached;
      try {
        await syncTail(this.store, cached);
        this.tail?.checked(roomId, cached.seq);
        return cached;
      } catch {
        this.memos.delete(roomId); // half-folded: reload from the store
      }
    }
    const m = await loadMemo(this.store, this.protocols, roomId);
    this.remember(roomId, m);
    return m;
  }

  remember(roomId: string, memo: FoldedRoom, written: readonly BuiltEntry[] = []): void {
    this.memos.delete(roomId);
    this.memos.set(roomId, memo);
    this.committed.add(
      roomId,
      written.map((b) => b.stored),
    );
    this.tail?.checked(roomId, memo.seq); // loaded or just committed: current as of now
    if (this.memos.size <= MAX_CACHED_ROOMS) return;
    for (const k of this.memos.keys()) {
      if (!this.busy(k)) {
        this.forget(k);
        break;
      }
    }
  }

  committedSince(roomId: string, fromSeq: number): StoredEntry[] {
    return this.committed.since(roomId, fromSeq);
  }

  forget(roomId?: string): void {
    if (roomId === undefined) this.memos.clear();
    else this.memos.delete(roomId);
    this.tail?.forget(roomId);
    this.committed.forget(roomId);
  }
}
