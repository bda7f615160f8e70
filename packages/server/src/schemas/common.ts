import { z } from 'zod';

/**
 * Wire protocol version (seed 002 §6.2). Clients send `client_protocol_version`; anything below the
 * minimum gets OUTDATED_CLIENT with where to read the current skill doc.
 */
export const PROTOCOL_VERSION = '0.1';
export const MIN_SUPPORTED_PROTOCOL_VERSION = '0.1';

export const ProtocolVersionSchema = z
  .string()
  .max(32)
  .regex(/^\d{1,6}(\.\d{1,6}){0,2}$/, 'expected a version like 0.1 or 1.2.3');

/** Compare dotted numeric versions; missing parts count as 0. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

/** True when a client speaking `v` is still served. */
export function isSupportedVersion(v: string): boolean {
  return compareVersions(v, MIN_SUPPORTED_PROTOCOL_VERSION) >= 0;
}

/** Ids travel in URLs, NATS subjects and SSH principals: keep them to a safe alphabet. */
export const IdSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_-]+$/, 'expected letters, digits, _ or -');
export const RoomIdSchema = IdSchema.describe('room id');
export const SeatIdSchema = IdSchema.describe('seat id');

/** Every error body the server sends (REST and WS `error` payloads share it). */
export const ErrorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.unknown().optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** Stable error codes the server itself raises (the runtime and protocols add their own). */
export const ERROR_CODES = [
  'BAD_REQUEST',
  'VALIDATION_FAILED',
  'INVALID_JSON',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'UNAUTHORIZED',
  'INVALID_TOKEN',
  'TOKEN_EXPIRED',
  'SESSION_REVOKED',
  'SESSION_TOO_OLD',
  'INVITE_EXPIRED',
  'INVITE_USED_UP',
  'SEAT_RESERVED',
  'SEAT_PRIVILEGED',
  'SEAT_DRIVEN',
  'FORBIDDEN',
  'NOT_FOUND',
  'ROOM_NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'CONFLICT',
  'RATE_LIMITED',
  'OUTDATED_CLIENT',
  'HELLO_REQUIRED',
  'HELLO_TIMEOUT',
  'STALE_SEQ',
  'SEAT_NOT_HELD',
  'NONCE_INVALID',
  'SIGNATURE_INVALID',
  'NOT_READY',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const RoleSchema = z.enum(['admin', 'agent', 'person']);
export type Role = z.infer<typeof RoleSchema>;

/** ISO 8601 timestamps in auth responses (humans read them); log timestamps stay unix ms. */
export const IsoTimeSchema = z.string().describe('ISO 8601 time');
