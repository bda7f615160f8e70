import {
  type AnyProtocol,
  canonicalize,
  type Ended,
  redactEntry,
  type StoredEntry,
  type Viewer,
} from '@db8/core';
import type { ServerKey } from '../keys/server-key.ts';
import { isUniqueViolation } from '../store/driver.ts';
import type { RoomListFilter } from '../store/rooms.ts';
import type { SeatRow } from '../store/schemas.ts';
import type { Store } from '../store/store.ts';
import { BatchRunner, type WriteOp } from './batch-run.ts';
import { RoomCache, type Sync } from './cache.ts';
import { type CommitConfig, commitPlan, storedDeadline } from './commit.ts';
import { planCreate } from './create.ts';
import { rowToStored } from './entries.ts';
import { RuntimeError, runtimeError } from './errors.ts';
import { exportRoom } from './export.ts';
import { planAct, planEnd, planJoin, planTick } from './ops.ts';
import { inclusionProof } from './proof.ts';
import { RoomQueue } from './queue.ts';
import { replayRoom } from './replay.ts';
import type { FoldedRoom } from './room.ts';
import { stateOf, toRoomInfo } from './room-info.ts';
import { TailWatch } from './tail.ts';
import type {
  Ack,
  ActInput,
  ActWatch,
  CheckpointInfo,
  EntryPublisher,
  InclusionProof,
  ProtocolRegistry,
  ReplayReport,
  RoomInfo,
  RuntimeOptions,
  StateFor,
} from './types.ts';

/**
 * The room runtime: every input becomes an entry appended to the room's log, serialised per room
 * (an in-process queue that batches concurrent writes into one transaction) and across processes
 * (the unique (room_id, seq) key: a loser reloads the tail, re-plans and retries).
 */
export class Runtime {
  readonly store: Store;
  readonly protocols: ProtocolRegistry;
  readonly serverKey: ServerKey;
  readonly clock: () => number;
  readonly origin: string;
  private readonly bus: EntryPublisher | undefined;
  private readonly cfg: CommitConfig;
  private readonly maxBatch: number;
  private readonly maxRetries: number;
  /** Another process may append to the same rooms: fold their entries before each write. */
  private readonly shared: boolean;
  private readonly onPublishError: (err: unknown, roomId: string, seq: number) => void;
  private readonly joinEffects: RuntimeOptions['joinEffects'];
  /** Counters for tests and benchmarks: write batches committed, entries written, seq races lost. */
  readonly stats = { batches: 0, entries: 0, conflicts: 0 };
  private readonly queues = new Map<string, RoomQueue>();
  private readonly actWatches = new Set<ActWatch>();
  private readonly rooms: RoomCache;
  private readonly batches: BatchRunner;

  constructor(opts: RuntimeOptions) {
    this.store = opts.store;
    this.protocols = opts.protocols;
    this.serverKey = opts.serverKey;
    this.bus = opts.bus;
    this.clock = opts.clock ?? Date.now;
    this.origin = opts.origin ?? 'db8.local';
    this.cfg = {
      serverKey: opts.serverKey,
      origin: this.origin,
      snapshotEvery: opts.snapshotEvery ?? 256,
      checkpointEvery: opts.checkpointEvery ?? 64,
      ...(opts.externalClock ? { externalClock: opts.externalClock } : {}),
    };
    this.maxBatch = opts.maxBatch ?? 256;
    this.maxRetries = opts.maxRetries ?? 16;
    this.shared = opts.store.kind === 'postgres';
    this.onPublishError = opts.onPublishError ?? (() => {});
    this.joinEffects = opts.joinEffects;
    const heard = this.shared ? opts.announcements : undefined;
    // Set when the bus is heard (Postgres): reads skip the tail check while nothing new was announced.
    const tail = heard ? new TailWatch(this.clock, opts.tailStaleMs ?? 1000) : null;
    this.rooms = new RoomCache(this.store, this.protocols, tail, (id) => this.queues.get(id)?.busy === true);
    heard?.subscribe('*', (e) => this.rooms.hear(e.room, e.seq, this.queues.has(e.room)));
    this.batches = new BatchRunner({
      store: this.store,
      rooms: this.rooms,
      cfg: this.cfg,
      clock: this.clock,
      shared: this.shared,
      maxRetries: this.maxRetries,
      stats: this.stats,
      bus: this.bus,
      onPublishError: this.onPublishError,
    });
  }

