import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decodeSshEd25519PublicKey,
  ed25519,
  formatOpenSshPrivateKey,
  formatSshPublicKey,
  parseOpenSshPrivateKey,
  parseSshPublicKey,
  SshKeyError,
  sshFingerprint,
} from '../src/index.ts';
import { requireSshKeygen, sshKeygenOk, TmpDir } from './ssh-keygen-helpers.ts';

function keyError(fn: () => unknown): SshKeyError {
  try {
    fn();
  } catch (e) {
    if (e instanceof SshKeyError) return e;
    throw e;
  }
  throw new Error('expected an SshKeyError');
}

describe('OpenSSH key formats (interop with ssh-keygen)', () => {
  let dir: TmpDir;
  beforeAll(() => {
    requireSshKeygen();
    dir = new TmpDir();
  });
  afterAll(() => dir?.remove());

  it('parses an ssh-keygen key pair and reproduces its public line and fingerprint', () => {
    const path = dir.keygen('alice', 'alice@example');
    const pubLine = dir.read('alice.pub').trim();
    const priv = parseOpenSshPrivateKey(dir.read('alice'));
    expect(priv.comment).toBe('alice@example');
    expect(ed25519.publicKeyFromSeed(priv.seed)).toEqual(priv.publicKey);
    const pub = parseSshPublicKey(pubLine);
    expect(pub.publicKey).toEqual(priv.publicKey);
    expect(pub.comment).toBe('alice@example');
    expect(formatSshPublicKey(priv.publicKey, 'alice@example')).toBe(pubLine);
    const fp = sshKeygenOk(['-l', '-E', 'sha256', '-f', `${path}.pub`]).stdout.split(' ')[1];
    expect(sshFingerprint(Buffer.from(pubLine.split(' ')[1]!, 'base64'))).toBe(fp);
  });

  it('writes private key files ssh-keygen reads', () => {
    const { seed, publicKey } = ed25519.generateKeyPair();
    const path = dir.write('ours', formatOpenSshPrivateKey(seed, 'ours@db8'));
    const derived = sshKeygenOk(['-y', '-f', path]).stdout.trim();
    expect(derived).toBe(formatSshPublicKey(publicKey, 'ours@db8'));
    const back = parseOpenSshPrivateKey(dir.read('ours'));
    expect(back.seed).toEqual(seed);
    expect(back.comment).toBe('ours@db8');
  });

  it('refuses encrypted private keys with a clear error', () => {
    const path = dir.file('locked');
    sshKeygenOk(['-q', '-t', 'ed25519', '-N', 'secret pass', '-f', path]);
    const err = keyError(() => parseOpenSshPrivateKey(dir.read('locked')));
    expect(err.code).toBe('ENCRYPTED_KEY');
    expect(err.message).toMatch(/encrypted/);
  });

  it('refuses other key types and corrupt files', () => {
    sshKeygenOk(['-q', '-t', 'ecdsa', '-N', '', '-f', dir.file('ec')]);
    expect(keyError(() => parseOpenSshPrivateKey(dir.read('ec'))).code).toBe('UNSUPPORTED_KEY_TYPE');
    expect(keyError(() => parseSshPublicKey(dir.read('ec.pub'))).code).toBe('UNSUPPORTED_KEY_TYPE');
    expect(keyError(() => parseOpenSshPrivateKey('hello')).code).toBe('BAD_KEY');
    // The type in front of the base64 must match the type inside it.
    const line = dir.read('alice.pub').replace('ssh-ed25519', 'ssh-rsa');
    expect(keyError(() => parseSshPublicKey(line)).code).toBe('BAD_KEY');
    // Flip a byte inside the private section: the pair no longer matches.
    const text = formatOpenSshPrivateKey(ed25519.generateKeyPair().seed);
    const body = Buffer.from(text.split('\n').slice(1, -2).join(''), 'base64');
    body[body.length - 60]! ^= 0x01;
    const broken = `-----BEGIN OPENSSH PRIVATE KEY-----\n${body.toString('base64')}\n-----END OPENSSH PRIVATE KEY-----\n`;
    expect(keyError(() => parseOpenSshPrivateKey(broken)).code).toBe('BAD_KEY');
    expect(keyError(() => decodeSshEd25519PublicKey(new Uint8Array([0, 0, 0, 1]))).code).toBe('BAD_KEY');
  });
});
