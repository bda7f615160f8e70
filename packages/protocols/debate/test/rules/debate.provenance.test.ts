import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ed25519,
  encodeSshEd25519PublicKey,
  formatSshPublicKey,
  signCertificate,
  signSshsig,
  sshFingerprint,
  toBase64,
  utf8Encode,
  verifySshsig,
} from '@db8/core';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkProvenance,
  type SubmitAction,
  submissionBytes,
  submissionSha256,
  submissionText,
} from '../../rules/index.ts';
import { baseConfig, Room } from './harness.ts';

/**
 * Provenance: a signed submission carries a valid signature over its canonical bytes by a key or
 * certificate bound to its author; an unsigned one is recorded as `server`. Interop is checked
 * against the real `ssh-keygen` (a missing ssh-keygen fails the test loudly).
 */

const user = ed25519.keyPairFromSeed(new Uint8Array(32).fill(11));
const ca = ed25519.keyPairFromSeed(new Uint8Array(32).fill(12));
const fp = sshFingerprint(encodeSshEd25519PublicKey(user.publicKey));
const b64 = (armored: string) => toBase64(utf8Encode(armored));

function roomWith(trust: object, extra: object = {}): Room {
  const room = new Room({ ...baseConfig, trust, ...extra });
  room.advance(); // research → submit
  return room;
}

function sshSigned(a: SubmitAction, opts: { namespace?: string; certificate?: string } = {}): SubmitAction {
  const armored = signSshsig({
    seed: user.seed,
    namespace: opts.namespace ?? 'db8',
    message: submissionBytes(a),
    ...(opts.certificate ? { certificate: opts.certificate } : {}),
  });
  return { ...a, signature_kind: 'ssh', signature_b64: b64(armored) };
}

const cert = (principal: string, validBefore: number | 'forever' = 'forever') =>
  signCertificate({
    caSeed: ca.seed,
    publicKey: user.publicKey,
    keyId: 'test',
    principals: [principal],
    validAfter: 'always',
    validBefore,
  }).line;

describe('debate: provenance', () => {
  it('SSHSIG by a key listed for the author (an ssh-ed25519 line in the config)', () => {
    const room = roomWith({ keys: { anon_1: [formatSshPublicKey(user.publicKey, 'alice@laptop')] } });
    room.must('anon_1', sshSigned(room.submission('anon_1')), 2_000);
    expect(room.state.rounds[0]?.slots.anon_1?.submission?.signature).toMatchObject({
      kind: 'ssh',
      via: 'key',
      signer_fingerprint: fp,
    });
  });

  it('SSHSIG with a room-CA certificate for principal <seat>@<room_id>', () => {
    const room = roomWith({ ca_keys: [formatSshPublicKey(ca.publicKey)] });
    const a = room.submission('anon_1');
    expect(a.room_id).toBe('room_test');
    room.must('anon_1', sshSigned(a, { certificate: cert('anon_1@room_test') }), 2_000);
    expect(room.state.rounds[0]?.slots.anon_1?.submission?.signature.via).toBe('certificate');

    // Another seat's principal, an expired certificate, the wrong namespace: all refused.
    const b = room.submission('anon_2');
    expect(room.refuse('anon_2', sshSigned(b, { certificate: cert('anon_1@room_test') }), 2_001)).toBe(
      'BAD_SIGNATURE',
    );
    expect(room.refuse('anon_2', sshSigned(b, { certificate: cert('anon_2@room_test', 1_000) }), 2_001)).toBe(
      'BAD_SIGNATURE',
    );
    expect(
      room.refuse('anon_2', sshSigned(b, { certificate: cert('anon_2@room_test'), namespace: 'git' }), 2_001),
    ).toBe('BAD_SIGNATURE');
    room.must('anon_2', sshSigned(b, { certificate: cert('anon_2@room_test') }), 2_002);
  });

  it('says why a certificate signature failed (principal, expiry, namespace)', () => {
    const room = roomWith({});
    const b = room.submission('anon_2');
    const trust = {
      keys: [],
      caKeys: [Buffer.from(ca.publicKey).toString('hex')],
      principal: 'anon_2@room_test',
    };
    const why = (a: SubmitAction, now = 2_000) => {
      const r = checkProvenance(a, submissionBytes(a), trust, now);
      return r.ok ? 'ok' : r.reason;
    };
    expect(why(sshSigned(b, { certificate: cert('anon_2@room_test') }))).toBe('ok');
    expect(why(sshSigned(b, { certificate: cert('anon_1@room_test') }))).toMatch(/^PRINCIPAL_MISMATCH/);
    expect(why(sshSigned(b, { certificate: cert('anon_2@room_test', 1_000) }))).toMatch(/^CERT_EXPIRED/);
    expect(why(sshSigned(b, { certificate: cert('anon_2@room_test'), namespace: 'git' }))).toMatch(
      /^NAMESPACE_MISMATCH/,
    );
    expect(why(sshSigned(b))).toMatch(/^UNTRUSTED_KEY/); // a plain key where a certificate is required
  });

  it('a signature over other bytes, or a wrong signer_fingerprint, is refused', () => {
    const room = roomWith({ keys: { anon_1: [formatSshPublicKey(user.publicKey)] } });
    const a = room.submission('anon_1');
    const signed = sshSigned(a);
    expect(room.refuse('anon_1', { ...signed, content: 'edited after signing' }, 2_000)).toBe(
      'BAD_SIGNATURE',
    );
    expect(room.refuse('anon_1', { ...signed, signer_fingerprint: 'SHA256:nope' }, 2_000)).toBe(
      'BAD_SIGNATURE',
    );
    expect(room.refuse('anon_1', { ...signed, signature_b64: 'not base64!' }, 2_000)).toBe('BAD_SIGNATURE');
    room.must('anon_1', { ...signed, signer_fingerprint: fp }, 2_000);
  });

  it('a signed submission cannot be replayed into another room (round ids differ per room seed)', () => {
    const trust = { keys: { anon_1: [formatSshPublicKey(user.publicKey)] } };
    const roomA = roomWith(trust);
    const signed = sshSigned(roomA.submission('anon_1'));
    roomA.must('anon_1', signed, 2_000);
    const roomB = new Room({ ...baseConfig, trust }, 0, 'ef'.repeat(32));
    roomB.advance();
    expect(roomB.state.room_ref).not.toBe(roomA.state.room_ref);
    expect(roomB.refuse('anon_1', signed, 2_000)).toBe('ROUND_MISMATCH');
  });

  it('every published submission has its canonical sha256, and signed ones verify offline', () => {
    const room = roomWith({ keys: { anon_1: [formatSshPublicKey(user.publicKey)] } });
    room.must('anon_1', sshSigned(room.submission('anon_1')), 2_000);
    room.must('anon_2', room.submission('anon_2'), 2_001);
    room.advance(); // verify
    room.advance(); // verify bound: both verified by timeout, published
    expect(room.state.phase).toBe('published');
    for (const row of room.view({ kind: 'observer' }).rounds[0]!.submissions.filter((r) => r.payload)) {
      expect(row.canonical_sha256).toBe(submissionSha256(row.payload!));
      if (row.signature?.kind === 'ssh') {
        const armored = Buffer.from(row.signature.signature_b64!, 'base64').toString('utf8');
        const r = verifySshsig({
          armored,
          message: submissionBytes(row.payload!),
          namespace: 'db8',
          trust: { publicKeys: [user.publicKey] },
        });
        expect(r.ok).toBe(true);
      } else {
        expect(row.signature).toEqual({
          kind: 'server',
          signature_b64: null,
          signer_fingerprint: null,
          via: null,
        });
      }
    }
  });
});

