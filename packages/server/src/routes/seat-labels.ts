import type { RoomInfo } from '../runtime/types.ts';
import type { SeatLabel } from '../schemas/rest.ts';
import type { SeatLabeler } from './context.ts';

type Log = { warn(o: object, m: string): void };

/**
 * The first labels a module gives for the room's seats, kept to seats the room has. A labeler that
 * fails is logged and skipped: a name beside a seat is never worth failing the room's read for.
 */
export async function seatLabelsOf(
  labelers: readonly SeatLabeler[],
  room: RoomInfo,
  log: Log,
): Promise<Record<string, SeatLabel> | undefined> {
  for (const labeler of labelers) {
    const labels = await labeler(room).catch((err) => {
      log.warn({ err, roomId: room.id }, 'seat labels: a module failed to label the room');
      return null;
    });
    if (!labels) continue;
    const seats = new Set(room.seats.map((s) => s.id));
    return Object.fromEntries(Object.entries(labels).filter(([seat]) => seats.has(seat)));
  }
  return undefined;
}
