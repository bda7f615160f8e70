import { canonicalBytes } from '@db8/core';
import { type Checked, refuse } from './codes.ts';
import { inputIdOf, type RoomInput, RoomInputSchema } from './inputs.ts';
import { toFlat } from './normalize.ts';
import { type QuestionEnvelope, validateQuestionEnvelope } from './upstream.ts';
import { type AuthorPath, type NymTrust, verifyQuestionEnvelope, verifyRoomInput } from './verify.ts';

/**
 * The envelope layer's gate: what a node runs on every message from the bus before anything reaches
 * a room. Order: size, shape (nested → flat), schema, channel binding, signatures, time, replay.
 * Time (`now`) and the replay memory (`seen`) are the caller's: this stays pure.
 */

export const DEFAULT_MAX_ENVELOPE_BYTES = 64 * 1024;
/** How far ahead of the receiver's clock a `created-at` may be. */
export const DEFAULT_CLOCK_SKEW_MS = 5 * 60_000;

export interface IngestOptions {
  now: number;
  trust: NymTrust;
  maxBytes?: number;
  skewMs?: number;
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

function timely(createdAt: string, opts: IngestOptions): Checked<null> {
  if (Date.parse(createdAt) > opts.now + (opts.skewMs ?? DEFAULT_CLOCK_SKEW_MS)) {
    return refuse('FROM_THE_FUTURE', `created-at ${createdAt} is ahead of this node's clock`);
  }
  return { ok: true, value: null };
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
  const author = verifyQuestionEnvelope(env, opts.trust);
  if (!author.ok) return author;
  const t = timely(env['created-at'], opts);
  if (!t.ok) return t;
  if (opts.now >= Date.parse(env['created-at']) + env['ttl-sec'] * 1000) {
    return refuse('QUESTION_EXPIRED', 'the question is past created-at + ttl-sec');
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