describe('debate: interop with the real ssh-keygen', () => {
  const dir = mkdtempSync(join(tmpdir(), 'db8-debate-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const run = (args: string[], input?: string) => {
    const r = spawnSync('ssh-keygen', args, { input, encoding: 'utf8', env: { ...process.env, TZ: 'UTC' } });
    if (r.error)
      throw new Error(`ssh-keygen is required (apt-get install -y openssh-client): ${r.error.message}`);
    if (r.status !== 0) throw new Error(`ssh-keygen ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };

  it('accepts `ssh-keygen -Y sign -n db8` over the canonical JSON, by a registered key and by a CA certificate', () => {
    run(['-q', '-t', 'ed25519', '-N', '', '-C', 'agent', '-f', join(dir, 'agent')]);
    run(['-q', '-t', 'ed25519', '-N', '', '-C', 'ca', '-f', join(dir, 'ca')]);
    run([
      '-q',
      '-s',
      join(dir, 'ca'),
      '-I',
      'agent-cert',
      '-n',
      'anon_2@room_test',
      '-V',
      '19700101:20991231',
      join(dir, 'agent.pub'),
    ]);
    const room = roomWith({ ca_keys: [readFileSync(join(dir, 'ca.pub'), 'utf8')] });

    // Plain key: the agent registers its public key line, then signs what `submissionText` shows.
    room.must(
      'anon_1',
      { type: 'register_key', public_key: readFileSync(join(dir, 'agent.pub'), 'utf8') },
      1_500,
    );
    const a = room.submission('anon_1');
    const sig = run(['-Y', 'sign', '-n', 'db8', '-f', join(dir, 'agent')], submissionText(a));
    room.must('anon_1', { ...a, signature_kind: 'ssh', signature_b64: b64(sig) }, 2_000);
    expect(room.state.rounds[0]?.slots.anon_1?.submission?.signature.via).toBe('key');

    // Certificate: anon_2 holds no registered key; the room CA certified agent for anon_2@room_test.
    const b = room.submission('anon_2');
    const certSig = run(['-Y', 'sign', '-n', 'db8', '-f', join(dir, 'agent-cert.pub')], submissionText(b));
    room.must('anon_2', { ...b, signature_kind: 'ssh', signature_b64: b64(certSig) }, 2_100);
    expect(room.state.rounds[0]?.slots.anon_2?.submission?.signature.via).toBe('certificate');
  });
});
