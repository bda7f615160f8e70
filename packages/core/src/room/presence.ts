import { z } from 'zod';

/**
 * The platform's room events beside a protocol's own (seed 000, "Channels & Events"): who is
 * connected to a room and who is typing. Ephemeral — they come from live sockets, never from the
 * signed log — and the same for every viewer (seat ids are public; no principal is named).
 */

/** `presence`: the room's connected seats, each with when (unix seconds) its first socket came. */
export const PresenceEventSchema = z.object({
  t: z.literal('presence'),
  room_id: z.string(),
  who: z.array(z.object({ participant_id: z.string(), at: z.number().int() })),
  /** db8's addition: the seats whose typing signal has not expired (sorted). */
  typing: z.array(z.string()),
});
export type PresenceEvent = z.infer<typeof PresenceEventSchema>;

/** `typing`: a seat is editing a draft, until `until_unix` unless it signals again (cosmetic). */
export const TypingEventSchema = z.object({
  t: z.literal('typing'),
  room_id: z.string(),
  participant_id: z.string(),
  until_unix: z.number().int(),
});
export type TypingEvent = z.infer<typeof TypingEventSchema>;

/** Any room event on the wire: `t` names it; a protocol's schema (e.g. debate's) types the rest. */
export const RoomEventSchema = z.object({ t: z.string().min(1), room_id: z.string() }).loose();
export type RoomEvent = z.infer<typeof RoomEventSchema>;