  now(): number {
    return this.clock();
  }

  /**
   * The seq and stored deadline of the room as this node holds it in memory, or null when it is not
   * cached: the scheduler re-arms from it after an append instead of reading the row back.
   */
  headOf(roomId: string): { seq: number; deadlineAt: number | null } | null {
    const m = this.rooms.get(roomId);
    if (!m) return null;
    try {
      return { seq: m.seq, deadlineAt: storedDeadline(m, this.cfg) };
    } catch {
      return null; // a protocol whose deadline() throws: the stored row says what was written
    }
  }

  /**
   * `id`, `seed` and `now` are for trusted in-process callers that open the same room on several
   * nodes from one source (a replicated room): equal inputs give equal genesis entries.
   */
  async createRoom(input: {
    protocol: string;
    config: unknown;
    title?: string;
    createdBy?: string;
    id?: string;
    seed?: string;
    now?: number;
  }): Promise<RoomInfo> {
    const p = this.protocolNamed(input.protocol);
    const { id, config, seats, seed, empty, plan, ts } = planCreate(p, input, this.store, this.clock);
    if (input.id !== undefined && (await this.store.rooms.get(id)))
      throw runtimeError('ROOM_EXISTS', `room ${id} exists`);
    await this.inTx(input.id !== undefined, id, async (s) => {
      await s.rooms.create(
        {
          id,
          protocol: p.name,
          protocolVersion: p.version,
          configJson: canonicalize(config),
          title: input.title ?? null,
          createdBy: input.createdBy ?? null,
          createdAt: ts,
          seed,
          deadlineAt: null,
        },
        seats.map((s) => ({ seat: s.id, role: s.role })),
      );
      await commitPlan(s, plan, empty, this.cfg);
    });
    this.rooms.remember(id, plan.memo, plan.out);
    await this.batches.publish(id, plan.out);
    return this.getRoom(id);
  }

  /** A chosen id may race another creator of the same room: the loser is ROOM_EXISTS. */
  private async inTx(chosen: boolean, id: string, fn: (s: Store) => Promise<void>): Promise<void> {
    try {
      await this.store.tx(fn);
    } catch (err) {
      if (chosen && isUniqueViolation(err)) throw runtimeError('ROOM_EXISTS', `room ${id} exists`);
      throw err;
    }
  }

  async listRooms(filter: RoomListFilter = {}): Promise<RoomInfo[]> {
    const { rooms } = await this.store.rooms.list(filter);
    // Group once: a per-room filter is quadratic on a full page (500 rooms).
    const byRoom = new Map<string, SeatRow[]>();
    for (const s of await this.store.rooms.seatsIn(rooms.map((r) => r.id))) {
      const list = byRoom.get(s.roomId);
      if (list) list.push(s);
      else byRoom.set(s.roomId, [s]);
    }
    return rooms.map((r) => toRoomInfo(r, byRoom.get(r.id) ?? []));
  }

  async getRoom(roomId: string): Promise<RoomInfo> {
    const row = await this.store.rooms.get(roomId);
    if (!row) throw runtimeError('ROOM_NOT_FOUND', `no room ${roomId}`);
    return toRoomInfo(row, await this.store.rooms.seats(roomId));
  }

  /** Takes a seat (the given one, or the first free one). A principal already seated gets its seat back. */
  join(
    roomId: string,
    input: { seat?: string; principal: string },
  ): Promise<{ seat: string; entrySeq: number }> {
    return this.write(roomId, { plan: (w) => planJoin(w, input, this.joinEffects) });
  }

