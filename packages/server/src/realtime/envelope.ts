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

/**
 * The same envelope around a payload that is already JSON text, so a message fanned out to many
 * sockets is not stringified again for each (same keys, same order as `envelope`).
 */
export function envelopeJson(
  type: ServerMessage['type'],
  roomId: string | null,
  seq: number,
  payloadJson: string,
  now: number,
): string {
  const head = JSON.stringify({ type, room_id: roomId, seq, ts: new Date(now).toISOString() });
  return `${head.slice(0, -1)},"payload":${payloadJson}}`;
}
