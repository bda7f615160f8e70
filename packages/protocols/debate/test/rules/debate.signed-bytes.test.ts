import {
  attachSshsigCertificate,
  ed25519,
  formatSshPublicKey,
  signCertificate,
  signSshsig,
  toBase64,
  utf8Encode,
  verifySshsig,
} from '@db8/core';
import { describe, expect, it } from 'vitest';
import { canonicalPayload, type SubmitAction, submissionSha256 } from '../../rules/index.ts';
import { baseConfig, Room } from './harness.ts';

/**
 * `signed_b64` (docs/debate.md "Provenance"): a signature over the bytes the client signed (seed
 * 000's CLI signs `jq -S .` output), accepted only when those bytes parse to the submitted payload;
 * the canonical form is what is hashed and stored. The seed's `jq -S` bytes are rendered here the
 * way jq prints them (sorted keys, two-space indent, final newline); the e2e test
 * (test/server/debate.seed-client.test.ts) uses the real jq.
 */

const user = ed25519.keyPairFromSeed(new Uint8Array(32).fill(21));
const ca = ed25519.keyPairFromSeed(new Uint8Array(32).fill(22));
const b64 = (text: string) => toBase64(utf8Encode(text));

const sorted = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(sorted)
    : v !== null && typeof v === 'object'
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
        )
      : v;
const jqText = (a: SubmitAction) => `${JSON.stringify(sorted(canonicalPayload(a)), null, 2)}\n`;

function signedOver(a: SubmitAction, text: string): SubmitAction {
  const armored = signSshsig({ seed: user.seed, namespace: 'db8', message: utf8Encode(text) });
  return { ...a, signature_kind: 'ssh', signature_b64: b64(armored), signed_b64: b64(text) };
}

function room(): Room {
  const r = new Room({ ...baseConfig, trust: { keys: { anon_1: [formatSshPublicKey(user.publicKey)] } } });
  r.advance(); // research → submit
  return r;
}

describe('debate: signatures over the bytes the client signed (signed_b64)', () => {
  it('accepts a signature over the jq -S rendering; stores the canonical hash and the signed bytes', () => {
    const r = room();
    const a = r.submission('anon_1');
    const text = jqText(a);
    r.must('anon_1', signedOver(a, text), 2_000);
    const stored = r.state.rounds[0]!.slots.anon_1!.submission!;
    expect(stored.canonical_sha256).toBe(submissionSha256(a));
    expect(stored.signature).toMatchObject({ kind: 'ssh', via: 'key', signed_b64: b64(text) });
  });

  it('refuses signed bytes of another payload, even validly signed, and bytes that are not JSON', () => {
    const r = room();
    const a = r.submission('anon_1');
    const other = jqText({ ...a, content: 'something else' });
    expect(r.refuse('anon_1', signedOver(a, other), 2_000)).toBe('BAD_SIGNATURE');
    expect(r.refuse('anon_1', signedOver(a, 'not json'), 2_000)).toBe('BAD_SIGNATURE');
    // The signed bytes alone, without a signature, are refused too.
    expect(r.refuse('anon_1', { ...a, signed_b64: b64(jqText(a)) }, 2_000)).toBe('BAD_SIGNATURE');
    // A tampered byte of the signed text no longer verifies.
    const good = signedOver(a, jqText(a));
    const tampered = { ...good, signed_b64: b64(jqText(a).replace('"content"', '"content" ')) };
    expect(r.refuse('anon_1', tampered, 2_000)).toBe('BAD_SIGNATURE');
    r.must('anon_1', good, 2_000);
  });
});

describe('attachSshsigCertificate', () => {
  const cert = (key: Uint8Array) =>
    signCertificate({
      caSeed: ca.seed,
      publicKey: key,
      keyId: 't',
      principals: ['anon_1@room_test'],
      validAfter: 'always',
      validBefore: 'forever',
    }).line;
  const message = utf8Encode('db8-login:*:nonce');
  const plain = signSshsig({ seed: user.seed, namespace: 'db8', message });

  it('a plain-key signature with its certificate beside it verifies under the CA', () => {
    const trust = { caKeys: [ca.publicKey], principal: 'anon_1@room_test', at: 0 };
    expect(verifySshsig({ armored: plain, message, namespace: 'db8', trust }).ok).toBe(false);
    const withCert = attachSshsigCertificate(plain, cert(user.publicKey));
    expect(verifySshsig({ armored: withCert, message, namespace: 'db8', trust })).toMatchObject({ ok: true });
  });

  it('refuses a certificate for another key', () => {
    const other = ed25519.keyPairFromSeed(new Uint8Array(32).fill(23));
    expect(() => attachSshsigCertificate(plain, cert(other.publicKey))).toThrow(/does not certify/);
  });
});
