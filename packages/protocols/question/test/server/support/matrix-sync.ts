// Part of the TEST DOUBLE in matrix-homeserver.ts (not a homeserver): its stored shapes, the sync
// filter subset it honours (rooms, not_rooms, types, not_types with `*`, senders, not_senders,
// limit) and the building of one /sync answer's `rooms.join`.
import { z } from 'zod';

export type Json = Record<string, unknown>;
export interface MxEvent {
  event_id: string;
  type: string;
  sender: string;
  content: Json;
  origin_server_ts: number;
  state_key?: string;
  redacts?: string;
  unsigned?: Json;
}
export interface Stored {
  pos: number;
  room: string;
  ev: MxEvent;
  /** The sending device and txn id: echoed as unsigned.transaction_id to that device only. */
  device?: string;
  txn?: string;
}
export interface Room {
  id: string;
  alias: string | null;
  creator: string;
  federate: boolean;
  state: Map<string, MxEvent>;
}
export interface Session {
  user: string;
  device: string;
}

const EventFilter = z.looseObject({
  limit: z.number().int().positive().optional(),
  types: z.array(z.string()).optional(),
  not_types: z.array(z.string()).optional(),
  senders: z.array(z.string()).optional(),
  not_senders: z.array(z.string()).optional(),
  rooms: z.array(z.string()).optional(),
  not_rooms: z.array(z.string()).optional(),
});
export const Filter = z.looseObject({
  room: z
    .looseObject({
      rooms: z.array(z.string()).optional(),
      not_rooms: z.array(z.string()).optional(),
      timeline: EventFilter.optional(),
      state: EventFilter.optional(),
    })
    .optional(),
});
export type FilterT = z.infer<typeof Filter>;
type EventFilterT = z.infer<typeof EventFilter>;

/** `*` matches any run of characters, as the spec's type filters do. */
const glob = (pattern: string, s: string) =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  ).test(s);
export function passes(f: EventFilterT | undefined, e: MxEvent, room: string): boolean {
  if (!f) return true;
  if (f.rooms && !f.rooms.includes(room)) return false;
  if (f.not_rooms?.includes(room)) return false;
  if (f.types && !f.types.some((t) => glob(t, e.type))) return false;
  if (f.not_types?.some((t) => glob(t, e.type))) return false;
  if (f.senders && !f.senders.includes(e.sender)) return false;
  if (f.not_senders?.includes(e.sender)) return false;
  return true;
}

export const isMember = (room: Room, user: string): boolean =>
  room.state.get(`m.room.member\u0000${user}`)?.content.membership === 'join';

export function collectSync(
  rooms: Iterable<Room>,
  log: readonly Stored[],
  s: Session,
  from: number,
  f: FilterT,
  initial: boolean,
): { any: boolean; join: Json } {
  const join: Json = {};
  let any = false;
  const rf = f.room;
  for (const room of rooms) {
    if (!isMember(room, s.user)) continue;
    if (rf?.rooms && !rf.rooms.includes(room.id)) continue;
    if (rf?.not_rooms?.includes(room.id)) continue;
    const all = log.filter((x) => x.room === room.id);
    const myJoin = [...all].reverse().find((x) => x.ev.type === 'm.room.member' && x.ev.state_key === s.user);
    // A room joined since `from` is sent whole (state + timeline), like an initial sync.
    const fresh = initial || (myJoin?.pos ?? 0) > from;
    const window = all.filter((x) => (fresh || x.pos > from) && passes(rf?.timeline, x.ev, room.id));
    const limit = rf?.timeline?.limit ?? 20;
    const events = window.slice(-limit);
    const limited = events.length < window.length;
    const start = events[0]?.pos ?? Number.POSITIVE_INFINITY;
    const state = fresh
      ? [
          ...new Map(
            all
              .filter((x) => x.pos < start && x.ev.state_key !== undefined)
              .map((x) => [`${x.ev.type}\u0000${x.ev.state_key}`, x]),
          ).values(),
        ]
          .filter((x) => passes(rf?.state, x.ev, room.id))
          .map((x) => x.ev)
      : [];
    if (!events.length && !state.length) continue;
    any = true;
    const mine = `${s.user}|${s.device}`;
    join[room.id] = {
      timeline: {
        events: events.map((x) => ({
          ...x.ev,
          unsigned: {
            ...(x.ev.unsigned ?? {}),
            age: Date.now() - x.ev.origin_server_ts,
            ...(x.device === mine && x.txn ? { transaction_id: x.txn } : {}),
          },
        })),
        limited,
        prev_batch: `s${Math.max(0, start - 1)}`,
      },
      state: { events: state },
      ephemeral: { events: [] },
      account_data: { events: [] },
      unread_notifications: { highlight_count: 0, notification_count: 0 },
      summary: {},
    };
  }
  return { any, join };
}
