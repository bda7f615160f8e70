import type { PublicEntry, Viewer } from '@db8/core';
import {
  type CreateTableBody,
  HOUSE,
  type TableAction,
  type TableConfig,
  type TableSummary,
  type TableView,
} from '@db8/protocols/poker';
import type { Bus } from '../../bus/types.ts';
import { ApiError } from '../../errors.ts';
import type { RuntimeApi } from '../../routes/runtime-api.ts';
import type { RoomInfo } from '../../runtime/types.ts';

/** The principal that holds every table's `house` seat: the server itself (acts without a principal). */
export const HOUSE_PRINCIPAL = 'server:house';
export const POKER = 'poker';

/** The runtime as the poker layer uses it; `tick` lets it run deadlines on time (else the watcher does). */
export type PokerRuntime = RuntimeApi & {
  tick?(roomId: string, now?: number): Promise<number | null>;
  now?(): number;
};

export function seatName(i: number): string {
  return `seat_${i}`;
}

export function seatNumber(seat: string | null): number | null {
  const m = seat === null ? null : /^seat_(\d{1,2})$/.exec(seat);
  return m ? Number(m[1]) : null;
}

export function tableConfigOf(body: CreateTableBody): TableConfig {
  return {
    seats: body.seats,
    smallBlind: body.small_blind,
    bigBlind: body.big_blind,
    ante: body.ante,
    startingStack: body.starting_stack,
    actionTimeoutMs: body.action_timeout_ms,
    handIntervalMs: body.hand_interval_ms,
    maxHands: body.max_hands,
    minPlayers: body.min_players,
    maxConsecutiveTimeouts: body.max_consecutive_timeouts,
  };
}

/**
 * Poker tables on the room runtime: create (and seat the house), list, join, act, house actions,
 * and a per-table timer that ticks each table exactly at its next deadline (a turn timing out, the
 * next hand due) rather than at the generic watcher's next pass.
 */
export class PokerTables {
  private readonly known = new Map<string, boolean>();
  private readonly timers = new Map<string, { at: number; timer: NodeJS.Timeout }>();
  private readonly checking = new Map<string, boolean>();
  private offBus: (() => void) | null = null;
  private closed = false;
  /** Latest seq seen per table through a connection's state pull (its deadline came with it). */
  private readonly seen = new Map<string, number>();
  private readonly observers = new Set<(tableId: string, seq: number, view: TableView) => void>();
  /** True when some connection on this node follows the table (its pulls report deadlines). */
  watched: (tableId: string) => boolean = () => false;

