import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { openNote, parseVerifierKey, signNote, toHex, utf8Encode, verifySshsig } from '@db8/core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  generateServerKey,
  loadOrCreateServerKey,
  SERVER_KEY_FILE,
  SERVER_PUBKEY_FILE,
  serverKeyFromSeed,
} from '../src/keys/index.ts';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'db8-key-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('server key', () => {
  it('is created on first start with file mode 0600 and reloaded unchanged', () => {
    const dir = join(tempDir(), 'data');
    const a = loadOrCreateServerKey(dir);
    expect(statSync(join(dir, SERVER_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o077).toBe(0);
    expect(readFileSync(join(dir, SERVER_KEY_FILE), 'utf8')).toContain('BEGIN OPENSSH PRIVATE KEY');
    expect(readFileSync(join(dir, SERVER_PUBKEY_FILE), 'utf8').trim()).toBe(a.sshPublicLine);
    const b = loadOrCreateServerKey(dir);
    expect(toHex(b.publicKey)).toBe(toHex(a.publicKey));
    expect(b.noteVerifierKey).toBe(a.noteVerifierKey);
    expect(toHex(loadOrCreateServerKey(tempDir()).publicKey)).not.toBe(toHex(a.publicKey));
  });

  it('tightens a key file that others can read', () => {
    const dir = tempDir();
    loadOrCreateServerKey(dir);
    chmodSync(join(dir, SERVER_KEY_FILE), 0o644);
    loadOrCreateServerKey(dir);
    expect(statSync(join(dir, SERVER_KEY_FILE)).mode & 0o777).toBe(0o600);
  });

  it('signs C2SP notes that open with its verifier key, and only with it', () => {
    const key = generateServerKey('db8.test');
    const note = signNote('db8.test/room/r1\n3\nAAAA\n', [key.noteSigner]);
    const opened = openNote(note, [parseVerifierKey(key.noteVerifierKey)]);
    expect(opened.text).toBe('db8.test/room/r1\n3\nAAAA\n');
    expect(opened.sigs[0]?.name).toBe('db8.test');
    const other = generateServerKey('db8.test');
    expect(() => openNote(note, [parseVerifierKey(other.noteVerifierKey)])).toThrow();
  });

  it('signs SSHSIG (namespace db8) verifiable against its public line', () => {
    const key = serverKeyFromSeed(new Uint8Array(32).fill(7));
    const msg = utf8Encode('checkpoint');
    const armored = key.sshsig(msg);
    expect(
      verifySshsig({ armored, message: msg, namespace: 'db8', trust: { publicKeys: [key.sshPublicLine] } })
        .ok,
    ).toBe(true);
    expect(
      verifySshsig({
        armored,
        message: utf8Encode('other'),
        namespace: 'db8',
        trust: { publicKeys: [key.publicKey] },
      }).ok,
    ).toBe(false);
  });

  it('never shows its seed in JSON or inspect output', () => {
    const seed = new Uint8Array(32).fill(0xab);
    const key = serverKeyFromSeed(seed);
    const seedHex = toHex(seed);
    expect(JSON.stringify(key)).not.toContain(seedHex);
    expect(JSON.stringify({ key })).not.toContain('171,171');
    expect(inspect(key, { depth: 5 })).not.toMatch(/171|ab{8}/);
    expect(toHex(key.seed)).toBe(seedHex); // still usable by code that asks for it
  });
});
