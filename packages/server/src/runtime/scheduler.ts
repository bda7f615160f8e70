import { timerDelay } from '@db8/core';
import type { RoomsRepo } from '../store/rooms.ts';
import { realTimers, type Timers } from './long-timer.ts';

/** What the scheduler needs of the runtime (the real Runtime fits). */
export interface SchedulerRuntime {
  readonly store: { readonly rooms: Pick<RoomsRepo, 'get' | 'deadlines'> };
  now(): number;
  /** The room's seq and deadline as held in memory, if it is (saves reading the row back). */
  headOf?(roomId: string): { seq: number; deadlineAt: number | null } | null;
  tick(roomId: string, now?: number, opts?: { exclusive?: boolean }): Promise<number | null>;
}

/** What it needs of the bus: every room's appends, on every node. */
export interface SchedulerBus {
  subscribe(roomId: '*', fn: (entry: { room: string; seq: number }) => void): () => void;
}

/** Real timers by default; tests inject their own to see what gets armed. */
export type SchedulerTimers = Timers;

export interface SchedulerOptions {
  bus?: SchedulerBus;
  /** Most rooms ticked at once when many are due together (default 8). */
  concurrency?: number;
  /**
   * Re-reads the earliest deadlines from the store this often (default 30 s; 0: never): a backstop
   * for a bus message lost in a cluster, not the way deadlines are found.
   */
  resyncMs?: number;
  /** First retry delay for a room whose tick failed or was held by another node (default 1 s). */
  retryMs?: number;
  onError?: (err: unknown, roomId?: string) => void;
  timers?: SchedulerTimers;
}

const MAX_BACKOFF = 30_000;

/**
 * One exact-deadline scheduler for every room. The next deadline of each open room lives in the
 * store (rooms.deadline_at, written with every append); this keeps them in a min-heap and one timer
 * armed for the earliest, so a deadline fires at its time rather than at a poll. An append anywhere
 * in the cluster reaches every node on the bus, which re-reads that room's row and re-arms; on
 * start the open rooms' deadlines are read from the store, so a restart loses none. Every node arms
 * every room; the tick itself takes the room's cluster-wide lock (`exclusive`), so one node ticks
 * it and the rest see the new deadline arrive on the bus.
 */
export class DeadlineScheduler {
  /** Room → the deadline this node will fire it at. */
  private readonly due = new Map<string, number>();
  /** [at, room] min-heap; entries whose `at` no longer matches `due` are skipped lazily. */
  private readonly heap: Array<[number, string]> = [];
  private timer: unknown = null;
  private timerAt = Number.POSITIVE_INFINITY;
  private readonly queue: string[] = [];
  private readonly ticking = new Set<string>();
  private active = 0;
  private readonly running = new Set<Promise<void>>();
  /** Rooms whose row is being re-read → read again when done (a newer append arrived meanwhile). */
  private readonly reading = new Map<string, boolean>();
  private readonly failures = new Map<string, number>();
  /** Room → the newest seq whose deadline is armed (an older head arriving late is ignored). */
  private readonly armedSeq = new Map<string, number>();
  private offBus: (() => void) | null = null;
  private resync: unknown = null;
  private stopped = false;
  private readonly timers: SchedulerTimers;
  private readonly concurrency: number;
  private readonly retryMs: number;

  constructor(
    private readonly runtime: SchedulerRuntime,
    private readonly opts: SchedulerOptions = {},
  ) {
    this.timers = opts.timers ?? realTimers;
    this.concurrency = Math.max(1, opts.concurrency ?? 8);
    this.retryMs = opts.retryMs ?? 1000;
  }

  /** Follows appends on the bus, then reads every open room's pending deadline from the store. */
  async start(): Promise<void> {
    this.offBus = this.opts.bus?.subscribe('*', (e) => this.refresh(e.room, e.seq)) ?? null;
    await this.load();
    const every = this.opts.resyncMs ?? 30_000;
    if (every > 0) this.scheduleResync(every);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.offBus?.();
    if (this.timer !== null) this.timers.clear(this.timer);
    if (this.resync !== null) this.timers.clear(this.resync);
    this.timer = null;
    await Promise.allSettled([...this.running]);
  }

  /** The deadline this node has armed for a room (tests, metrics). */
  deadlineOf(roomId: string): number | null {
    return this.due.get(roomId) ?? null;
  }

  /**
   * Re-arms a room after an append the bus reports (at `seq`): from the runtime's memory when it
   * holds the room at that seq or later (its own appends, the common case), else from the row.
   */
  refresh(roomId: string, seq?: number): void {
    if (this.stopped) return;
    if (seq !== undefined && !this.reading.has(roomId) && this.fromMemory(roomId, seq)) return;
    if (this.reading.has(roomId)) {
      this.reading.set(roomId, true);
      return;
    }
    this.reading.set(roomId, false);
    const run = (async () => {
      try {
        do {
          this.reading.set(roomId, false);
          const row = await this.runtime.store.rooms.get(roomId);
          if (row) this.armedSeq.set(roomId, Math.max(row.headSeq, this.armedSeq.get(roomId) ?? -1));
          this.set(roomId, row?.status === 'open' ? row.deadlineAt : null);
        } while (this.reading.get(roomId) && !this.stopped);
      } catch (err) {
        this.opts.onError?.(err, roomId);
      } finally {
        this.reading.delete(roomId);
      }
    })();
    this.track(run);
  }

