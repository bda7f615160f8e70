import { describe, expect, it } from 'vitest';
import { admitQuestion } from '../../rules/ingest.ts';
import { toFlat } from '../../rules/normalize.ts';
import { SIGNATURE_DOMAINS, signObject } from '../../rules/signing.ts';
import { validateQuestionEnvelope } from '../../rules/upstream.ts';
import { verifyNymCertificate, verifyQuestionEnvelope } from '../../rules/verify.ts';
import {
  ASKER,
  key,
  NYM,
  nymCertificate,
  nymEnvelope,
  orbiplex,
  signedEnvelope,
  T0,
  TRUST,
  VALID,
} from './fixtures.ts';

const schemaPaths = (v: unknown): string[] => {
  const r = validateQuestionEnvelope(v);
  if (r.ok) return [];
  return ((r.error.details?.issues ?? []) as Array<{ schemaPath: string }>).map((i) => i.schemaPath);
};

describe('question-envelope.v1: the upstream examples', () => {
  it.each(VALID)('%s is schema-valid', (file) => {
    expect(validateQuestionEnvelope(orbiplex(file)).ok).toBe(true);
  });

  it('mixing the participant and nym paths fails the identity oneOf, and only that', () => {
    const bad = orbiplex('invalid/mixed-participant-and-nym.question-envelope.json');
    expect(new Set(schemaPaths(bad))).toEqual(
      new Set(['#/allOf/0/oneOf/0/not', '#/allOf/0/oneOf/1/not', '#/allOf/0/oneOf']),
    );
    const { 'sender/participant-id': _p, ...nymOnly } = bad;
    // Without the participant id it is a nym-path envelope (upstream lets that path carry `signature` too).
    expect(validateQuestionEnvelope(nymOnly).ok).toBe(true);
  });

  it('private exposure with global delivery fails the scope rule', () => {
    const bad = orbiplex('invalid/private-scope-public-delivery.question-envelope.json');
    expect(schemaPaths(bad)).toContain('#/allOf/1/then/properties/delivery~1scope/const');
    // With an identity added it fails for the scope alone; with the scope fixed it is valid.
    const withId = {
      ...bad,
      'sender/participant-id': ASKER.participant,
      signature: { alg: 'ed25519', value: 'x' },
    };
    expect(schemaPaths(withId)).toEqual(['#/allOf/1/then/properties/delivery~1scope/const', '#/allOf/1/if']);
    expect(validateQuestionEnvelope({ ...withId, 'delivery/scope': 'private-to-swarm' }).ok).toBe(true);
  });

  it('selected-responder without a federation fails the federation requirement, and only that', () => {
    const bad = orbiplex('invalid/selected-responder-missing-federation.question-envelope.json');
    expect(schemaPaths(bad)).toEqual(['#/allOf/4/then/required', '#/allOf/4/if']);
    expect(validateQuestionEnvelope({ ...bad, 'sender/federation-id': 'fed:x' }).ok).toBe(true);
  });

  it('schema-valid is not signature-valid: every upstream example has a placeholder signature', () => {
    for (const file of VALID) {
      const env = validateQuestionEnvelope(orbiplex(file));
      if (!env.ok) throw new Error(file);
      const r = verifyQuestionEnvelope(env.value, {
        issuers: ['council:did:key:z6MkqCauNc1Lk9Va4Tb8Yw2Pr7Hs5Qe3Xm2Rf6Nd1Aa'],
      });
      expect(r.ok, file).toBe(false);
    }
  });
});

function verify(env: Record<string, unknown>, trust: { issuers: string[]; allowLeniency?: boolean } = TRUST) {
  const v = validateQuestionEnvelope(env);
  if (!v.ok) throw new Error(JSON.stringify(v.error));
  return verifyQuestionEnvelope(v.value, trust);
}
const code = (r: { ok: boolean; error?: { code: string } }) => (r.ok ? 'OK' : r.error?.code);

describe('signatures: participant path', () => {
  it('an envelope signed in the test verifies; any change to it does not', () => {
    const env = signedEnvelope();
    expect(verify(env)).toEqual({ ok: true, value: { path: 'participant', signer: ASKER.participant } });
    expect(code(verify({ ...env, 'ttl-sec': 1801 }))).toBe('BAD_SIGNATURE');
    expect(code(verify({ ...env, 'sender/participant-id': key(9).participant }))).toBe('BAD_SIGNATURE');
  });

  it('the value is prefixed base64url: and the domain separates event types', () => {
    const env = signedEnvelope();
    expect((env.signature as { value: string }).value).toMatch(/^base64url:[A-Za-z0-9_-]{86}$/);
    const asSummary = signObject({ ...env }, SIGNATURE_DOMAINS.summary, ASKER.seed);
    expect(code(verify(asSummary))).toBe('BAD_SIGNATURE');
  });

  it('an id that is not an Ed25519 did:key is BAD_KEY', () => {
    expect(code(verify({ ...signedEnvelope(), 'sender/participant-id': 'participant:alice' }))).toBe(
      'BAD_KEY',
    );
  });
});

