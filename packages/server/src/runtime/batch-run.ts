import { publicForm } from '@db8/core';
import { isUniqueViolation } from '../store/driver.ts';
import type { Store } from '../store/store.ts';
import { BatchPlan } from './batch-plan.ts';
import type { RoomCache, Sync } from './cache.ts';
import { type CommitConfig, commitPlan, RaceLost, TickLockBusy } from './commit.ts';
import type { BuiltEntry } from './entries.ts';
import { RuntimeError, runtimeError } from './errors.ts';
import type { QueuedWrite } from './queue.ts';
import type { FoldedRoom } from './room.ts';
import type { EntryPublisher } from './types.ts';

/** One queued write: what it plans on the batch, and whether it needs the room's tick lock. */
export interface WriteOp {
  plan: (w: BatchPlan) => Promise<unknown>;
  tickLock?: boolean;
}

/** What the write path needs from the runtime that owns it. */
export interface BatchDeps {
  store: Store;
  rooms: RoomCache;
  cfg: CommitConfig;
  clock: () => number;
  /** Another process may append to the same rooms. */
  shared: boolean;
  maxRetries: number;
  stats: { batches: number; entries: number; conflicts: number };
  bus: EntryPublisher | undefined;
  onPublishError: (err: unknown, roomId: string, seq: number) => void;
}

/** The runtime's write path: a room queue's batch planned, committed (before anything is published), then published. */
export class BatchRunner {
  constructor(private readonly d: BatchDeps) {}

  /**
   * Plans every queued write against the room, commits them in one statement or transaction, then
   * answers. Planning is optimistic: with other writers (Postgres) the cached room may be behind,
   * which the unique seq catches for anything written; an op that wrote nothing (a rejection, an
   * idle tick) is only trusted once the tail has been checked, else the batch is planned again.
   * Planning again after a stale cache or a reused client nonce is not a lost race: only lost
   * races count against maxRetries.
   */
  async run(roomId: string, batch: QueuedWrite[]): Promise<void> {
    const tickLock = (batch[0]?.run as WriteOp | undefined)?.tickLock === true;
    let sync: Sync = this.d.rooms.tail ? 'if-behind' : 'never';
    /** The cached room is known to be the stored tail (always, with no other writer). */
    let checkedTail = !this.d.shared;
    /** Client nonces taken to be new (BatchPlan.lazyKeys) until one turns out reused, or a race is lost. */
    let lazyKeys = true;
    let racesLost = 0;
    for (;;) {
      const before = await this.d.rooms.load(roomId, sync);
      const { plan, results, wroteNothing } = await this.planBatch(before, batch, lazyKeys);
      if (wroteNothing && !checkedTail) {
        checkedTail = true;
        const plannedAt = before.seq; // read first: the load brings the cached room itself up to the tail
        if ((await this.d.rooms.load(roomId, 'always')).seq !== plannedAt) continue; // planned on a stale room
      }
      const outcome = plan.out.length > 0 ? await this.tryCommit(plan, before, tickLock) : 'committed';
      if (outcome === 'tick-lock-busy') {
        for (const j of batch) j.resolve(null);
        return;
      }
      if (outcome === 'nonce-reused') {
        lazyKeys = false;
        continue;
      }
      if (outcome === 'race-lost') {
        this.d.stats.conflicts++;
        if (racesLost === this.d.maxRetries)
          throw runtimeError(
            'CONFLICT_RETRY_EXHAUSTED',
            `room ${roomId}: lost the seq race ${racesLost + 1} times`,
          );
        await sleep(Math.random() * Math.min(50, 2 ** racesLost));
        racesLost++;
        sync = 'always';
        checkedTail = true;
        lazyKeys = false;
        continue;
      }
      if (plan.out.length > 0) {
        this.d.rooms.remember(roomId, plan.memo, plan.out);
        this.d.stats.batches++;
        this.d.stats.entries += plan.out.length;
      }
      batch.forEach((j, i) => {
        const r = results[i];
        if (r?.ok) j.resolve(r.value);
        else j.reject(r?.error instanceof RuntimeError ? r.error : (r?.error ?? new Error('no result')));
      });
      await this.publish(roomId, plan.out);
      return;
    }
  }

  /** Each queued op planned in turn on a fork of `before`; a refused op is rolled back and answered alone. */
  private async planBatch(before: FoldedRoom, batch: QueuedWrite[], lazyKeys: boolean) {
    const plan = new BatchPlan(before.fork(), this.d.store, this.d.clock);
    plan.lazyKeys = lazyKeys;
    const results: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    let wroteNothing = false;
    for (const job of batch) {
      const mark = plan.mark();
      try {
        results.push({ ok: true, value: await (job.run as WriteOp).plan(plan) });
      } catch (error) {
        plan.restore(mark);
        results.push({ ok: false, error });
      }
      if (plan.out.length === mark.out) wroteNothing = true;
    }
    return { plan, results, wroteNothing };
  }

  /** Commits a plan; a lost race, a reused client nonce or a busy tick lock is an outcome, not an error. */
  private async tryCommit(
    plan: BatchPlan,
    before: FoldedRoom,
    tickLock: boolean,
  ): Promise<'committed' | 'race-lost' | 'nonce-reused' | 'tick-lock-busy'> {
    try {
      await commitPlan(this.d.store, plan, before, this.d.cfg, { tickLock });
      return 'committed';
    } catch (err) {
      if (err instanceof TickLockBusy) return 'tick-lock-busy';
      if (plan.lazyKeys && isUniqueViolation(err, 'idempotency_pkey')) return 'nonce-reused';
      if (isUniqueViolation(err) || err instanceof RaceLost) return 'race-lost';
      throw err;
    }
  }

  async publish(roomId: string, out: readonly BuiltEntry[]): Promise<void> {
    if (!this.d.bus) return;
    for (const b of out) {
      try {
        await this.d.bus.publish(roomId, publicForm(b.stored));
      } catch (err) {
        this.d.onPublishError(err, roomId, b.stored.seq);
      }
    }
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
