import type { SqlDriver } from './driver.ts';
import {
  type NewRoom,
  parseRows,
  type RoomRow,
  RoomRowSchema,
  type RoomStatus,
  type SeatRow,
  SeatRowSchema,
} from './schemas.ts';

const ROOM_COLS =
  'id, protocol, protocol_version, config_json, title, created_by, created_at, updated_at, status, seed, head_seq, deadline_at, closed_at';
const SEAT_COLS = 'room_id, seat, role, ord, principal_id, joined_seq, joined_at';

export interface RoomListFilter {
  protocol?: string;
  status?: RoomStatus;
  limit?: number;
  /** Opaque cursor from a previous page (`createdAt:id` of its last room). */
  cursor?: string;
}

/** Rooms, their seats and their deadlines. */
export class RoomsRepo {
  constructor(private readonly db: SqlDriver) {}

  /** Inserts the room and its (empty) seats. */
  async create(room: NewRoom, seats: ReadonlyArray<{ seat: string; role: string }>): Promise<void> {
    await this.db.query(
      `INSERT INTO rooms (${ROOM_COLS}) VALUES ($1,$2,$3,$4,$5,$6,$7,$7,$8,$9,-1,$10,NULL)`,
      [
        room.id,
        room.protocol,
        room.protocolVersion,
        room.configJson,
        room.title,
        room.createdBy,
        room.createdAt,
        room.status ?? 'open',
        room.seed,
        room.deadlineAt,
      ],
    );
    if (seats.length > 0) {
      await this.db.query(
        `INSERT INTO seats (room_id, seat, role, ord)
         SELECT $1, s, r, o FROM unnest($2::text[], $3::text[], $4::int[]) AS t(s, r, o)`,
        [room.id, seats.map((s) => s.seat), seats.map((s) => s.role), seats.map((_, i) => i)],
      );
    }
  }

  async get(id: string): Promise<RoomRow | null> {
    const rows = await this.db.query(`SELECT ${ROOM_COLS} FROM rooms WHERE id = $1`, [id]);
    return parseRows(RoomRowSchema, rows)[0] ?? null;
  }

