import { canonicalBytes, concatBytes, ed25519, fromBase64Url, toBase64Url, utf8Encode } from '@db8/core';
import { type Checked, refuse } from './codes.ts';

/**
 * Signature domains, one per event type (docs/swarm.md "Signatures"). A signature is Ed25519 over
 * `utf8(domain) ‖ 0x00 ‖ JCS(object without "signature" and "auth/nym-signature")`, so a signature
 * made for one event type never verifies as another, even over the same fields.
 */
export const SIGNATURE_DOMAINS = {
  question: 'db8/swarm/question/v1',
  summary: 'db8/swarm/question-summary/v1',
  close: 'db8/swarm/question-close/v1',
  room: 'db8/swarm/room-input/v1',
  nymCertificate: 'db8/swarm/nym-certificate/v1',
} as const;
export type SignatureDomain = (typeof SIGNATURE_DOMAINS)[keyof typeof SIGNATURE_DOMAINS];

/** The signature containers an object may carry; all are outside the signed bytes. */
/** `gateway/signature` is the relaying node's countersignature over the signed input (`federation.ts`). */
export const SIGNATURE_FIELDS = ['signature', 'auth/nym-signature', 'gateway/signature'] as const;
/**
 * Outside the signed bytes too: `gateway/record`, what the relaying node attests of a responder
 * (a join's record, docs/swarm.md "Reputation"), covered by the node's countersignature only.
 */
const UNSIGNED_FIELDS: readonly string[] = [...SIGNATURE_FIELDS, 'gateway/record'];
export type SignatureField = (typeof SIGNATURE_FIELDS)[number];

export const SIGNATURE_PREFIX = 'base64url:';

/** The exact bytes a signature covers. Throws a JsonError if the object is not canonical JSON. */
export function signingBytes(domain: SignatureDomain, obj: Record<string, unknown>): Uint8Array {
  const body: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (!UNSIGNED_FIELDS.includes(k)) body[k] = v;
  }
  return concatBytes(utf8Encode(domain), Uint8Array.of(0), canonicalBytes(body));
}

/** A copy of `obj` with `field` set to an Ed25519 signature by `seed` in `domain`. */
export function signObject<T extends Record<string, unknown>>(
  obj: T,
  domain: SignatureDomain,
  seed: Uint8Array,
  field: SignatureField = 'signature',
): T {
  const sig = ed25519.sign(seed, signingBytes(domain, obj));
  return { ...obj, [field]: { alg: 'ed25519', value: SIGNATURE_PREFIX + toBase64Url(sig) } };
}

/** Check `obj[field]` against `publicKey`; placeholders and malformed values are BAD_SIGNATURE. */
export function checkSignature(
  obj: Record<string, unknown>,
  domain: SignatureDomain,
  publicKey: Uint8Array,
  field: SignatureField = 'signature',
): Checked<null> {
  const sig = obj[field] as { alg?: unknown; value?: unknown } | undefined;
  if (!sig || typeof sig !== 'object') return refuse('BAD_SIGNATURE', `no ${field}`);
  if (sig.alg !== 'ed25519') return refuse('UNSUPPORTED_ALG', `${field}.alg must be ed25519`);
  const value = typeof sig.value === 'string' ? sig.value : '';
  if (!value.startsWith(SIGNATURE_PREFIX)) {
    return refuse('BAD_SIGNATURE', `${field}.value must start with "${SIGNATURE_PREFIX}"`);
  }
  let raw: Uint8Array;
  let bytes: Uint8Array;
  try {
    raw = fromBase64Url(value.slice(SIGNATURE_PREFIX.length));
    bytes = signingBytes(domain, obj);
  } catch {
    return refuse('BAD_SIGNATURE', `${field} is not base64url or the body is not canonical JSON`);
  }
  if (raw.length !== ed25519.ED25519_SIGNATURE_LENGTH || !ed25519.verify(publicKey, bytes, raw)) {
    return refuse('BAD_SIGNATURE', `${field} does not verify`);
  }
  return { ok: true, value: null };
}
