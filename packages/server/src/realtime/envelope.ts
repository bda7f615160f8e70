import type { ServerMessage } from '../schemas/ws.ts';

/** `{type, room_id, seq, ts, payload, id?}` (seed 002 §8.1). */
export function envelope(
  type: ServerMessage['type'],
  roomId: string | null,
  seq: number,
  payload: unknown,
  now: number,
  id?: string,
): string {
  const msg: Record<string, unknown> = { type, room_id: roomId, seq, ts: new Date(now).toISOString() };
  if (id !== undefined) msg.id = id;
  msg.payload = payload;
  return JSON.stringify(msg);
}
