import { createHash } from 'node:crypto';

/**
 * Deterministic UUIDs (RFC 9562 version 8, name-based over SHA-256): the same room log always
 * projects to the same row ids, so a projection is an idempotent upsert and a rebuild reproduces
 * every row, foreign keys included.
 */
export function stableUuid(...parts: readonly (string | number)[]): string {
  const h = createHash('sha256')
    .update(`db8/deliberation\0${parts.join('\0')}`)
    .digest();
  h[6] = (h[6]! & 0x0f) | 0x80; // version 8
  h[8] = (h[8]! & 0x3f) | 0x80; // variant 10
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

export const sessionUuid = (roomId: string) => stableUuid('session', roomId);
/** A tick may record several failed turns under one seq: the seat keeps them apart. */
export const turnUuid = (roomId: string, seq: number, seat: string) => stableUuid('turn', roomId, seq, seat);
export const versionUuid = (roomId: string, version: number) => stableUuid('version', roomId, version);