  async act(roomId: string, input: ActInput): Promise<Ack> {
    let protocol: string | null = null;
    try {
      return await this.write(roomId, {
        plan: (w) => {
          protocol = w.memo.protocol.name;
          for (const watch of this.actWatches) watch.before?.({ roomId, protocol, input });
          return planAct(w, input);
        },
      });
    } catch (error) {
      if (protocol !== null && error instanceof RuntimeError) {
        for (const watch of this.actWatches) {
          // A watcher's failure must not change the caller's answer (the refusal).
          await watch.refused?.({ roomId, protocol, input, error }).catch(() => {});
        }
      }
      throw error;
    }
  }

  /**
   * The server's own write of one of the protocol's serverActions (an admin's operation, after the
   * caller checked who may), never watched as a seat's act. `reseat`: in the same write, once the
   * protocol accepted the action, the seat passes to a new holder (a join entry, with the module's
   * join effects, e.g. a debate's identity binding).
   */
  serverAct(
    roomId: string,
    input: ActInput,
    reseat?: { seat: string; principal: string },
  ): Promise<Ack & { joinSeq?: number }> {
    return this.write(roomId, {
      plan: async (w) => {
        const ack = await planAct(w, input, true);
        if (!reseat) return ack;
        const j = await planJoin(w, { ...reseat, replace: true }, this.joinEffects);
        return { ...ack, joinSeq: j.entrySeq };
      },
    });
  }

  /**
   * Watches the seats' actions (`act`, not the server's own writes): `before` may refuse one by
   * throwing (e.g. a per-author rate limit), `refused` hears every refusal after the fact (nothing
   * was written), e.g. to keep a dead-letter record. Returns the unwatch function.
   */
  watchActs(watch: ActWatch): () => void {
    this.actWatches.add(watch);
    return () => this.actWatches.delete(watch);
  }

  /**
   * Ends an open room now, whatever its protocol (an admin's act): a close entry recording who and
   * why. ROOM_CLOSED when it is already closed.
   */
  end(roomId: string, ended: Ended): Promise<{ seq: number; ts: number }> {
    return this.write(roomId, { plan: (w) => planEnd(w, ended) });
  }

  /**
   * Runs the protocol's tick if its deadline has passed at `now` (default: the clock). Returns the
   * seq written or null. `exclusive` (the watcher) takes the room's cluster-wide tick lock and
   * returns null when another node holds it.
   */
  tick(roomId: string, now?: number, opts: { exclusive?: boolean } = {}): Promise<number | null> {
    // The lock only matters with other nodes: the embedded store has one writer, so its watcher
    // tick is an ordinary write (one statement, batched with the room's other writes).
    const locked = opts.exclusive === true && this.shared;
    const op: WriteOp = { plan: (w) => planTick(w, now ?? this.clock()), tickLock: locked };
    return this.write(roomId, op, locked);
  }

