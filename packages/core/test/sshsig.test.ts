import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ed25519,
  formatSshPublicKey,
  parseOpenSshPrivateKey,
  parseSshPublicKey,
  parseSshsig,
  type SshsigTrust,
  signCertificate,
  signSshsig,
  type VerifySshsigResult,
  verifySshsig,
} from '../src/index.ts';
import { requireSshKeygen, sshKeygen, sshKeygenOk, TmpDir } from './ssh-keygen-helpers.ts';

const T2025 = Date.parse('2025-06-01T00:00:00Z');
const VALIDITY = '20200101000000Z:20300101000000Z';
const MESSAGE = new TextEncoder().encode(
  '{"room":"room_abc","seq":7,"text":"I concede the second point."}\n',
);

const armor = (blob: Uint8Array) =>
  `-----BEGIN SSH SIGNATURE-----\n${Buffer.from(blob).toString('base64')}\n-----END SSH SIGNATURE-----\n`;
const dearmor = (text: string) =>
  new Uint8Array(Buffer.from(text.split('\n').slice(1, -2).join(''), 'base64'));

function failed(r: VerifySshsigResult): string {
  if (r.ok) throw new Error('expected verification to fail');
  return r.code;
}

describe('SSHSIG interop with ssh-keygen', () => {
  let dir: TmpDir;
  let userSeed: Uint8Array;
  let userPub: Uint8Array;
  let caPub: Uint8Array;
  let caTrust: SshsigTrust;
  /** ssh-keygen -Y sign the message with key file `f` (a private key or a *-cert.pub next to one). */
  const sshSign = (f: string, namespace = 'db8', extra: string[] = []) =>
    sshKeygenOk(['-Y', 'sign', '-n', namespace, '-f', dir.file(f), ...extra], { input: MESSAGE }).stdout;
  /** ssh-keygen -Y verify; returns the exit status and output. */
  const sshVerify = (
    sig: string,
    allowed: string,
    principal = 'alice',
    message = MESSAGE,
    namespace = 'db8',
  ) => {
    dir.write('allowed_signers', allowed, 0o644);
    dir.write('msg.sig', sig, 0o644);
    return sshKeygen(
      [
        '-Y',
        'verify',
        '-f',
        dir.file('allowed_signers'),
        '-I',
        principal,
        '-n',
        namespace,
        '-s',
        dir.file('msg.sig'),
      ],
      { input: message },
    );
  };
  const certify = (name: string, args: string[]) =>
    sshKeygenOk(['-q', '-s', dir.file('ca'), '-I', `${name}-id`, ...args, dir.file(`${name}.pub`)]);

  beforeAll(() => {
    requireSshKeygen();
    dir = new TmpDir();
    dir.keygen('ca');
    dir.keygen('user');
    userSeed = parseOpenSshPrivateKey(dir.read('user')).seed;
    userPub = parseSshPublicKey(dir.read('user.pub')).publicKey;
    caPub = parseSshPublicKey(dir.read('ca.pub')).publicKey;
    certify('user', ['-n', 'alice,bob', '-V', VALIDITY]);
    caTrust = { caKeys: [caPub], principal: 'alice', at: T2025 };
  });
  afterAll(() => dir?.remove());

  it('verifies an ssh-keygen signature made with a plain key (sha512 default)', () => {
    const sig = sshSign('user');
    const r = verifySshsig({
      armored: sig,
      message: MESSAGE,
      namespace: 'db8',
      trust: { publicKeys: [userPub] },
    });
    if (!r.ok) throw new Error(r.message);
    expect(r.hashAlgorithm).toBe('sha512');
    expect(r.signer.kind).toBe('key');
    expect(r.signer.publicKey).toEqual(userPub);
    const fp = sshKeygenOk(['-l', '-f', dir.file('user.pub')]).stdout.split(' ')[1];
    expect(r.signer.fingerprint).toBe(fp);
    // Keys may also be given as OpenSSH lines.
    const byLine = verifySshsig({
      armored: sig,
      message: MESSAGE,
      namespace: 'db8',
      trust: { publicKeys: [dir.read('user.pub')] },
    });
    expect(byLine.ok).toBe(true);
  });

  it('verifies sha256 signatures too', () => {
    const sig = sshSign('user', 'db8', ['-O', 'hashalg=sha256']);
    expect(parseSshsig(sig).hashAlgorithm).toBe('sha256');
    const r = verifySshsig({
      armored: sig,
      message: MESSAGE,
      namespace: 'db8',
      trust: { publicKeys: [userPub] },
    });
    expect(r.ok && r.hashAlgorithm).toBe('sha256');
  });

  it('verifies an ssh-keygen signature made with a user certificate', () => {
    const sig = sshSign('user-cert.pub');
    const parsed = parseSshsig(sig);
    expect(parsed.certificate?.keyId).toBe('user-id');
    const r = verifySshsig({ armored: sig, message: MESSAGE, namespace: 'db8', trust: caTrust });
    if (!r.ok) throw new Error(r.message);
    if (r.signer.kind !== 'certificate') throw new Error('expected a certificate signer');
    expect(r.signer.principal).toBe('alice');
    expect(r.signer.principals).toEqual(['alice', 'bob']);
    expect(r.signer.keyId).toBe('user-id');
    expect(r.signer.publicKey).toEqual(userPub);
    expect(r.signer.caPublicKey).toEqual(caPub);
    // Like ssh-keygen with a plain allowed_signers line, plain-key trust accepts the certified key.
    const plain = verifySshsig({
      armored: sig,
      message: MESSAGE,
      namespace: 'db8',
      trust: { publicKeys: [userPub] },
    });
    expect(plain.ok && plain.signer.kind).toBe('key');
  });

  it('produces byte-identical signatures to ssh-keygen (Ed25519 is deterministic)', () => {
    expect(signSshsig({ seed: userSeed, namespace: 'db8', message: MESSAGE })).toBe(sshSign('user'));
    expect(signSshsig({ seed: userSeed, namespace: 'db8', message: MESSAGE, hashAlgorithm: 'sha256' })).toBe(
      sshSign('user', 'db8', ['-O', 'hashalg=sha256']),
    );
    expect(
      signSshsig({
        seed: userSeed,
        namespace: 'db8',
        message: MESSAGE,
        certificate: dir.read('user-cert.pub'),
      }),
    ).toBe(sshSign('user-cert.pub'));
  });

  it.each(['sha256', 'sha512'] as const)(
    'signs with a plain key so ssh-keygen -Y verify accepts it (%s)',
    (hash) => {
      const { seed, publicKey } = ed25519.generateKeyPair();
      const sig = signSshsig({ seed, namespace: 'db8', message: MESSAGE, hashAlgorithm: hash });
      const allowed = `alice ${formatSshPublicKey(publicKey)}\n`;
      const ok = sshVerify(sig, allowed);
      expect(ok.status, ok.stderr).toBe(0);
      expect(ok.stdout).toContain('Good "db8" signature for alice with ED25519 key');
      expect(sshVerify(sig, allowed, 'alice', MESSAGE, 'git').status).not.toBe(0);
      expect(sshVerify(sig, allowed, 'alice', new TextEncoder().encode('other')).status).not.toBe(0);
    },
  );

  it('signs with a certificate from our CA code that ssh-keygen accepts via cert-authority', () => {
    const ca = ed25519.generateKeyPair();
    const user = ed25519.generateKeyPair();
    const now = Date.now(); // ssh-keygen -Y verify checks validity against its own clock
    const { line } = signCertificate({
      caSeed: ca.seed,
      publicKey: user.publicKey,
      keyId: 'anon_2@room_xyz',
      principals: ['anon_2@room_xyz'],
      validAfter: now - 3600_000,
      validBefore: now + 3600_000,
      serial: 2,
    });
    const sig = signSshsig({ seed: user.seed, namespace: 'db8', message: MESSAGE, certificate: line });
    const allowed = `anon_2@room_xyz cert-authority ${formatSshPublicKey(ca.publicKey)}\n`;
    const ok = sshVerify(sig, allowed, 'anon_2@room_xyz');
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('Good "db8" signature for anon_2@room_xyz with ED25519-CERT key');
    expect(sshVerify(sig, allowed.replace('anon_2', 'anon_3'), 'anon_3@room_xyz').status).not.toBe(0);
    const ours = verifySshsig({
      armored: sig,
      message: MESSAGE,
      namespace: 'db8',
      trust: { caKeys: [ca.publicKey], principal: 'anon_2@room_xyz', at: now },
    });
    expect(ours.ok).toBe(true);
  });

  describe('failures, each with its own code', () => {
    const verifyCert = (sig: string, over: Partial<Extract<SshsigTrust, { caKeys: unknown }>> = {}) =>
      verifySshsig({
        armored: sig,
        message: MESSAGE,
        namespace: 'db8',
        trust: { ...caTrust, ...over } as SshsigTrust,
      });

    it('wrong namespace', () => {
      const sig = sshSign('user', 'git');
      expect(
        failed(
          verifySshsig({
            armored: sig,
            message: MESSAGE,
            namespace: 'db8',
            trust: { publicKeys: [userPub] },
          }),
        ),
      ).toBe('NAMESPACE_MISMATCH');
    });

    it('tampered message', () => {
      const sig = sshSign('user');
      const tampered = MESSAGE.slice();
      tampered[10]! ^= 0x20;
      expect(
        failed(
          verifySshsig({
            armored: sig,
            message: tampered,
            namespace: 'db8',
            trust: { publicKeys: [userPub] },
          }),
        ),
      ).toBe('BAD_SIGNATURE');
      const certSig = sshSign('user-cert.pub');
      expect(
        failed(verifySshsig({ armored: certSig, message: tampered, namespace: 'db8', trust: caTrust })),
      ).toBe('BAD_SIGNATURE');
    });

    it('untrusted plain key, and a plain key where a certificate is required', () => {
      const other = ed25519.generateKeyPair().publicKey;
      const sig = sshSign('user');
      expect(
        failed(
          verifySshsig({ armored: sig, message: MESSAGE, namespace: 'db8', trust: { publicKeys: [other] } }),
        ),
      ).toBe('UNTRUSTED_KEY');
      expect(failed(verifyCert(sig))).toBe('UNTRUSTED_KEY');
    });

    it('wrong principal', () => {
      expect(failed(verifyCert(sshSign('user-cert.pub'), { principal: 'mallory' }))).toBe(
        'PRINCIPAL_MISMATCH',
      );
    });

    it('expired (and not yet valid) certificate at the given time', () => {
      const sig = sshSign('user-cert.pub');
      expect(failed(verifyCert(sig, { at: new Date('2030-01-01T00:00:00Z') }))).toBe('CERT_EXPIRED');
      expect(failed(verifyCert(sig, { at: Date.parse('2019-12-31T23:59:59Z') }))).toBe('CERT_NOT_YET_VALID');
    });

    it('untrusted CA', () => {
      expect(failed(verifyCert(sshSign('user-cert.pub'), { caKeys: [userPub] }))).toBe('UNTRUSTED_CA');
    });

    it('a certificate whose CA signature has one bit flipped (message signature still valid)', () => {
      const sig = sshSign('user-cert.pub');
      const cert = parseSshsig(sig).certificate!;
      const blob = dearmor(sig);
      const at = Buffer.from(blob).indexOf(Buffer.from(cert.blob)) + cert.blob.length - 1;
      blob[at]! ^= 0x01;
      const forged = armor(blob);
      expect(failed(verifyCert(forged))).toBe('CERT_BAD_SIGNATURE');
      // ssh-keygen agrees that this is a forgery.
      const r = sshVerify(forged, `alice cert-authority ${dir.read('ca.pub')}`);
      expect(r.status).not.toBe(0);
    });

    it('a host certificate', () => {
      dir.keygen('host');
      certify('host', ['-h', '-n', 'alice', '-V', VALIDITY]);
      expect(failed(verifyCert(sshSign('host-cert.pub')))).toBe('CERT_WRONG_TYPE');
    });

    it('an unknown critical option (and known ones unless allowed)', () => {
      dir.keygen('opt');
      certify('opt', ['-n', 'alice', '-V', VALIDITY, '-O', 'critical:require-x@db8.example=1']);
      expect(failed(verifyCert(sshSign('opt-cert.pub')))).toBe('CERT_CRITICAL_OPTION');
      dir.keygen('fc');
      certify('fc', ['-n', 'alice', '-V', VALIDITY, '-O', 'force-command=/bin/true']);
      const sig = sshSign('fc-cert.pub');
      expect(failed(verifyCert(sig))).toBe('CERT_CRITICAL_OPTION');
      expect(verifyCert(sig, { allowCriticalOptions: ['force-command'] }).ok).toBe(true);
    });

    it('malformed, unsupported version, unsupported hash, unsupported key type', () => {
      const trust = { publicKeys: [userPub] };
      const v = (armored: string) => verifySshsig({ armored, message: MESSAGE, namespace: 'db8', trust });
      expect(failed(v('hello'))).toBe('MALFORMED');
      expect(failed(v('-----BEGIN SSH SIGNATURE-----\n!!!!\n-----END SSH SIGNATURE-----\n'))).toBe(
        'MALFORMED',
      );
      const good = dearmor(sshSign('user'));
      const v2 = good.slice();
      v2[9] = 2;
      expect(failed(v(armor(v2)))).toBe('UNSUPPORTED_VERSION');
      const md5 = Buffer.from(Buffer.from(good).toString('latin1').replace('sha512', 'md5xyz'), 'latin1');
      expect(failed(v(armor(md5)))).toBe('UNSUPPORTED_HASH');
      sshKeygenOk(['-q', '-t', 'ecdsa', '-N', '', '-f', dir.file('ec')]);
      expect(failed(v(sshSign('ec')))).toBe('UNSUPPORTED_KEY_TYPE');
      // biome-ignore lint/suspicious/noExplicitAny: untyped callers get a result, not an exception
      expect(failed(verifySshsig({ armored: 42 as any, message: MESSAGE, namespace: 'db8', trust }))).toBe(
        'MALFORMED',
      );
      expect(failed(verifySshsig({ armored: 'x', message: MESSAGE, namespace: '', trust }))).toBe(
        'MALFORMED',
      );
    });

    it('every single-bit flip of a plain or certificate signature is rejected', () => {
      const cases: [string, SshsigTrust][] = [
        [sshSign('user'), { publicKeys: [userPub] }],
        [sshSign('user-cert.pub'), caTrust],
      ];
      for (const [sig, trust] of cases) {
        const blob = dearmor(sig);
        expect(verifySshsig({ armored: sig, message: MESSAGE, namespace: 'db8', trust }).ok).toBe(true);
        for (let bit = 0; bit < blob.length * 8; bit++) {
          const b = blob.slice();
          b[bit >> 3]! ^= 1 << (bit & 7);
          const r = verifySshsig({ armored: armor(b), message: MESSAGE, namespace: 'db8', trust });
          if (r.ok) throw new Error(`bit ${bit} flipped and the signature still verified`);
        }
      }
    });
  });
});
