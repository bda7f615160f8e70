import type { Viewer } from '@db8/core';
import {
  ApiError,
  type Bus,
  type ModuleRuntime,
  type RealtimeHub,
  type RoomInfo,
  type Subscription,
} from '@db8/server/kit';
import {
  type CreateTableBody,
  DEFAULT_IDLE_STOP_MS,
  HOUSE,
  type TableAction,
  type TableConfig,
  type TableSummary,
  type TableView,
} from '../rules/index.ts';

/** The principal that holds every table's `house` seat: the server itself (acts without a principal). */
export const HOUSE_PRINCIPAL = 'server:house';
export const POKER = 'poker';

export type TableObserver = (tableId: string, seq: number, view: TableView) => void;

/** The runtime as the poker layer uses it. */
export type PokerRuntime = Pick<
  ModuleRuntime,
  'createRoom' | 'listRooms' | 'getRoom' | 'join' | 'act' | 'stateFor'
>;

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
    idleStopMs: body.idle_stop_ms === undefined ? DEFAULT_IDLE_STOP_MS : body.idle_stop_ms,
  };
}

/**
 * Poker tables on the room runtime: create (and seat the house), list, join, act, house actions.
 * Deadlines (a turn timing out, the next hand due) are the runtime's deadline scheduler's, as for
 * every room; the table socket is the generic realtime stack with poker's codec (./wire.ts).
 */
export class PokerTables {
  private readonly known = new Map<string, boolean>();
  private readonly observers = new Set<TableObserver>();
  /** Per observed table, its realtime subscription (opened when the table first appends). */
  private readonly watching = new Map<string, Subscription | null>();
  private offBus: (() => void) | null = null;

  constructor(
    readonly runtime: PokerRuntime,
    private readonly live?: { bus: Bus; hub: RealtimeHub },
    /** The seats the server's drivers play (scripted or model), counted as filled like the lobby does. */
    private readonly drivenSeats?: (roomIds: readonly string[]) => Promise<Map<string, Set<string>>>,
  ) {}

  /**
   * Calls `fn` with each new state of every table that moves from now on (e.g. a simulation's house
   * topping up busted seats). States come from the realtime hub's channels, as sockets get them.
   */
  observe(fn: TableObserver): () => void {
    const live = this.live;
    if (!live) throw new Error('PokerTables.observe needs the app bus and realtime hub');
    this.observers.add(fn);
    this.offBus ??= live.bus.subscribe('*', (e) => void this.watch(e.room, e.seq, live.hub));
    return () => {
      this.observers.delete(fn);
      if (this.observers.size > 0) return;
      this.offBus?.();
      this.offBus = null;
      for (const sub of this.watching.values()) sub?.close();
      this.watching.clear();
    };
  }

  private async watch(roomId: string, seq: number, hub: RealtimeHub): Promise<void> {
    if (this.watching.has(roomId)) return;
    this.watching.set(roomId, null);
    if (!(await this.isTable(roomId)) || !this.offBus) return;
    const sub = hub.subscribe(roomId, { kind: 'observer' }, seq - 1, {
      entry: () => {},
      state: (f) => {
        const s = f.body as { seq: number; view: TableView };
        for (const fn of this.observers) fn(roomId, s.seq, s.view);
      },
      fail: () => this.watching.delete(roomId),
    });
    this.watching.set(roomId, sub);
    void sub.start();
  }

  async isTable(roomId: string): Promise<boolean> {
    const k = this.known.get(roomId);
    if (k !== undefined) return k;
    try {
      const r = await this.runtime.getRoom(roomId);
      this.known.set(roomId, r.protocol === POKER);
      return r.protocol === POKER;
    } catch {
      return false;
    }
  }

  async table(roomId: string): Promise<RoomInfo> {
    const r = await this.runtime.getRoom(roomId);
    if (r.protocol !== POKER) throw new ApiError(404, 'TABLE_NOT_FOUND', `${roomId} is not a poker table`);
    return r;
  }

  /** `seed` (64 hex digits) fixes every deck of the table (a local simulation's `--seed`); else drawn. */
  async create(body: CreateTableBody, createdBy: string, seed?: string): Promise<TableSummary> {
    const room = await this.runtime.createRoom({
      protocol: POKER,
      config: tableConfigOf(body),
      ...(seed !== undefined ? { seed } : {}),
      ...(body.title !== undefined ? { title: body.title } : {}),
      createdBy,
    });
    // The server holds the house seat, so no client can take it.
    await this.runtime.join(room.id, { seat: HOUSE, principal: HOUSE_PRINCIPAL });
    this.known.set(room.id, true);
    return this.summary(await this.table(room.id));
  }

  async list(status?: 'open' | 'closed'): Promise<TableSummary[]> {
    const rooms = await this.runtime.listRooms({
      protocol: POKER,
      limit: 200,
      ...(status ? { status } : {}),
    });
    const driven = await this.drivenSeats?.(rooms.map((r) => r.id));
    return Promise.all(rooms.map((r) => this.summary(r, driven?.get(r.id) ?? new Set())));
  }

  async view(roomId: string, viewer: Viewer = { kind: 'observer' }): Promise<TableView> {
    return (await this.runtime.stateFor(roomId, viewer)).view as TableView;
  }

  async summary(r: RoomInfo, driven?: ReadonlySet<string>): Promise<TableSummary> {
    const v = await this.view(r.id);
    const byDriver = driven ?? (await this.drivenSeats?.([r.id]))?.get(r.id);
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
      seats_filled: r.seats.filter((s) => s.id !== HOUSE && (s.held || byDriver?.has(s.id))).length,
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
}
