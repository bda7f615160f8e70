import type { Viewer } from '@db8/core';
import type { RoomInfo, StateFor } from '../runtime/types.ts';
import { PROTOCOL_VERSION } from '../schemas/common.ts';
import type { Ack, Room, SeatLabel, State } from '../schemas/rest.ts';

/** Runtime shapes -> wire shapes (snake_case, as the schemas in ../schemas say). */

/**
 * `driven`: seats a server driver plays — taken, though no client joined them. `labels`: who sits
 * where, as a module named them (routes/seat-labels.ts).
 */
export function roomToWire(
  r: RoomInfo,
  driven?: ReadonlySet<string>,
  labels?: Readonly<Record<string, SeatLabel>>,
): Room {
  return {
    room_id: r.id,
    protocol: r.protocol,
    title: r.title,
    status: r.status,
    seq: r.seq,
    created_at: r.createdAt,
    seats: r.seats.map((s) => {
      const byDriver = driven?.has(s.id) ?? false;
      const label = labels && Object.hasOwn(labels, s.id) ? labels[s.id] : undefined;
      return {
        seat: s.id,
        role: s.role,
        taken: s.held || byDriver,
        driven: byDriver,
        ...(label ? { label } : {}),
      };
    }),
    ...(r.config !== undefined ? { config: r.config as Room['config'] } : {}),
    protocol_version: r.protocolVersion,
    deadline_ms: r.deadlineUnix ?? null,
  };
}

export function viewerToWire(v: Viewer): State['viewer'] {
  return v.kind === 'seat' ? { kind: 'seat', seat: v.seat } : { kind: v.kind };
}

export function stateToWire(roomId: string, viewer: Viewer, s: StateFor): State {
  const deadlineMs = s.deadlineUnix;
  return {
    room_id: roomId,
    seq: s.seq,
    protocol: s.protocol,
    status: s.status,
    viewer: viewerToWire(viewer),
    view: s.view,
    legal: s.legal ? { actions: [...s.legal.actions] } : null,
    turn_token: s.legal?.turnToken ?? null,
    // Rounded up: a client counting down to this never acts after the server's deadline.
    deadline_unix: deadlineMs === null ? null : Math.ceil(deadlineMs / 1000),
    deadline_ms: deadlineMs,
    protocol_version: PROTOCOL_VERSION,
  };
}

export function ackToWire(roomId: string, a: { seq: number; duplicate: boolean; ts: number }): Ack {
  return { room_id: roomId, seq: a.seq, duplicate: a.duplicate, ts: a.ts };
}
