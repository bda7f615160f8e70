import type { Viewer } from '@db8/core';
import type { RoomRow, SeatRow } from '../store/schemas.ts';
import { protocolCall } from './ops.ts';
import type { FoldedRoom } from './room.ts';
import type { RoomInfo, StateFor } from './types.ts';

/** What `viewer` sees of a room: its view, its legal actions when seated, the deadline. */
export function stateOf(m: FoldedRoom, viewer: Viewer): StateFor {
  const p = m.protocol;
  const seated = viewer.kind === 'seat' && m.core.seats.some((s) => s.id === viewer.seat);
  return {
    seq: m.seq,
    view: protocolCall('view', () => p.view(m.state, viewer)),
    ...(seated ? { legal: protocolCall('legal', () => p.legal(m.state, viewer.seat)) } : {}),
    deadlineUnix: m.closed ? null : protocolCall('deadline', () => p.deadline(m.state)),
    status: m.closed ? 'closed' : 'open',
    protocol: p.name,
  };
}

export function toRoomInfo(row: RoomRow, seats: SeatRow[]): RoomInfo {
  return {
    id: row.id,
    protocol: row.protocol,
    protocolVersion: row.protocolVersion,
    title: row.title,
    status: row.status,
    createdAt: row.createdAt,
    createdBy: row.createdBy,
    seq: row.headSeq,
    deadlineUnix: row.status === 'open' ? row.deadlineAt : null,
    seats: seats.map((s) => ({ id: s.seat, role: s.role, held: s.principalId !== null })),
    config: JSON.parse(row.configJson),
  };
}

/** Cursor for listRooms after `room` (newest-first keyset). */
export function roomCursor(room: Pick<RoomInfo, 'createdAt' | 'id'>): string {
  return `${room.createdAt}:${room.id}`;
}
