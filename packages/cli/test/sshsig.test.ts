import { spawnSync } from 'node:child_process';
import { requireSshKeygen, sshKeygen, sshKeygenOk, TmpDir } from '@db8/core/test/ssh-keygen-helpers.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from './helpers.ts';

const MESSAGE = 'entry 7: I concede the second point.\n';
const VALIDITY = '20200101000000Z:20300101000000Z';

/** Run the real CLI as a user would. */
function db8(args: string[], input?: string) {
  const r = spawnSync(process.execPath, [BIN, ...args], { input, encoding: 'utf8' });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Failures are one line on stderr, no stack trace. */
function expectOneLineError(stderr: string, pattern: RegExp): void {
  const lines = stderr.trimEnd().split('\n');
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe('db8 sshsig (spawned CLI against real ssh-keygen)', () => {
  let dir: TmpDir;
  const f = (name: string) => dir.file(name);
  const sshSign = (key: string, namespace = 'db8') =>
    sshKeygenOk(['-Y', 'sign', '-n', namespace, '-f', f(key)], { input: MESSAGE }).stdout;

  beforeAll(() => {
    requireSshKeygen();
    dir = new TmpDir();
    dir.keygen('ca');
    dir.keygen('user');
    sshKeygenOk(['-q', '-s', f('ca'), '-I', 'anon_1', '-n', 'anon_1@room_a', '-V', VALIDITY, f('user.pub')]);
    dir.write('msg', MESSAGE);
    dir.write('plain.sig', sshSign('user'));
    dir.write('cert.sig', sshSign('user-cert.pub'));
    dir.write('other-ns.sig', sshSign('user', 'git'));
  });
  afterAll(() => dir?.remove());

  it('verifies a plain-key signature from ssh-keygen (exit 0)', () => {
    const r = db8([
      'sshsig',
      'verify',
      '-n',
      'db8',
      '--signer-key',
      f('user.pub'),
      '--sig',
      f('plain.sig'),
      f('msg'),
    ]);
    expect(r.status, r.stderr).toBe(0);
    const fp = sshKeygenOk(['-l', '-f', f('user.pub')]).stdout.split(' ')[1];
    expect(r.stdout).toBe(`Good "db8" signature from key ${fp}\n`);
  });

  it('verifies a certificate signature at a given time, with JSON output, message on stdin', () => {
    const r = db8(
      [
        'sshsig',
        'verify',
        '--json',
        '-n',
        'db8',
        '--ca',
        f('ca.pub'),
        '--principal',
        'anon_1@room_a',
        '--sig',
        f('cert.sig'),
        '--at',
        '2025-01-01T00:00:00Z',
        '-',
      ],
      MESSAGE,
    );
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({
      ok: true,
      hashAlgorithm: 'sha512',
      signer: { kind: 'certificate', principal: 'anon_1@room_a', keyId: 'anon_1' },
    });
    expect(out.signer.caPublicKey).toBe(dir.read('ca.pub').split(' ').slice(0, 2).join(' '));
  });

  it('exits 3 with the failure code for signatures that do not verify', () => {
    const ca = ['-n', 'db8', '--ca', f('ca.pub'), '--sig', f('cert.sig'), f('msg')];
    const cases: [string[], RegExp, string?][] = [
      [
        ['-n', 'db8', '--signer-key', f('user.pub'), '--sig', f('other-ns.sig'), f('msg')],
        /NAMESPACE_MISMATCH/,
      ],
      [
        ['-n', 'db8', '--signer-key', f('user.pub'), '--sig', f('plain.sig'), '-'],
        /BAD_SIGNATURE/,
        `${MESSAGE}!`,
      ],
      [[...ca, '--principal', 'anon_2@room_a', '--at', '2025-01-01T00:00:00Z'], /PRINCIPAL_MISMATCH/],
      [[...ca, '--principal', 'anon_1@room_a', '--at', '2031-01-01T00:00:00Z'], /CERT_EXPIRED/],
      [
        [
          '-n',
          'db8',
          '--ca',
          f('user.pub'),
          '--principal',
          'anon_1@room_a',
          '--sig',
          f('cert.sig'),
          f('msg'),
        ],
        /UNTRUSTED_CA/,
      ],
    ];
    for (const [args, pattern, input] of cases) {
      const r = db8(['sshsig', 'verify', ...args], input);
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(3);
      expectOneLineError(r.stderr, new RegExp(`^db8: ${pattern.source}`));
    }
  });

  it('exits 2 for malformed input, 4 for unreadable files, 1 for usage errors', () => {
    dir.write('junk.sig', '-----BEGIN SSH SIGNATURE-----\nAAAA\n-----END SSH SIGNATURE-----\n');
    const bad = db8([
      'sshsig',
      'verify',
      '-n',
      'db8',
      '--signer-key',
      f('user.pub'),
      '--sig',
      f('junk.sig'),
      f('msg'),
    ]);
    expect(bad.status).toBe(2);
    expectOneLineError(bad.stderr, /MALFORMED/);
    const missing = db8([
      'sshsig',
      'verify',
      '-n',
      'db8',
      '--signer-key',
      f('user.pub'),
      '--sig',
      f('nope.sig'),
      f('msg'),
    ]);
    expect(missing.status).toBe(4);
    expectOneLineError(missing.stderr, /^db8: cannot read .*nope.sig: .*ENOENT/);
    const both = db8([
      'sshsig',
      'verify',
      '-n',
      'db8',
      '--signer-key',
      f('user.pub'),
      '--ca',
      f('ca.pub'),
      '--sig',
      f('plain.sig'),
    ]);
    expect(both.status).toBe(1);
    expectOneLineError(both.stderr, /exactly one of --signer-key or --ca/);
    const noNs = db8(['sshsig', 'verify', '--signer-key', f('user.pub'), '--sig', f('plain.sig'), f('msg')]);
    expect(noNs.status).toBe(1);
    expect(noNs.stderr).toMatch(/--namespace/);
  });

  it('signs exactly as ssh-keygen does, and ssh-keygen -Y verify accepts it (plain key and certificate)', () => {
    const r = db8(['sshsig', 'sign', '-n', 'db8', '--key', f('user'), f('msg')]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(dir.read('plain.sig'));
    // A certificate valid now, since ssh-keygen -Y verify judges it by its own clock.
    dir.keygen('now');
    sshKeygenOk(['-q', '-s', f('ca'), '-I', 'now', '-n', 'anon_9@room_a', '-V', '-1h:+1h', f('now.pub')]);
    const c = db8(
      [
        'sshsig',
        'sign',
        '-n',
        'db8',
        '--key',
        f('now'),
        '--cert',
        f('now-cert.pub'),
        '--hash',
        'sha256',
        '-o',
        f('now.sig'),
        '-',
      ],
      MESSAGE,
    );
    expect(c.status, c.stderr).toBe(0);
    dir.write('allowed', `anon_9@room_a cert-authority ${dir.read('ca.pub')}`);
    const v = sshKeygen(
      ['-Y', 'verify', '-f', f('allowed'), '-I', 'anon_9@room_a', '-n', 'db8', '-s', f('now.sig')],
      { input: MESSAGE },
    );
    expect(v.status, v.stderr).toBe(0);
    expect(v.stdout).toContain('Good "db8" signature for anon_9@room_a with ED25519-CERT key');
  });

  it('refuses an encrypted private key with a clear one-line error (exit 2)', () => {
    sshKeygenOk(['-q', '-t', 'ed25519', '-N', 'pass phrase', '-f', f('locked')]);
    const r = db8(['sshsig', 'sign', '-n', 'db8', '--key', f('locked'), f('msg')]);
    expect(r.status).toBe(2);
    expectOneLineError(r.stderr, /encrypted/);
  });
});
