import {
  asJson,
  type EntryKind,
  type JsonValue,
  PUBLIC,
  type Reveal,
  RevealError,
  revealsOf,
  type StoredEntry,
  type Visibility,
} from '@db8/core';
import type { IdempotencyRow } from '../store/schemas.ts';
import type { Store } from '../store/store.ts';
import { type BuiltEntry, buildEntry, rowToStored } from './entries.ts';
import { runtimeError } from './errors.ts';
import type { FoldedRoom } from './room.ts';

export interface PlannedCheckpoint {
  size: number;
  root: Uint8Array;
  milestone: string | null;
}

export interface PlanMark {
  memo: FoldedRoom;
  out: number;
  idem: number;
  seats: number;
  checkpoints: number;
  keys: string[];
}

/**
 * One write batch being planned against a fork of the room. Ops append entries through `push`;
 * a failing op is rolled back with mark/restore so the batch only holds accepted ops. Nothing
 * touches the store except reads of earlier sealed entries (for reveals).
 */
export class BatchPlan {
  readonly out: BuiltEntry[] = [];
  readonly idem: IdempotencyRow[] = [];
  /** Seats taken in this batch; `from`: the holder a replacement takes the seat from. */
  readonly seatTakes: Array<{ seat: string; principal: string; seq: number; ts: number; from?: string }> = [];
  readonly checkpoints: PlannedCheckpoint[] = [];
  /** Idempotency keys claimed in this batch: `${seat}\u0000${key}` → record. */
  readonly keys = new Map<string, IdempotencyRow>();
  /**
   * Client nonces are taken to be new unless the action is refused (ops.planAct): a reused one is
   * caught by its row's primary key at commit, and the runtime plans the batch again with this off.
   */
  lazyKeys = false;

  constructor(
    public memo: FoldedRoom,
    readonly store: Store,
    readonly clock: () => number,
  ) {}

  get roomId(): string {
    return this.memo.core.id;
  }

  /** Entry time: the clock (or a given instant), never before the previous entry. */
  ts(now?: number): number {
    return Math.max(now ?? this.clock(), this.memo.lastTs);
  }

  mark(): PlanMark {
    return {
      memo: this.memo.fork(),
      out: this.out.length,
      idem: this.idem.length,
      seats: this.seatTakes.length,
      checkpoints: this.checkpoints.length,
      keys: [...this.keys.keys()],
    };
  }

  restore(m: PlanMark): void {
    this.memo = m.memo;
    this.out.length = m.out;
    this.idem.length = m.idem;
    this.seatTakes.length = m.seats;
    this.checkpoints.length = m.checkpoints;
    const keep = new Set(m.keys);
    for (const k of [...this.keys.keys()]) if (!keep.has(k)) this.keys.delete(k);
  }

  /**
   * The reveals for `seqs`: each names a sealed entry of this room, whose sealed payload and salt
   * must match the commitment in its public form (verifyReveal) before anything is written.
   */
  async reveals(seqs: readonly number[]): Promise<Reveal[]> {
    if (seqs.length === 0) return [];
    const found = new Map<number, StoredEntry>();
    for (const b of this.out) if (seqs.includes(b.stored.seq)) found.set(b.stored.seq, b.stored);
    const missing = seqs.filter((s) => !found.has(s));
    for (const row of await this.store.entries.bySeqs(this.roomId, missing))
      found.set(row.seq, rowToStored(row));
    try {
      return revealsOf(seqs, (seq) => found.get(seq));
    } catch (err) {
      if (err instanceof RevealError) throw runtimeError('BAD_REVEAL', err.message);
      throw err;
    }
  }

  /** Appends one entry at the next seq and advances the fork (frontier, seq, time). */
  push(e: {
    kind: EntryKind;
    actor: string;
    payload: JsonValue;
    ts: number;
    vis?: Visibility;
    reveals?: Reveal[];
    milestone?: string;
    note?: JsonValue;
  }): BuiltEntry {
    const built = buildEntry({
      room: this.roomId,
      seq: this.memo.seq + 1,
      ts: e.ts,
      kind: e.kind,
      actor: e.actor,
      payload: e.payload,
      vis: e.vis ?? PUBLIC,
      ...(e.reveals ? { reveals: e.reveals } : {}),
      ...(e.note !== undefined ? { note: e.note } : {}),
    });
    this.out.push(built);
    this.memo.frontier.append(built.leaf);
    this.memo.seq = built.stored.seq;
    this.memo.lastTs = e.ts;
    if (e.milestone !== undefined) {
      this.checkpoints.push({
        size: this.memo.frontier.size,
        root: this.memo.frontier.root(),
        milestone: e.milestone,
      });
    }
    return built;
  }
}

/** JSON-only copy of a value as it will be stored (core's, shared with LocalRoom). */
export { asJson };
