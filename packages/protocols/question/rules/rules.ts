import { parseRfc3339 } from '@db8/core';
import { type Refusal, refuse } from './codes.ts';
import { CONTROL_CHARS, NYM_ID, PARTICIPANT_ID } from './formats.ts';
import type { QuestionEnvelope } from './upstream.ts';

/**
 * db8's rules for a schema-valid question envelope, beyond the upstream schema (which only says
 * "a non-empty string" for ids and "date-time" for times). Run by the gate (`admitQuestion`, on
 * REST and on every node's fold) and by the room's config check, so what the gate admits is what
 * a room opens from, and an envelope that would break a room is refused before it is published.
 */

/** The longest TTL any room accepts (a federation's `maxTtlSec` is lower; the stream keeps it). */
export const MAX_TTL_SEC_CAP = 31_536_000;

const IDS = ['question/id', 'sender/node-id', 'sender/federation-id', 'delivery/response-channel-id'];
const LABEL_LISTS = ['question/tags', 'models/require', 'models/exclude', 'languages'];
const TIMES_OF_CERT = ['issued-at', 'expires-at', 'leniency-until'];

const bad = (path: string, message: string) =>
  refuse('SCHEMA_INVALID', `${path}: ${message}`, { issues: [{ path, message }] }).error;

function idRefusal(path: string, v: unknown, max = 200): Refusal | null {
  if (v === undefined) return null;
  if (typeof v !== 'string' || v.length === 0 || [...v].length > max) {
    return bad(path, `must be 1–${max} characters`);
  }
  return CONTROL_CHARS.test(v) ? bad(path, 'may not hold control characters (CR, LF, NUL…)') : null;
}

/** Why a schema-valid envelope breaks db8's rules, or null. Pure; no clock. */
export function envelopeRulesRefusal(env: QuestionEnvelope): Refusal | null {
  for (const k of IDS) {
    const why = idRefusal(k, env[k]);
    if (why) return why;
  }
  for (const k of LABEL_LISTS) {
    const list = env[k];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.length > 50) return bad(k, 'at most 50 labels');
    for (const [i, v] of list.entries()) {
      const why = idRefusal(`${k}/${i}`, v);
      if (why) return why;
    }
  }
  const participant = env['sender/participant-id'];
  if (participant !== undefined && !(typeof participant === 'string' && PARTICIPANT_ID.test(participant))) {
    return bad('sender/participant-id', 'must be participant:did:key:z… (an Ed25519 did:key)');
  }
  const nym = env['author/nym'];
  if (nym !== undefined && !(typeof nym === 'string' && NYM_ID.test(nym))) {
    return bad('author/nym', 'must be nym:did:key:z…');
  }
  if (parseRfc3339(env['created-at']) === null) return bad('created-at', 'not an RFC 3339 date-time');
  const cert = env['auth/nym-certificate'];
  if (cert && typeof cert === 'object') {
    for (const k of TIMES_OF_CERT) {
      const v = (cert as Record<string, unknown>)[k];
      if (v !== undefined && parseRfc3339(v) === null) {
        return bad(`auth/nym-certificate/${k}`, 'not an RFC 3339 date-time');
      }
    }
  }
  const ttl = env['ttl-sec'];
  if (typeof ttl === 'number' && ttl > MAX_TTL_SEC_CAP) {
    return refuse('TTL_TOO_LONG', `ttl-sec ${ttl} > ${MAX_TTL_SEC_CAP}`, { max: MAX_TTL_SEC_CAP }).error;
  }
  if (!Number.isSafeInteger(ttl) || (ttl as number) < 1) {
    return bad('ttl-sec', 'must be a whole number of seconds ≥ 1');
  }
  if (env['delivery/scope'] === 'global' && env['room-policy/profile'] === 'direct-live-allowed') {
    return refuse('PROFILE_FORBIDDEN', 'a global room may not be direct-live-allowed').error;
  }
  return null;
}
