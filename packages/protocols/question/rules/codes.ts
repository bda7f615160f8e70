import { z } from 'zod';

/**
 * Why a swarm message was refused. One list for the ingest layer (envelope checks before anything
 * reaches a room) and the answer room (its `apply` rejections), so a server module, the CLI and
 * tests switch on the same codes.
 */
export const REFUSAL_CODES = [
  // Envelope / event layer
  'SCHEMA_INVALID',
  'OVERSIZED',
  'BAD_SIGNATURE',
  'UNSUPPORTED_ALG',
  'BAD_KEY',
  'UNTRUSTED_ISSUER',
  'ISSUER_NOT_COUNCIL',
  'CERT_NOT_YET_VALID',
  'CERT_EXPIRED',
  'NYM_MISMATCH',
  'REPLAYED',
  'CHANNEL_MISMATCH',
  'FROM_THE_FUTURE',
  'TOO_OLD',
  'TTL_TOO_LONG',
  'TTL_TOO_SHORT',
  'QUESTION_EXPIRED',
  // Answer room
  'WRONG_ROOM',
  'ROOM_CLOSED',
  'NOT_ADMITTED',
  'ALREADY_JOINED',
  'ROOM_FULL',
  'SUMMARY_TOO_SOON',
  'MODEL_REQUIRED',
  'MODEL_EXCLUDED',
  'REPUTATION_UNKNOWN',
  'REPUTATION_TOO_LOW',
  'LANGUAGE_MISMATCH',
  'NO_SHARED_TAG',
  'ORIGIN_NOT_ALLOWED',
  'SECRETARY_REQUIRED',
  'FOLLOW_UPS_DISABLED',
  'NOT_ASKER',
  'NOT_AUTHORISED',
  'SECRETARY_TAKEN',
  'ASKER_PRESENT',
  'UNKNOWN_MESSAGE',
  'UNKNOWN_SUMMARY',
  'AMBIGUOUS_ID',
  'OUT_OF_SCOPE',
  'UNVERIFIED_NODE',
  'NOT_ELECTED',
  'PROFILE_FORBIDDEN',
  'BAD_ACTION',
] as const;

export const RefusalCodeSchema = z.enum(REFUSAL_CODES);
export type RefusalCode = z.infer<typeof RefusalCodeSchema>;

/** A refusal: a stable code, a human message and, when useful, what the client needs to recover. */
export interface Refusal {
  code: RefusalCode;
  message: string;
  details?: Record<string, unknown>;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; error: Refusal };

export function refuse(
  code: RefusalCode,
  message: string,
  details?: Record<string, unknown>,
): {
  ok: false;
  error: Refusal;
} {
  return { ok: false, error: details ? { code, message, details } : { code, message } };
}
