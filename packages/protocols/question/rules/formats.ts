import { Rfc3339Schema } from '@db8/core';
import { z } from 'zod';

/**
 * The formats of the swarm's identifiers and labels, checked at the edge (the gate every node runs,
 * before a message is published or folded). An id travels into NATS headers (`Nats-Msg-Id`), IRC
 * lines, Matrix aliases and log entries: a CR, LF or NUL in one broke a publish (500) or a line.
 * The rule is written as explicit ranges, not Unicode categories, so every node — whatever Unicode
 * version its engine has — decides alike.
 */

/** C0 controls (NUL, CR, LF…), DEL, C1 controls, and the Unicode line and paragraph separators. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
export const CONTROL_CHARS = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/;

const noControls = (s: string) => !CONTROL_CHARS.test(s);

/** An identifier (question, input, summary, node, federation, speaker): 1–200 characters, no controls. */
export const IdSchema = z
  .string()
  .min(1)
  .max(200)
  .refine(noControls, { message: 'an id may not hold control characters (CR, LF, NUL…)' });

/** A label (tag, model, language): 1–200 characters, no controls. */
export const LabelSchema = IdSchema;

const BASE58 = '[1-9A-HJ-NP-Za-km-z]+';
/** `participant:did:key:z…` — the participant path's signing key. */
export const PARTICIPANT_ID = new RegExp(`^participant:did:key:z${BASE58}$`);
/** `nym:did:key:z…` — the pseudonymous path's signing key. */
export const NYM_ID = new RegExp(`^nym:did:key:z${BASE58}$`);
/** A signer of a room input: a participant or a nym did:key. */
export const DID_KEY_ID = new RegExp(`^(participant|nym):did:key:z${BASE58}$`);

export const SignerIdSchema = z.string().regex(DID_KEY_ID).max(200);

/** A date-time field: the one strict RFC 3339 parser of @db8/core (leap seconds normalised). */
export const DateTimeSchema = Rfc3339Schema;
