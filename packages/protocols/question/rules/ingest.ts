import { canonicalBytes, parseRfc3339 } from '@db8/core';
import { type Checked, refuse } from './codes.ts';
import { inputIdOf, type RoomInput, RoomInputSchema } from './inputs.ts';
import { toFlat } from './normalize.ts';
import { envelopeRulesRefusal } from './rules.ts';
import { type QuestionEnvelope, validateQuestionEnvelope } from './upstream.ts';
import {
  type AuthorPath,
  certUnexpiredAt,
  type NymTrust,
  verifyQuestionEnvelope,
  verifyRoomInput,
} from './verify.ts';

/**
 * The envelope layer's gate: what a node runs on every message from the bus before anything reaches
 * a room. Order: size, shape (nested → flat), schema, channel binding, signatures, time, replay.
 * Time (`now`) and the replay memory (`seen`) are the caller's: this stays pure.
 */

export const DEFAULT_MAX_ENVELOPE_BYTES = 64 * 1024;
/** How far ahead of the receiver's clock a `created-at` may be. */
export const DEFAULT_CLOCK_SKEW_MS = 5 * 60_000;
/**
 * The longest a question may stay open (and how old a message may be): the stream must still hold
 * a question until its deadline, or a node that starts later never sees it and refuses its inputs.
 * A federation sets it (`maxTtlSec`), at most its stream's retention; 7 days by default.
 */
export const DEFAULT_MAX_TTL_SEC = 604_800;

export interface IngestOptions {
  now: number;
  trust: NymTrust;
  maxBytes?: number;
  skewMs?: number;
  /** The federation's TTL limit, seconds (DEFAULT_MAX_TTL_SEC): TTL_TOO_LONG and TOO_OLD. */
  maxTtlSec?: number;
  /** The federation's shortest TTL, seconds (default 1: upstream's own minimum): TTL_TOO_SHORT. */
  minTtlSec?: number;
  /** True when this event id was already ingested (the stream's dedup window or the store). */
  seen?: (eventId: string) => boolean;
}

function size(value: unknown): Checked<number> {
  try {
    return { ok: true, value: canonicalBytes(value).length };
  } catch (e) {
    return refuse('SCHEMA_INVALID', `not canonical JSON: ${(e as Error).message}`);
  }
}

function gate(value: unknown, opts: IngestOptions): Checked<null> {
  const n = size(value);
  if (!n.ok) return n;
  const max = opts.maxBytes ?? DEFAULT_MAX_ENVELOPE_BYTES;
  if (n.value > max) return refuse('OVERSIZED', `${n.value} bytes > ${max}`, { bytes: n.value, max });
  return { ok: true, value: null };
}

/** `created-at` within [now − max TTL, now + skew] (the receiver's instant: the stream's time). */
function timely(createdAt: string, opts: IngestOptions): Checked<number> {
  const at = parseRfc3339(createdAt);
  if (at === null) return refuse('SCHEMA_INVALID', `created-at ${createdAt} is not an RFC 3339 date-time`);
  if (at > opts.now + (opts.skewMs ?? DEFAULT_CLOCK_SKEW_MS)) {
    return refuse('FROM_THE_FUTURE', `created-at ${createdAt} is ahead of this node's clock`);
  }
  const maxAgeMs = (opts.maxTtlSec ?? DEFAULT_MAX_TTL_SEC) * 1000;
  if (at < opts.now - maxAgeMs) {
    return refuse('TOO_OLD', `created-at ${createdAt} is older than the federation's ${maxAgeMs / 1000} s`, {
      maxAgeSec: maxAgeMs / 1000,
    });
  }
  return { ok: true, value: at };
}

export type AdmittedQuestion = { envelope: QuestionEnvelope; author: AuthorPath; eventId: string };

/** Admit a `swarm/question` (flat, or the proposal's nested shape). */
export function admitQuestion(value: unknown, opts: IngestOptions): Checked<AdmittedQuestion> {
  const g = gate(value, opts);
  if (!g.ok) return g;
  const schema = validateQuestionEnvelope(toFlat(value));
  if (!schema.ok) return schema;
  const env = schema.value;
  if (env['delivery/response-channel-id'] !== env['question/id']) {
    return refuse('CHANNEL_MISMATCH', 'delivery/response-channel-id must equal question/id');
  }
  const rules = envelopeRulesRefusal(env);
  if (rules) return { ok: false, error: rules };
  const author = verifyQuestionEnvelope(env, opts.trust);
  if (!author.ok) return author;
  if (author.value.path === 'nym') {
    const cert = env['auth/nym-certificate'] as Record<string, unknown>;
    const stillValid = certUnexpiredAt(cert, opts.now, opts.trust, 'receipt');
    if (!stillValid.ok) return stillValid;
  }
  const createdAt = parseRfc3339(env['created-at']) as number; // the rules checked it
  if (createdAt > opts.now + (opts.skewMs ?? DEFAULT_CLOCK_SKEW_MS)) {
    return refuse('FROM_THE_FUTURE', `created-at ${env['created-at']} is ahead of this node's clock`);
  }
  const deadline = createdAt + env['ttl-sec'] * 1000;
  if (opts.now >= deadline) return refuse('QUESTION_EXPIRED', 'the question is past created-at + ttl-sec');
  const minTtlSec = opts.minTtlSec ?? 1;
  if (env['ttl-sec'] < minTtlSec) {
    return refuse('TTL_TOO_SHORT', `ttl-sec ${env['ttl-sec']} < this federation's ${minTtlSec} s`, {
      minTtlSec,
    });
  }
  const maxTtlSec = opts.maxTtlSec ?? DEFAULT_MAX_TTL_SEC;
  if (env['ttl-sec'] > maxTtlSec || deadline > opts.now + maxTtlSec * 1000) {
    return refuse('TTL_TOO_LONG', `the question would stay open past this federation's ${maxTtlSec} s`, {
      maxTtlSec,
    });
  }
  if (opts.seen?.(env['question/id'])) return refuse('REPLAYED', `question ${env['question/id']} was seen`);
  return { ok: true, value: { envelope: env, author: author.value, eventId: env['question/id'] } };
}

/** Admit a summary, close or room input (signature and replay; the room judges the rest). */
export function admitRoomInput(value: unknown, opts: IngestOptions): Checked<RoomInput> {
  const g = gate(value, opts);
  if (!g.ok) return g;
  const parsed = RoomInputSchema.safeParse(toFlat(value));
  if (!parsed.success) {
    return refuse('SCHEMA_INVALID', 'not a valid room input', { issues: parsed.error.issues.slice(0, 10) });
  }
  const sig = verifyRoomInput(parsed.data);
  if (!sig.ok) return sig;
  const t = timely(parsed.data['created-at'], opts);
  if (!t.ok) return t;
  const id = inputIdOf(parsed.data);
  if (opts.seen?.(id)) return refuse('REPLAYED', `input ${id} was seen`);
  return { ok: true, value: parsed.data };
}