  constructor(
    readonly runtime: PokerRuntime,
    private readonly bus: Bus,
    private readonly clock: () => number,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  /** Follow every table's deadlines (open tables now, new entries as they land). */
  async start(): Promise<void> {
    if (!this.runtime.tick || this.offBus) return;
    this.offBus = this.bus.subscribe('*', (e: PublicEntry) => {
      void this.onEntry(e.room);
    });
    const open = (await this.runtime.listRooms({
      protocol: POKER,
      status: 'open',
      limit: 500,
    })) as RoomInfo[];
    for (const r of open) {
      this.known.set(r.id, true);
      this.reschedule(r.id, r.deadlineUnix);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.offBus?.();
    for (const t of this.timers.values()) clearTimeout(t.timer);
    this.timers.clear();
  }

  async isTable(roomId: string): Promise<boolean> {
    const k = this.known.get(roomId);
    if (k !== undefined) return k;
    try {
      const r = (await this.runtime.getRoom(roomId)) as RoomInfo;
      this.known.set(roomId, r.protocol === POKER);
      return r.protocol === POKER;
    } catch {
      return false;
    }
  }

  async table(roomId: string): Promise<RoomInfo> {
    const r = (await this.runtime.getRoom(roomId)) as RoomInfo;
    if (r.protocol !== POKER) throw new ApiError(404, 'TABLE_NOT_FOUND', `${roomId} is not a poker table`);
    return r;
  }

  async create(body: CreateTableBody, createdBy: string): Promise<TableSummary> {
    const room = (await this.runtime.createRoom({
      protocol: POKER,
      config: tableConfigOf(body),
      ...(body.title !== undefined ? { title: body.title } : {}),
      createdBy,
    })) as RoomInfo;
    // The server holds the house seat, so no client can take it.
    await this.runtime.join(room.id, { seat: HOUSE, principal: HOUSE_PRINCIPAL });
    this.known.set(room.id, true);
    return this.summary(await this.table(room.id));
  }

  async list(status?: 'open' | 'closed'): Promise<TableSummary[]> {
    const rooms = (await this.runtime.listRooms({
      protocol: POKER,
      limit: 200,
      ...(status ? { status } : {}),
    })) as RoomInfo[];
    return Promise.all(rooms.map((r) => this.summary(r)));
  }

  async view(roomId: string, viewer: Viewer = { kind: 'observer' }): Promise<TableView> {
    return (await this.runtime.stateFor(roomId, viewer)).view as TableView;
  }

  async summary(r: RoomInfo): Promise<TableSummary> {
    const v = await this.view(r.id);
    const c = r.config as TableConfig;
    return {
      table_id: r.id,
      title: r.title,
      status:
        r.status === 'closed' || v.status === 'stopped'
          ? 'ended'
          : v.status === 'waiting'
            ? 'waiting'
            : 'running',
      seats_total: c.seats,
      seats_filled: r.seats.filter((s) => s.held && s.id !== HOUSE).length,
      hands_played: v.handsStarted,
      small_blind: c.smallBlind,
      big_blind: c.bigBlind,
      ante: c.ante,
      starting_stack: c.startingStack,
      action_timeout_ms: c.actionTimeoutMs,
      max_hands: c.maxHands,
      created_at: r.createdAt,
      seq: r.seq,
    };
  }

  /** Seats `principal` (an empty seat, or the one asked for; the seat it holds if any) and sits it in. */
  async join(roomId: string, principal: string, seatId?: number): Promise<number> {
    const room = await this.table(roomId);
    if (room.status === 'closed') throw new ApiError(409, 'TABLE_ENDED', 'the table has ended');
    const players = room.seats.filter((s) => s.id !== HOUSE).length;
    if (seatId !== undefined && seatId >= players)
      throw new ApiError(404, 'UNKNOWN_SEAT', `this table has no seat ${seatId}`);
    // Tables made through the generic room API may not have their house seated yet: seat it first,
    // so the runtime's "first free seat" can only ever be a player seat.
    await this.runtime.join(roomId, { seat: HOUSE, principal: HOUSE_PRINCIPAL }).catch(() => null);
    const joined = (
      await this.runtime.join(
        roomId,
        seatId !== undefined ? { seat: seatName(seatId), principal } : { principal },
      )
    ).seat;
    if (seatNumber(joined) === null) throw new ApiError(409, 'TABLE_FULL', 'no player seat for you');
    try {
      await this.runtime.act(roomId, { seat: joined, action: { kind: 'sitIn' }, principal });
    } catch (e) {
      if ((e as { code?: string }).code !== 'ALREADY_SITTING') throw e;
    }
    return seatNumber(joined)!;
  }

  house(roomId: string, action: TableAction) {
    return this.runtime.act(roomId, { seat: HOUSE, action });
  }

  // ── deadlines ──────────────────────────────────────────────────────────────────────────────────

  /**
   * A connection pulled the table's state at `seq`: that carries the deadline, so the timer needs
   * no store read of its own; observers (e.g. a simulation's house) see each state once.
   */
  noteState(tableId: string, seq: number, view: TableView, deadline: number | null): void {
    if (seq <= (this.seen.get(tableId) ?? -1)) return;
    this.seen.set(tableId, seq);
    this.reschedule(tableId, view.status === 'stopped' ? null : deadline);
    for (const fn of this.observers) fn(tableId, seq, view);
  }

  observe(fn: (tableId: string, seq: number, view: TableView) => void): () => void {
    this.observers.add(fn);
    return () => this.observers.delete(fn);
  }

  private async onEntry(roomId: string): Promise<void> {
    if (this.closed || this.watched(roomId) || !(await this.isTable(roomId))) return;
    if (this.checking.get(roomId) !== undefined) {
      this.checking.set(roomId, true); // look again once the current look is done
      return;
    }
    this.checking.set(roomId, false);
    try {
      do {
        this.checking.set(roomId, false);
        const r = (await this.runtime.getRoom(roomId)) as RoomInfo;
        this.reschedule(roomId, r.status === 'open' ? r.deadlineUnix : null);
      } while (this.checking.get(roomId) && !this.closed);
    } catch (err) {
      this.onError(err);
    } finally {
      this.checking.delete(roomId);
    }
  }

  /** Reads the deadline from the store even if connections follow the table. */
  private async lookAgain(roomId: string): Promise<void> {
    try {
      const r = (await this.runtime.getRoom(roomId)) as RoomInfo;
      this.reschedule(roomId, r.status === 'open' ? r.deadlineUnix : null);
    } catch (err) {
      this.onError(err);
    }
  }

  private reschedule(roomId: string, at: number | null): void {
    const cur = this.timers.get(roomId);
    if (cur && cur.at === at) return;
    if (cur) clearTimeout(cur.timer);
    this.timers.delete(roomId);
    if (at === null || this.closed) return;
    const timer = setTimeout(() => void this.fire(roomId, at), Math.max(0, at - this.clock()));
    timer.unref();
    this.timers.set(roomId, { at, timer });
  }

  private async fire(roomId: string, at: number): Promise<void> {
    if (this.timers.get(roomId)?.at === at) this.timers.delete(roomId);
    try {
      const seq = await this.runtime.tick?.(roomId, Math.max(at, this.clock()));
      // Nothing written (another node ticked, or the deadline moved): look again.
      if (seq === null || seq === undefined) await this.lookAgain(roomId);
    } catch (err) {
      this.onError(err);
      const retry = setTimeout(() => void this.lookAgain(roomId), 500);
      retry.unref();
    }
  }
}
