import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CertificateCheck,
  certOptionValue,
  checkCertificate,
  ed25519,
  parseCertificate,
  parseCertificateLine,
  parseOpenSshPrivateKey,
  parseSshPublicKey,
  SSH_CERT_FOREVER,
  SshVerifyError,
  signCertificate,
} from '../src/index.ts';
import { requireSshKeygen, sshKeygenOk, TmpDir } from './ssh-keygen-helpers.ts';

const T2025 = Date.parse('2025-06-01T00:00:00Z');
const VALID_FROM = Date.parse('2020-01-01T00:00:00Z');
const VALID_TO = Date.parse('2030-01-01T00:00:00Z');

function verifyError(fn: () => unknown): SshVerifyError {
  try {
    fn();
  } catch (e) {
    if (e instanceof SshVerifyError) return e;
    throw e;
  }
  throw new Error('expected an SshVerifyError');
}

describe('OpenSSH user certificates', () => {
  let dir: TmpDir;
  let caPub: Uint8Array;
  let caSeed: Uint8Array;
  let userPub: Uint8Array;
  const certify = (name: string, args: string[]) => {
    sshKeygenOk(['-q', '-s', dir.file('ca'), ...args, dir.file(`${name}.pub`)]);
    return parseCertificateLine(dir.read(`${name}-cert.pub`));
  };
  const check = (over: Partial<CertificateCheck> = {}): CertificateCheck => ({
    caKeys: [caPub],
    principal: 'alice',
    at: T2025,
    ...over,
  });

  beforeAll(() => {
    requireSshKeygen();
    dir = new TmpDir();
    dir.keygen('ca');
    dir.keygen('user');
    caPub = parseSshPublicKey(dir.read('ca.pub')).publicKey;
    caSeed = parseOpenSshPrivateKey(dir.read('ca')).seed;
    userPub = parseSshPublicKey(dir.read('user.pub')).publicKey;
  });
  afterAll(() => dir?.remove());

  it('parses and accepts a certificate made by ssh-keygen -s', () => {
    const cert = certify('user', [
      '-I',
      'key-7',
      '-n',
      'alice,bob',
      '-V',
      '20200101000000Z:20300101000000Z',
      '-z',
      '42',
    ]);
    expect(cert.keyId).toBe('key-7');
    expect(cert.serial).toBe(42n);
    expect(cert.type).toBe(1);
    expect(cert.principals).toEqual(['alice', 'bob']);
    expect(cert.validAfter).toBe(BigInt(VALID_FROM / 1000));
    expect(cert.validBefore).toBe(BigInt(VALID_TO / 1000));
    expect(cert.publicKey).toEqual(userPub);
    expect(cert.caPublicKey).toEqual(caPub);
    expect(cert.criticalOptions).toEqual([]);
    expect(cert.extensions.map((e) => e.name)).toContain('permit-pty');
    expect(checkCertificate(cert, check())).toBeNull();
    expect(checkCertificate(cert, check({ principal: 'bob', at: new Date(VALID_FROM) }))).toBeNull();
  });

  it('checks validity at the given time, not the clock', () => {
    const cert = certify('user', ['-I', 'k', '-n', 'alice', '-V', '20200101000000Z:20300101000000Z']);
    expect(checkCertificate(cert, check({ at: VALID_TO - 1000 }))).toBeNull();
    expect(checkCertificate(cert, check({ at: VALID_TO }))?.code).toBe('CERT_EXPIRED');
    expect(checkCertificate(cert, check({ at: new Date('2031-01-01T00:00:00Z') }))?.code).toBe(
      'CERT_EXPIRED',
    );
    expect(checkCertificate(cert, check({ at: VALID_FROM - 1000 }))?.code).toBe('CERT_NOT_YET_VALID');
  });

  it('rejects a wrong principal, an untrusted CA and a host certificate', () => {
    const cert = certify('user', ['-I', 'k', '-n', 'alice', '-V', '20200101000000Z:20300101000000Z']);
    expect(checkCertificate(cert, check({ principal: 'mallory' }))?.code).toBe('PRINCIPAL_MISMATCH');
    expect(checkCertificate(cert, check({ principal: 'ali' }))?.code).toBe('PRINCIPAL_MISMATCH');
    const other = ed25519.generateKeyPair();
    expect(checkCertificate(cert, check({ caKeys: [other.publicKey] }))?.code).toBe('UNTRUSTED_CA');
    const host = certify('user', [
      '-h',
      '-I',
      'host',
      '-n',
      'alice',
      '-V',
      '20200101000000Z:20300101000000Z',
    ]);
    expect(host.type).toBe(2);
    expect(checkCertificate(host, check())?.code).toBe('CERT_WRONG_TYPE');
    // An empty principal list means "anyone" to sshd; for signatures OpenSSH (and we) refuse it.
    const anyone = certify('user', ['-I', 'k', '-V', '20200101000000Z:20300101000000Z']);
    expect(anyone.principals).toEqual([]);
    expect(checkCertificate(anyone, check())?.code).toBe('PRINCIPAL_MISMATCH');
  });

  it('rejects a certificate whose CA signature has one bit flipped (a forgery sshpk would accept)', () => {
    const cert = certify('user', ['-I', 'k', '-n', 'alice', '-V', '20200101000000Z:20300101000000Z']);
    expect(checkCertificate(cert, check())).toBeNull(); // and now cached as valid
    const forged = cert.blob.slice();
    forged[forged.length - 1]! ^= 0x01; // last byte of the signature
    expect(checkCertificate(parseCertificate(forged), check())?.code).toBe('CERT_BAD_SIGNATURE');
    // The signature covers every field: widen the validity or change the key id and it breaks.
    for (const field of [cert.validBefore, cert.keyId]) {
      const b = cert.blob.slice();
      const at =
        typeof field === 'string' ? Buffer.from(b).indexOf(field) : Buffer.from(b).indexOf(u64(field));
      expect(at).toBeGreaterThan(0);
      b[at]! ^= 0x01;
      expect(checkCertificate(parseCertificate(b), check({ at: 0 }))?.code).toBe('CERT_BAD_SIGNATURE');
    }
  });

  it('refuses critical options unless the caller opts in, and unknown ones always', () => {
    const fc = certify('user', [
      '-I',
      'k',
      '-n',
      'alice',
      '-V',
      '20200101000000Z:20300101000000Z',
      '-O',
      'force-command=/bin/true',
      '-O',
      'source-address=10.0.0.0/8',
    ]);
    expect(fc.criticalOptions.map((o) => [o.name, certOptionValue(o)])).toEqual([
      ['force-command', '/bin/true'],
      ['source-address', '10.0.0.0/8'],
    ]);
    expect(checkCertificate(fc, check())?.code).toBe('CERT_CRITICAL_OPTION');
    expect(checkCertificate(fc, check({ allowCriticalOptions: ['force-command'] }))?.code).toBe(
      'CERT_CRITICAL_OPTION',
    );
    expect(
      checkCertificate(fc, check({ allowCriticalOptions: ['force-command', 'source-address'] })),
    ).toBeNull();
    const unknown = certify('user', [
      '-I',
      'k',
      '-n',
      'alice',
      '-V',
      '20200101000000Z:20300101000000Z',
      '-O',
      'critical:verify-required@db8.example',
    ]);
    const c = checkCertificate(unknown, check({ allowCriticalOptions: ['force-command', 'source-address'] }));
    expect(c?.code).toBe('CERT_CRITICAL_OPTION');
    expect(c?.message).toContain('verify-required@db8.example');
  });

  it('refuses a certificate from a non-Ed25519 CA', () => {
    sshKeygenOk(['-q', '-t', 'ecdsa', '-N', '', '-f', dir.file('ecca')]);
    sshKeygenOk(['-q', '-s', dir.file('ecca'), '-I', 'k', '-n', 'alice', dir.file('user.pub')]);
    expect(verifyError(() => parseCertificateLine(dir.read('user-cert.pub'))).code).toBe(
      'UNSUPPORTED_KEY_TYPE',
    );
    expect(verifyError(() => parseCertificateLine(dir.read('user.pub'))).code).toBe('UNSUPPORTED_KEY_TYPE');
    expect(verifyError(() => parseCertificate(new Uint8Array([0, 0, 0, 9, 1]))).code).toBe('MALFORMED');
  });

  it('creates certificates that ssh-keygen -L reads field by field', () => {
    const { line, certificate } = signCertificate({
      caSeed,
      publicKey: userPub,
      keyId: 'anon_3@room_abc',
      principals: ['anon_3@room_abc', 'alice'],
      validAfter: VALID_FROM,
      validBefore: new Date(VALID_TO),
      serial: 7n,
      extensions: { 'permit-pty': '', 'db8-room@db8.example': 'room_abc' },
      comment: 'room CA',
    });
    dir.write('made-cert.pub', `${line}\n`, 0o644);
    const out = sshKeygenOk(['-L', '-f', dir.file('made-cert.pub')]).stdout;
    expect(out).toContain('Type: ssh-ed25519-cert-v01@openssh.com user certificate');
    const caFp = sshKeygenOk(['-l', '-f', dir.file('ca.pub')]).stdout.split(' ')[1]!;
    expect(out).toContain(`Signing CA: ED25519 ${caFp} (using ssh-ed25519)`);
    expect(out).toContain('Key ID: "anon_3@room_abc"');
    expect(out).toContain('Serial: 7');
    expect(out).toContain('Valid: from 2020-01-01T00:00:00 to 2030-01-01T00:00:00');
    expect(out).toMatch(/Principals: \n\s+anon_3@room_abc\n\s+alice\n/);
    expect(out).toMatch(/Critical Options: \(none\)/);
    expect(out).toMatch(/Extensions: \n\s+db8-room@db8.example UNKNOWN OPTION.*\n\s+permit-pty\n/);
    expect(checkCertificate(certificate, check())).toBeNull();
    expect(parseCertificateLine(line).blob).toEqual(certificate.blob);
  });

  it('creates reproducible certificates (nonce derived from the contents) and honours forever', () => {
    const input = {
      caSeed,
      publicKey: userPub,
      keyId: 'k',
      principals: ['alice'],
      validAfter: 'always' as const,
      validBefore: 'forever' as const,
    };
    const a = signCertificate(input);
    expect(signCertificate(input).blob).toEqual(a.blob);
    expect(signCertificate({ ...input, keyId: 'k2' }).certificate.nonce).not.toEqual(a.certificate.nonce);
    expect(a.certificate.validBefore).toBe(SSH_CERT_FOREVER);
    expect(a.certificate.validAfter).toBe(0n);
    expect(checkCertificate(a.certificate, check({ at: Date.parse('2999-01-01') }))).toBeNull();
    dir.write('forever-cert.pub', `${a.line}\n`, 0o644);
    expect(sshKeygenOk(['-L', '-f', dir.file('forever-cert.pub')]).stdout).toContain('Valid: forever');
    expect(() => signCertificate({ ...input, principals: [] })).toThrow();
    expect(() => signCertificate({ ...input, validAfter: VALID_TO, validBefore: VALID_FROM })).toThrow(
      /after/,
    );
  });
});

function u64(v: bigint): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(v);
  return b;
}
