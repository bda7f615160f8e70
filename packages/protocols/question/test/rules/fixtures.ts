import { readFileSync } from 'node:fs';
import { ed25519 } from '@db8/core';
import { conformancePath } from '../../../../../test/conformance.ts';
import { didKeyFromPublicKey } from '../../rules/didkey.ts';
import { SIGNATURE_DOMAINS, type SignatureField, signObject } from '../../rules/signing.ts';

/** Orbiplex test data, read only from test/conformance/orbiplex/ (missing data fails loudly). */
export function orbiplex(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(conformancePath('orbiplex', file), 'utf8'));
}

export const VALID = [
  'federation-local-procurement.question-envelope.json',
  'federation-local-pseudonymous.question-envelope.json',
  'selected-responder.question-envelope.json',
];

export interface Key {
  seed: Uint8Array;
  did: string;
  participant: string;
  nym: string;
}

/** Deterministic test keys: seed bytes all `n`. */
export function key(n: number): Key {
  const seed = new Uint8Array(32).fill(n);
  const did = didKeyFromPublicKey(ed25519.publicKeyFromSeed(seed));
  return { seed, did, participant: `participant:${did}`, nym: `nym:${did}` };
}

export const ASKER = key(1);
export const COUNCIL = key(2);
export const NYM = key(3);
export const T0 = Date.parse('2026-03-22T18:10:00Z');

/** The upstream procurement example, re-authored by ASKER and really signed. */
export function signedEnvelope(over: Record<string, unknown> = {}): Record<string, unknown> {
  const base = { ...orbiplex(VALID[0] as string), 'sender/participant-id': ASKER.participant, ...over };
  // `undefined` in `over` removes that member.
  const clean = Object.fromEntries(Object.entries(base).filter(([, v]) => v !== undefined));
  return signObject(clean, SIGNATURE_DOMAINS.question, ASKER.seed);
}

export function nymCertificate(
  over: Record<string, unknown> = {},
  signer = COUNCIL,
): Record<string, unknown> {
  const cert = {
    'schema/v': 1,
    'nym/id': NYM.nym,
    epoch: 1,
    'issued-at': '2026-03-28T15:40:00Z',
    'expires-at': '2026-04-04T15:40:00Z',
    'leniency-until': '2026-04-18T15:40:00Z',
    'issuer/id': `council:${COUNCIL.did}`,
    ...over,
  };
  return signObject(cert, SIGNATURE_DOMAINS.nymCertificate, signer.seed);
}

/** The upstream pseudonymous example with a real council certificate and a real nym signature. */
export function nymEnvelope(over: Record<string, unknown> = {}, cert = nymCertificate(), signer = NYM) {
  const base = {
    ...orbiplex(VALID[1] as string),
    'author/nym': NYM.nym,
    'auth/nym-certificate': cert,
    ...over,
  };
  return signObject(base, SIGNATURE_DOMAINS.question, signer.seed, 'auth/nym-signature' as SignatureField);
}

export const TRUST = { issuers: [`council:${COUNCIL.did}`] };