  /** Arms the room from the runtime's memo if it is at `seq` or newer; false: read the row. */
  private fromMemory(roomId: string, seq: number): boolean {
    const head = this.runtime.headOf?.(roomId);
    if (!head || head.seq < seq) return false;
    if (head.seq <= (this.armedSeq.get(roomId) ?? -1)) return true; // armed from as new already
    if (this.armedSeq.size >= 100_000) this.armedSeq.clear(); // only an ordering guard
    this.armedSeq.set(roomId, head.seq);
    if (!this.ticking.has(roomId)) this.set(roomId, head.deadlineAt);
    return true;
  }

  private async load(): Promise<void> {
    let after: { deadlineAt: number; id: string } | null = null;
    for (;;) {
      const page = await this.runtime.store.rooms.deadlines(after, 1000);
      for (const r of page) if (!this.ticking.has(r.id)) this.set(r.id, r.deadlineAt);
      const last = page.at(-1);
      if (!last || page.length < 1000 || this.stopped) return;
      after = last;
    }
  }

  private scheduleResync(every: number): void {
    this.resync = this.timers.set(() => {
      this.resync = null;
      if (this.stopped) return;
      this.track(
        this.load()
          .catch((err) => this.opts.onError?.(err))
          .finally(() => {
            if (!this.stopped) this.scheduleResync(every);
          }),
      );
    }, every);
  }

  private track(p: Promise<void>): void {
    this.running.add(p);
    void p.finally(() => this.running.delete(p));
  }

  private set(roomId: string, at: number | null): void {
    if (this.stopped) return;
    // A deadline that is no finite number (a protocol's bug) is no deadline: NaN in the heap
    // compares false with everything, and its timer (delay NaN → 1 ms) re-armed in a loop.
    if (at === null || !Number.isFinite(at)) {
      this.due.delete(roomId);
      return; // its heap entries go stale and are dropped when they surface
    }
    if (this.due.get(roomId) === at) return;
    this.due.set(roomId, at);
    this.push([at, roomId]);
    // Superseded deadlines stay in the heap until they surface; rebuild if they pile up.
    if (this.heap.length > 2 * this.due.size + 1024) this.rebuild();
    this.arm();
  }

  /** One timer, for the earliest live deadline. */
  private arm(): void {
    if (this.stopped) return;
    while (this.heap.length > 0) {
      const [at, id] = this.heap[0]!;
      if (this.due.get(id) === at) break;
      this.pop();
    }
    const top = this.heap[0];
    if (!top) return;
    if (top[0] === this.timerAt && this.timer !== null) return;
    if (this.timer !== null) this.timers.clear(this.timer);
    this.timerAt = top[0];
    // timerDelay caps at ~24.8 days (setTimeout's longest); a later deadline is re-armed on the way.
    const delay = timerDelay(top[0] - this.runtime.now());
    this.timer = this.timers.set(() => this.fire(), delay);
  }

  private fire(): void {
    this.timer = null;
    this.timerAt = Number.POSITIVE_INFINITY;
    if (this.stopped) return;
    const now = this.runtime.now();
    while (this.heap.length > 0 && this.heap[0]![0] <= now) {
      const [at, id] = this.pop()!;
      if (this.due.get(id) !== at) continue;
      this.due.delete(id);
      if (this.ticking.has(id)) continue; // its tick re-reads the row when it ends
      this.ticking.add(id);
      this.queue.push(id);
    }
    this.pump();
    this.arm();
  }

  /** Bounded concurrency: at most `concurrency` ticks in flight; the rest wait their turn. */
  private pump(): void {
    while (!this.stopped && this.queue.length > 0 && this.active < this.concurrency) {
      const id = this.queue.shift()!;
      this.active++;
      const run = this.tickOne(id).finally(() => {
        this.active--;
        this.ticking.delete(id);
        this.pump();
      });
      this.track(run);
    }
  }

  private async tickOne(roomId: string): Promise<void> {
    const now = this.runtime.now();
    let wrote = false;
    try {
      wrote = (await this.runtime.tick(roomId, now, { exclusive: true })) !== null;
    } catch (err) {
      this.opts.onError?.(err, roomId);
    }
    if (this.stopped) return;
    // The new deadline: from memory after a write of this node's, else read (the bus will say so
    // too, but may be absent or lossy).
    try {
      const head = wrote ? this.runtime.headOf?.(roomId) : null;
      const row = head ? null : await this.runtime.store.rooms.get(roomId);
      const next = head ? head.deadlineAt : row?.status === 'open' ? row.deadlineAt : null;
      if (wrote || next === null || next > now) {
        this.failures.delete(roomId);
        this.set(roomId, next);
        return;
      }
      // Still due and nothing written: another node holds the tick lock (or the tick failed).
      // Come back later; if that node finishes, its append re-arms this room sooner via the bus.
      const n = (this.failures.get(roomId) ?? 0) + 1;
      this.failures.set(roomId, n);
      this.set(roomId, this.runtime.now() + Math.min(MAX_BACKOFF, this.retryMs * 2 ** (n - 1)));
    } catch (err) {
      this.opts.onError?.(err, roomId);
      this.set(roomId, this.runtime.now() + this.retryMs);
    }
  }

  // ── binary min-heap on [at, room] ────────────────────────────────────────────────────────────────

  private rebuild(): void {
    const live = [...this.due].map(([id, at]): [number, string] => [at, id]);
    this.heap.length = 0;
    for (const item of live) this.push(item);
  }

  private push(item: [number, string]): void {
    const h = this.heap;
    h.push(item);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (h[p]![0] <= h[i]![0]) break;
      [h[p], h[i]] = [h[i]!, h[p]!];
      i = p;
    }
  }

  private pop(): [number, string] | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && h[l]![0] < h[m]![0]) m = l;
        if (r < h.length && h[r]![0] < h[m]![0]) m = r;
        if (m === i) break;
        [h[m], h[i]] = [h[i]!, h[m]!];
        i = m;
      }
    }
    return top;
  }
}
