import { parseRfc3339 } from '@db8/core';
import { type Checked, refuse } from './codes.ts';
import { publicKeyFromDidKey } from './didkey.ts';
import { type RoomInput, signerOf } from './inputs.ts';
import { checkSignature, SIGNATURE_DOMAINS, type SignatureDomain } from './signing.ts';
import { COUNCIL_ID, type QuestionEnvelope } from './upstream.ts';

/**
 * Signature checks for schema-valid objects. Schema validity says nothing about signatures (the
 * upstream examples carry placeholders); these say whether the named key really signed.
 */

/** The federation's nym policy: which councils may issue nym certificates, and leniency. */
export interface NymTrust {
  /** `issuer/id` values whose did:key may sign nym certificates. */
  issuers: readonly string[];
  /**
   * Accept a certificate past `expires-at` but before `leniency-until` (upstream: "grace semantics
   * for continuity work"). Off by default: ordinary questions need a certificate in its validity.
   */
  allowLeniency?: boolean;
}

export type AuthorPath = { path: 'participant' | 'nym'; signer: string };

type Obj = Record<string, unknown>;

function keyOf(id: unknown, what: string): Checked<Uint8Array> {
  const key = typeof id === 'string' ? publicKeyFromDidKey(id) : null;
  return key ? { ok: true, value: key } : refuse('BAD_KEY', `${what} does not name an Ed25519 did:key`);
}

function verifyWith(
  obj: Obj,
  domain: SignatureDomain,
  id: unknown,
  what: string,
  field?: 'auth/nym-signature',
) {
  const key = keyOf(id, what);
  return key.ok ? checkSignature(obj, domain, key.value, field) : key;
}

/**
 * The nym certificate's checks, at the envelope's `created-at`: a trusted issuer, the issuer's
 * signature, the nym it certifies, and its validity window (with leniency only when allowed).
 */
export function verifyNymCertificate(cert: Obj, nym: unknown, at: number, trust: NymTrust): Checked<null> {
  const issuer = cert['issuer/id'];
  if (typeof issuer !== 'string' || !COUNCIL_ID.test(issuer)) {
    return refuse('ISSUER_NOT_COUNCIL', `nym certificate issuer ${String(issuer)} is not a council:did:key`);
  }
  if (typeof issuer !== 'string' || !trust.issuers.includes(issuer)) {
    return refuse('UNTRUSTED_ISSUER', `nym certificate issuer ${String(issuer)} is not trusted`);
  }
  const signed = verifyWith(cert, SIGNATURE_DOMAINS.nymCertificate, issuer, 'issuer/id');
  if (!signed.ok) return signed;
  if (cert['nym/id'] !== nym) return refuse('NYM_MISMATCH', 'the certificate is for another nym');
  const issued = parseRfc3339(cert['issued-at']);
  if (issued === null) return refuse('SCHEMA_INVALID', 'the certificate has no RFC 3339 issued-at');
  if (!(at >= issued)) return refuse('CERT_NOT_YET_VALID', 'the envelope predates its nym certificate');
  return certUnexpiredAt(cert, at, trust, 'the envelope');
}

/**
 * The certificate's end at instant `at` (the envelope's `created-at`, and again at receipt: a
 * backdated envelope must not carry a certificate that had expired before it arrived).
 */
export function certUnexpiredAt(
  cert: Obj,
  at: number,
  trust: NymTrust,
  what = 'the envelope',
): Checked<null> {
  const expires = parseRfc3339(cert['expires-at']);
  const leniency = parseRfc3339(cert['leniency-until']);
  if (expires === null || leniency === null) {
    return refuse('SCHEMA_INVALID', 'the certificate has no RFC 3339 expires-at or leniency-until');
  }
  // Written as "not within", so a value that is no number at all is refused, never let through.
  if (!(at <= leniency)) {
    return refuse('CERT_EXPIRED', `the nym certificate line is dead (past leniency-until) at ${what}`);
  }
  if (!(at <= expires) && !trust.allowLeniency) {
    return refuse('CERT_EXPIRED', `the nym certificate has expired at ${what} (leniency not accepted here)`, {
      inLeniency: true,
    });
  }
  return { ok: true, value: null };
}

/** Who authored a schema-valid envelope, once its signatures verify (participant path or nym path). */
export function verifyQuestionEnvelope(env: QuestionEnvelope, trust: NymTrust): Checked<AuthorPath> {
  const domain = SIGNATURE_DOMAINS.question;
  if (typeof env['author/nym'] === 'string') {
    const cert = env['auth/nym-certificate'] as Obj;
    const at = parseRfc3339(env['created-at']);
    if (at === null) return refuse('SCHEMA_INVALID', 'created-at is not an RFC 3339 date-time');
    const certOk = verifyNymCertificate(cert, env['author/nym'], at, trust);
    if (!certOk.ok) return certOk;
    const sig = verifyWith(env, domain, env['author/nym'], 'author/nym', 'auth/nym-signature');
    return sig.ok ? { ok: true, value: { path: 'nym', signer: env['author/nym'] } } : sig;
  }
  const signer = env['sender/participant-id'];
  const sig = verifyWith(env, domain, signer, 'sender/participant-id');
  return sig.ok ? { ok: true, value: { path: 'participant', signer: String(signer) } } : sig;
}

const DOMAIN_BY_TYPE: Record<RoomInput['type'], SignatureDomain> = {
  'swarm/question-summary': SIGNATURE_DOMAINS.summary,
  'swarm/question-close': SIGNATURE_DOMAINS.close,
  'swarm/room-join': SIGNATURE_DOMAINS.room,
  'swarm/room-presence': SIGNATURE_DOMAINS.room,
  'swarm/room-message': SIGNATURE_DOMAINS.room,
  'swarm/room-verdict': SIGNATURE_DOMAINS.room,
  'swarm/room-delegate': SIGNATURE_DOMAINS.room,
  'swarm/room-takeover': SIGNATURE_DOMAINS.room,
  'swarm/room-policy': SIGNATURE_DOMAINS.room,
};

export function domainOf(input: RoomInput): SignatureDomain {
  return DOMAIN_BY_TYPE[input.type];
}

/** A room input's signature by the did:key its signer field names. */
export function verifyRoomInput(input: RoomInput): Checked<null> {
  return verifyWith(input as Obj, domainOf(input), signerOf(input), 'the signer');
}