  /** Newest first, keyset-paginated. */
  async list(filter: RoomListFilter = {}): Promise<{ rooms: RoomRow[]; nextCursor: string | null }> {
    const limit = Math.min(Math.max(filter.limit ?? 50, 1), 500);
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.protocol) {
      params.push(filter.protocol);
      where.push(`protocol = $${params.length}`);
    }
    if (filter.status) {
      params.push(filter.status);
      where.push(`status = $${params.length}`);
    }
    if (filter.cursor) {
      const m = /^(\d+):(.+)$/.exec(filter.cursor);
      if (m) {
        params.push(Number(m[1]), m[2]);
        where.push(`(created_at, id) < ($${params.length - 1}, $${params.length})`);
      }
    }
    params.push(limit + 1);
    const sql = `SELECT ${ROOM_COLS} FROM rooms ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY created_at DESC, id DESC LIMIT $${params.length}`;
    const rooms = parseRows(RoomRowSchema, await this.db.query(sql, params));
    const more = rooms.length > limit;
    if (more) rooms.pop();
    const last = rooms[rooms.length - 1];
    return { rooms, nextCursor: more && last ? `${last.createdAt}:${last.id}` : null };
  }

  /** Records the head after an append: seq, next deadline, status. */
  async setHead(
    id: string,
    head: { headSeq: number; deadlineAt: number | null; status: RoomStatus; updatedAt: number },
  ): Promise<void> {
    await this.db.query(
      `UPDATE rooms SET head_seq = $2, deadline_at = $3, status = $4, updated_at = $5,
         closed_at = CASE WHEN $4 = 'closed' THEN COALESCE(closed_at, $5) ELSE NULL END
       WHERE id = $1`,
      [id, head.headSeq, head.deadlineAt, head.status, head.updatedAt],
    );
  }

  /**
   * History retention: deletes at most `limit` closed rooms of `protocol` closed at or before
   * `closedBefore`, with everything that names them (entries, snapshots, checkpoints and seats
   * cascade; drivers, budgets and invites by id), in one transaction. Returns the deleted ids.
   */
  async purgeClosed(protocol: string, closedBefore: number, limit = 500): Promise<string[]> {
    return this.db.tx(async (q) => {
      const rows = await q.query<{ id: string }>(
        `DELETE FROM rooms WHERE id IN (
           SELECT id FROM rooms WHERE protocol = $1 AND status = 'closed' AND closed_at IS NOT NULL
             AND closed_at <= $2 ORDER BY closed_at, id LIMIT $3)
         RETURNING id`,
        [protocol, closedBefore, Math.min(Math.max(limit, 1), 5000)],
      );
      const ids = rows.map((r) => r.id);
      if (ids.length > 0) {
        for (const table of ['room_drivers', 'driver_calls', 'room_driver_budgets', 'invites']) {
          await q.query(`DELETE FROM ${table} WHERE room_id = ANY($1::text[])`, [ids]);
        }
      }
      return ids;
    });
  }

  /** Open rooms whose deadline has passed, most overdue first. */
  async due(now: number, limit = 100): Promise<Array<{ id: string; deadlineAt: number }>> {
    const rows = await this.db.query<{ id: string; deadline_at: number }>(
      `SELECT id, deadline_at FROM rooms
       WHERE status = 'open' AND deadline_at IS NOT NULL AND deadline_at <= $1
       ORDER BY deadline_at, id LIMIT $2`,
      [now, limit],
    );
    return rows.map((r) => ({ id: r.id, deadlineAt: Number(r.deadline_at) }));
  }

  /**
   * Open rooms' next deadlines, earliest first, keyset-paginated after `after` (the deadline
   * scheduler reads these on start, so a restart loses no pending deadline).
   */
  async deadlines(
    after: { deadlineAt: number; id: string } | null,
    limit = 500,
  ): Promise<Array<{ id: string; deadlineAt: number }>> {
    const params: unknown[] = [];
    let where = `status = 'open' AND deadline_at IS NOT NULL`;
    if (after) {
      params.push(after.deadlineAt, after.id);
      where += ' AND (deadline_at, id) > ($1, $2)';
    }
    params.push(Math.min(Math.max(limit, 1), 5000));
    const rows = await this.db.query<{ id: string; deadline_at: number }>(
      `SELECT id, deadline_at FROM rooms WHERE ${where} ORDER BY deadline_at, id LIMIT $${params.length}`,
      params,
    );
    return rows.map((r) => ({ id: r.id, deadlineAt: Number(r.deadline_at) }));
  }

  async seats(roomId: string): Promise<SeatRow[]> {
    const rows = await this.db.query(`SELECT ${SEAT_COLS} FROM seats WHERE room_id = $1 ORDER BY ord`, [
      roomId,
    ]);
    return parseRows(SeatRowSchema, rows);
  }

  /** The head seq of each of several rooms (the realtime hub's backstop poll): one statement. */
  async heads(roomIds: readonly string[]): Promise<Map<string, number>> {
    if (roomIds.length === 0) return new Map();
    const rows = await this.db.query<{ id: string; head_seq: number }>(
      'SELECT id, head_seq FROM rooms WHERE id = ANY($1::text[])',
      [[...roomIds]],
    );
    return new Map(rows.map((r) => [r.id, Number(r.head_seq)]));
  }

  /** Seats of several rooms at once (room listings). */
  async seatsIn(roomIds: readonly string[]): Promise<SeatRow[]> {
    if (roomIds.length === 0) return [];
    const rows = await this.db.query(
      `SELECT ${SEAT_COLS} FROM seats WHERE room_id = ANY($1::text[]) ORDER BY room_id, ord`,
      [[...roomIds]],
    );
    return parseRows(SeatRowSchema, rows);
  }

  /**
   * Gives a free seat to a principal; false when the seat is taken or unknown. `from`: the seat
   * changes hands (a protocol's replacement of a holder), and only if `from` still holds it.
   */
  async takeSeat(
    roomId: string,
    seat: string,
    principalId: string,
    joinedSeq: number,
    joinedAt: number,
    from?: string,
  ) {
    const rows = await this.db.query(
      `UPDATE seats SET principal_id = $3, joined_seq = $4, joined_at = $5
       WHERE room_id = $1 AND seat = $2 AND principal_id IS NOT DISTINCT FROM $6 RETURNING seat`,
      [roomId, seat, principalId, joinedSeq, joinedAt, from ?? null],
    );
    return rows.length === 1;
  }

  /**
   * The one seat lookup rule (runtime, auth and access all use it): the seat a principal holds in a
   * room when it holds exactly one; null for none, or for several (a multiSeat protocol), where the
   * caller must name the seat rather than get whichever comes first.
   */
  async seatOf(principalId: string, roomId: string): Promise<string | null> {
    const held = await this.seatsOf(principalId, roomId);
    return held.length === 1 ? held[0]!.seat : null;
  }

  /** Seats a principal holds, across rooms or in one room. */
  async seatsOf(principalId: string, roomId?: string): Promise<SeatRow[]> {
    const rows = roomId
      ? await this.db.query(
          `SELECT ${SEAT_COLS} FROM seats WHERE principal_id = $1 AND room_id = $2 ORDER BY ord`,
          [principalId, roomId],
        )
      : await this.db.query(`SELECT ${SEAT_COLS} FROM seats WHERE principal_id = $1 ORDER BY room_id, ord`, [
          principalId,
        ]);
    return parseRows(SeatRowSchema, rows);
  }
}
