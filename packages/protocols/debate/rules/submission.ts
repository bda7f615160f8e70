import { canonicalBytes, canonicalize, fromBase64, sha256Hex, utf8Decode } from '@db8/core';
import { z } from 'zod';
import { SeatIdSchema } from './config.ts';

/**
 * The submission wire contract (seed §3 and §5 `SubmissionIn`). Ids are db8 strings rather than
 * the seed's uuids: `author_id` is the debater's seat (`anon_3`), `round_id` is the id the
 * protocol hands out in `legal()`, `room_id` is the server's room id. The hard caps here are the
 * seed's; a room may be stricter (config `caps`), which `apply` checks.
 */

export const SupportSchema = z
  .object({
    kind: z.enum(['citation', 'logic', 'data']),
    ref: z.string().max(2000),
  })
  .strict();

export const ClaimSchema = z
  .object({
    id: z.string().min(1).max(64),
    text: z.string().min(3).max(1000),
    support: z.array(SupportSchema).min(1).max(10),
    /** The author's confidence that the claim holds, in percent; feeds the calibration bonus. */
    confidence: z.number().int().min(0).max(100).optional(),
  })
  .strict();
export type Claim = z.infer<typeof ClaimSchema>;

export const CitationSchema = z
  .object({
    url: z.url({ protocol: /^https?$/ }).max(2000),
    title: z.string().max(300).optional(),
    /**
     * The words quoted from the source: a fact-checker can check them against the room's cached
     * snapshot of `url` (docs/debate.md, "Research").
     */
    quote: z.string().min(1).max(1000).optional(),
  })
  .strict();
export type Citation = z.infer<typeof CitationSchema>;

/**
 * A concession names a claim published in an earlier round: another debater's (conceding it is
 * right) or the author's own (withdrawing it). Scored against the fact-check (docs/debate.md).
 */
export const ConcessionSchema = z
  .object({
    round: z.number().int().min(1).max(21),
    author: SeatIdSchema,
    claim_id: z.string().min(1).max(64),
    note: z.string().max(500).optional(),
  })
  .strict();
export type Concession = z.infer<typeof ConcessionSchema>;

export const RoundLabelSchema = z.enum(['OPENING', 'ARGUMENT', 'FINAL']);
export type RoundLabel = z.infer<typeof RoundLabelSchema>;

/** The fields that are signed and hashed, in the shape the seed's §2 canonical payload has. */
export const CanonicalPayloadSchema = z
  .object({
    room_id: z.string().min(1).max(200),
    round_id: z.string().min(1).max(200),
    author_id: SeatIdSchema,
    phase: RoundLabelSchema,
    deadline_unix: z.number().int().nonnegative(),
    content: z.string().min(1).max(4000),
    claims: z.array(ClaimSchema).min(1).max(5),
    citations: z.array(CitationSchema).min(2).max(50),
    concessions: z.array(ConcessionSchema).max(10).optional(),
  })
  .strict();
export type CanonicalPayload = z.infer<typeof CanonicalPayloadSchema>;

export const SubmitActionSchema = CanonicalPayloadSchema.extend({
  type: z.literal('submit'),
  /** Idempotency key: the same nonce with the same payload is a duplicate, never a new version. */
  client_nonce: z.string().min(1).max(128),
  signature_kind: z.enum(['ssh', 'ed25519']).optional(),
  /** ssh: base64 of the armored SSHSIG file; ed25519: base64 of the 64-byte signature. */
  signature_b64: z.string().min(1).max(8000).optional(),
  /** Optional `SHA256:…` fingerprint of the signing key; checked when given. */
  signer_fingerprint: z.string().min(1).max(200).optional(),
  /**
   * The exact bytes the signature covers, base64, when the client signed another rendering of the
   * payload than the canonical one (seed 000's CLI signs `jq -S .` output): they must parse to the
   * same payload, and the canonical form is still what is hashed and stored.
   */
  signed_b64: z.string().min(1).max(24_000).optional(),
  // The legal `submit` entry's hints, accepted so that the entry itself can be sent with the
  // content added: never signed, hashed or scored (canonicalPayload leaves them out).
  version: z.number().int().optional(),
  content_max: z.number().int().optional(),
  claims_max: z.number().int().optional(),
  citations_min: z.number().int().optional(),
  signatures: z.enum(['optional', 'required']).optional(),
}).strict();
export type SubmitAction = z.infer<typeof SubmitActionSchema>;

/** Drafts are loose (work in progress) but bounded; they are never published. */
export const DraftActionSchema = z
  .object({
    type: z.literal('draft'),
    content: z.string().max(4000),
    claims: z.array(ClaimSchema.partial()).max(5).default([]),
    citations: z
      .array(
        z.object({
          url: z.string().max(2000),
          title: z.string().max(300).optional(),
          quote: z.string().max(1000).optional(),
        }),
      )
      .max(50)
      .default([]),
  })
  .strict();
export type DraftAction = z.infer<typeof DraftActionSchema>;

/**
 * The canonical payload of a submit action: the action minus `type`, `client_nonce` and the
 * signature fields. Optional members are included exactly when the client sent them, so the
 * client signs precisely what it sent.
 */
export function canonicalPayload(action: SubmitAction | CanonicalPayload): CanonicalPayload {
  const p: CanonicalPayload = {
    room_id: action.room_id,
    round_id: action.round_id,
    author_id: action.author_id,
    phase: action.phase,
    deadline_unix: action.deadline_unix,
    content: action.content,
    claims: action.claims,
    citations: action.citations,
  };
  if (action.concessions !== undefined) p.concessions = action.concessions;
  return p;
}

/** The exact bytes that are hashed and signed (RFC 8785 canonical JSON, UTF-8). */
export function submissionBytes(action: SubmitAction | CanonicalPayload): Uint8Array {
  return canonicalBytes(canonicalPayload(action));
}

/** The canonical text, for `ssh-keygen -Y sign` users who want to see what they sign. */
export function submissionText(action: SubmitAction | CanonicalPayload): string {
  return canonicalize(canonicalPayload(action));
}

/** `canonical_sha256`: sha256 over the canonical bytes, lowercase hex. */
export function submissionSha256(action: SubmitAction | CanonicalPayload): string {
  return sha256Hex(submissionBytes(action));
}

/**
 * The bytes a submit action's signature covers: `signed_b64` when given (after checking that it
 * parses to the same payload: a signature over other content never passes as this one's), else
 * the canonical bytes.
 */
export function signedBytes(
  action: SubmitAction,
  canonical: Uint8Array,
): { ok: true; bytes: Uint8Array } | { ok: false; reason: string } {
  if (action.signed_b64 === undefined) return { ok: true, bytes: canonical };
  if (action.signature_kind === undefined)
    return { ok: false, reason: 'signed_b64 given without a signature' };
  let bytes: Uint8Array;
  let parsed: unknown;
  try {
    bytes = fromBase64(action.signed_b64);
    parsed = JSON.parse(utf8Decode(bytes));
  } catch {
    return { ok: false, reason: 'signed_b64 is not base64 of a JSON document' };
  }
  const same = CanonicalPayloadSchema.safeParse(parsed);
  if (!same.success || canonicalize(same.data) !== canonicalize(canonicalPayload(action))) {
    return { ok: false, reason: 'the signed bytes (signed_b64) are not this payload' };
  }
  return { ok: true, bytes };
}