  /**
   * One watcher pass: ticks every open room whose deadline has passed, `concurrency` rooms at once
   * (one slow room's commit does not hold up the others). Returns entries written.
   */
  async tickDue(now?: number, limit = 100, concurrency = 8): Promise<number> {
    const at = now ?? this.clock();
    const due = (await this.store.rooms.due(at, limit)).map((r) => r.id);
    let written = 0;
    const worker = async () => {
      for (let id = due.shift(); id !== undefined; id = due.shift()) {
        try {
          if ((await this.tick(id, at, { exclusive: true })) !== null) written++;
        } catch {
          // One broken room must not stop the others' timers; it stays due and is retried.
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
    return written;
  }

  stateFor(roomId: string, viewer: Viewer): Promise<StateFor> {
    return this.read(roomId, async (m) => stateOf(m, viewer));
  }

  /**
   * Realtime, right after a commit: the state from the cached (committed) room if it holds
   * `minSeq` — no queue, no read — else null (the caller falls back to stateFor).
   */
  stateNow(roomId: string, viewer: Viewer, minSeq: number): StateFor | null {
    const m = this.rooms.get(roomId);
    return m && m.seq >= minSeq ? stateOf(m, viewer) : null;
  }

  /**
   * A caller read entry `seq` from the store (realtime, before asking for the state after it): the
   * next read must include it even if the bus has not told this node yet (Postgres).
   */
  expectSeq(roomId: string, seq: number): void {
    this.rooms.hear(roomId, seq, this.queues.has(roomId));
  }

  /** Entries from `fromSeq` on that this node itself just committed (none read from the store). */
  committedSince(roomId: string, fromSeq: number): StoredEntry[] {
    return this.rooms.committedSince(roomId, fromSeq);
  }

  /**
   * The folded protocol state itself, unredacted (trusted in-process readers only: a module's
   * projections of its rooms). `ts` is the last entry's.
   */
  protocolState(roomId: string): Promise<{ seq: number; ts: number; state: unknown; closed: boolean }> {
    return this.read(roomId, async (m) => ({ seq: m.seq, ts: m.lastTs, state: m.state, closed: m.closed }));
  }

  /** Entries from `fromSeq`, at most `limit` (max 1000), each as `viewer` may see it. */
  async entries(roomId: string, viewer: Viewer, fromSeq: number, limit: number): Promise<StoredEntry[]> {
    const n = Math.min(Math.max(Math.trunc(limit), 1), 1000);
    const rows = await this.store.entries.range(roomId, Math.max(0, Math.trunc(fromSeq)), n);
    if (rows.length === 0 && !(await this.store.rooms.get(roomId))) {
      throw runtimeError('ROOM_NOT_FOUND', `no room ${roomId}`);
    }
    return rows.map((r) => redactEntry(rowToStored(r), viewer));
  }

  /** Inclusion proof of entry `seq` against the latest checkpoint (signing a fresh one if it lags). */
  proof(roomId: string, seq: number): Promise<InclusionProof> {
    return this.read(roomId, (m) => inclusionProof(this.store, this.cfg, m, seq));
  }

  async checkpoints(roomId: string): Promise<CheckpointInfo[]> {
    const rows = await this.store.checkpoints.list(roomId);
    if (rows.length === 0) await this.getRoom(roomId);
    return rows.map((c) => ({
      size: c.size,
      rootHash: c.rootHash,
      note: c.note,
      ...(c.milestone !== null ? { milestone: c.milestone } : {}),
    }));
  }

  /** Refolds the whole log and checks it against every stored hash, snapshot and checkpoint. */
  replay(roomId: string): Promise<ReplayReport> {
    return replayRoom(this.store, this.protocols, roomId);
  }

  /** JSONL records of the journal bundle: room, entries (as `viewer` may see them), checkpoints, keys. */
  export(roomId: string, viewer: Viewer): AsyncIterable<object> {
    return exportRoom(this, roomId, viewer);
  }

  /** The seat a principal holds in a room (the store's one rule: exactly one, else null). */
  seatOf(roomId: string, principal: string): Promise<string | null> {
    return this.store.rooms.seatOf(principal, roomId);
  }

  /** Waits until every room queue is idle (shutdown). */
  async drain(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.read(async () => {})));
  }

  /** Drops cached room state (tests; a module that purged the room: the next access reloads, or 404s). */
  forget(roomId?: string): void {
    this.rooms.forget(roomId);
  }

  private protocolNamed(name: string): AnyProtocol {
    const p = this.protocols.get(name);
    if (!p)
      throw runtimeError('UNKNOWN_PROTOCOL', `no protocol ${name}`, { known: [...this.protocols.keys()] });
    return p;
  }

  private queue(roomId: string): RoomQueue {
    let q = this.queues.get(roomId);
    if (!q) {
      q = new RoomQueue(
        (batch) => this.batches.run(roomId, batch),
        this.maxBatch,
        () => {
          if (!this.queues.get(roomId)?.busy) this.queues.delete(roomId);
        },
      );
      this.queues.set(roomId, q);
    }
    return q;
  }

  private write<T>(roomId: string, op: WriteOp, solo = false): Promise<T> {
    return this.queue(roomId).write<T>(op, solo);
  }

  private read<T>(roomId: string, fn: (m: FoldedRoom) => Promise<T>): Promise<T> {
    const sync: Sync = !this.shared ? 'never' : this.rooms.tail ? 'if-behind' : 'always';
    return this.queue(roomId).read(async () => fn(await this.rooms.load(roomId, sync)));
  }
}