describe('signatures: nym path', () => {
  it('a trusted certificate and the nym signature verify', () => {
    expect(code(verify(nymEnvelope()))).toBe('OK');
  });

  it('refuses an untrusted issuer, a forged certificate, a certificate for another nym, a wrong signer', () => {
    expect(code(verify(nymEnvelope(), { issuers: [] }))).toBe('UNTRUSTED_ISSUER');
    expect(code(verify(nymEnvelope({}, nymCertificate({}, key(7)))))).toBe('BAD_SIGNATURE');
    expect(code(verify(nymEnvelope({}, nymCertificate({ 'nym/id': key(8).nym }))))).toBe('NYM_MISMATCH');
    expect(code(verify(nymEnvelope({}, nymCertificate(), key(8))))).toBe('BAD_SIGNATURE');
  });

  it('judges the validity window at created-at, leniency only when allowed', () => {
    expect(code(verify(nymEnvelope({ 'created-at': '2026-03-28T15:00:00Z' })))).toBe('CERT_NOT_YET_VALID');
    const lenient = nymEnvelope({ 'created-at': '2026-04-10T00:00:00Z' });
    expect(code(verify(lenient))).toBe('CERT_EXPIRED');
    expect(code(verify(lenient, { ...TRUST, allowLeniency: true }))).toBe('OK');
    const dead = nymEnvelope({ 'created-at': '2026-04-19T00:00:00Z' });
    expect(code(verify(dead, { ...TRUST, allowLeniency: true }))).toBe('CERT_EXPIRED');
  });
});

describe('nym certificate issuer: a council:did:key (upstream orbidocs c895110)', () => {
  // The same council key, named without its `council:` prefix: the copy before c895110 took any string.
  const bare = nymCertificate({ 'issuer/id': (TRUST.issuers[0] as string).replace(/^council:/, '') });

  it('the schema refuses an issuer/id that is not a council:did:key, with its own code', () => {
    const env = nymEnvelope({}, bare);
    const r = validateQuestionEnvelope(env);
    expect(code(r)).toBe('ISSUER_NOT_COUNCIL');
    expect(code(validateQuestionEnvelope(nymEnvelope()))).toBe('OK');
  });

  it('the ingest gate and the certificate check refuse it too, even when the node trusts that id', () => {
    const trustBare = { issuers: [String(bare['issuer/id'])] };
    const at = Date.parse('2026-03-29T00:00:00Z');
    expect(code(admitQuestion(nymEnvelope({}, bare), { now: T0 + 1000, trust: trustBare }))).toBe(
      'ISSUER_NOT_COUNCIL',
    );
    expect(code(verifyNymCertificate(bare, NYM.nym, at, trustBare))).toBe('ISSUER_NOT_COUNCIL');
    expect(code(verifyNymCertificate(nymCertificate(), NYM.nym, at, TRUST))).toBe('OK');
  });
});

describe('admitQuestion: the ingest gate', () => {
  const opts = { now: T0 + 1000, trust: TRUST };

  it('admits a signed envelope and names its event id', () => {
    const r = admitQuestion(signedEnvelope(), opts);
    expect(r.ok && r.value.eventId).toBe('question:01K0FEDPROC1');
  });

  it('refuses with a reason: schema, forged, oversized, replayed, expired, future, channel', () => {
    expect(
      code(admitQuestion(orbiplex('invalid/private-scope-public-delivery.question-envelope.json'), opts)),
    ).toBe('SCHEMA_INVALID');
    expect(code(admitQuestion(orbiplex(VALID[0] as string), opts))).toBe('BAD_SIGNATURE');
    expect(code(admitQuestion(signedEnvelope({ 'question/text': 'x'.repeat(70_000) }), opts))).toBe(
      'OVERSIZED',
    );
    expect(
      code(admitQuestion(signedEnvelope(), { ...opts, seen: (id) => id === 'question:01K0FEDPROC1' })),
    ).toBe('REPLAYED');
    expect(code(admitQuestion(signedEnvelope(), { ...opts, now: T0 + 1800_000 }))).toBe('QUESTION_EXPIRED');
    expect(code(admitQuestion(signedEnvelope(), { ...opts, now: T0 - 3_600_000 }))).toBe('FROM_THE_FUTURE');
    expect(
      code(admitQuestion(signedEnvelope({ 'delivery/response-channel-id': 'question:other' }), opts)),
    ).toBe('CHANNEL_MISMATCH');
  });

  it("accepts the proposal's nested shape by normalising it to the flat form", () => {
    const nested = {
      type: 'swarm/question',
      id: 'question:01JNY6M2X6Y8M1G5R4Z3K7Q2P9',
      sender: {
        'node/id': 'node:pl-wro-7f3c',
        'federation/id': 'fed:orbiplex-pl',
        'participant/id': ASKER.participant,
      },
      'created-at': '2026-03-22T18:09:00Z',
      'ttl-sec': 1800,
      question: { text: 'Rotate a trust root?', tags: ['trust'], urgency: 'normal' },
      delivery: {
        scope: 'federation-local',
        'response-channel/id': 'question:01JNY6M2X6Y8M1G5R4Z3K7Q2P9',
        'response-channel/mode': 'federation',
        'follow-ups?': true,
      },
      filters: {
        'models/require': ['model:gpt-5'],
        'responder/min-reputation': 0.78,
        languages: ['en', 'pl'],
      },
      reward: { kind: 'tbd', amount: null },
    };
    const flat = toFlat(nested) as Record<string, unknown>;
    expect(flat['request/exposure-mode']).toBe('federation-local');
    expect(flat['reward/mode']).toBe('none');
    expect(flat.policy_annotations).toEqual({
      'db8/proposal-003': { 'response-channel/mode': 'federation', reward: { kind: 'tbd', amount: null } },
    });
    // Signed over the flat form, submitted nested.
    const sig = signObject(flat, SIGNATURE_DOMAINS.question, ASKER.seed).signature;
    expect(code(admitQuestion({ ...nested, signature: sig }, opts))).toBe('OK');
    expect(
      code(admitQuestion({ ...nested, signature: { alg: 'ed25519', value: 'base64url:MEYCIQDf' } }, opts)),
    ).toBe('BAD_SIGNATURE');
  });
});
