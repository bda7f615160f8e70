import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatOpenSshPrivateKey, parseVerifierKey, toHex, verifyCheckpoint } from '@db8/core';
import { Db8Client } from '@db8/sdk';
import { type RunningServer, startServer } from 'db8/server';
import { afterAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../src/config.ts';
import { SERVER_KEY_FILE, serverKeyFromSeed, serverKeyFromSetting } from '../src/keys/index.ts';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'db8-keyset-'));
  dirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const SEED = Uint8Array.from({ length: 32 }, (_, i) => i * 7 + 3);
const KEY_TEXT = formatOpenSshPrivateKey(SEED, 'cluster');
const EXPECTED = serverKeyFromSeed(SEED);

describe('DB8_SERVER_KEY', () => {
  it('takes a key file path, the key text, or the text with \\n escapes — all the same key', () => {
    const path = join(tempDir(), 'cluster_ed25519');
    writeFileSync(path, KEY_TEXT, { mode: 0o600 });
    const oneLine = KEY_TEXT.replaceAll('\n', '\\n');
    expect(oneLine).not.toContain('\n');
    for (const setting of [path, ` ${path}\n`, KEY_TEXT, oneLine]) {
      const k = serverKeyFromSetting(setting);
      expect(toHex(k.publicKey)).toBe(toHex(EXPECTED.publicKey));
      expect(k.noteVerifierKey).toBe(EXPECTED.noteVerifierKey);
    }
    expect(serverKeyFromSetting(path, 'db8.example').noteName).toBe('db8.example');
  });

  it('reads a key made by the real ssh-keygen', () => {
    const path = join(tempDir(), 'id_ed25519');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'node', '-f', path]);
    const k = serverKeyFromSetting(path);
    const pub = readFileSync(`${path}.pub`, 'utf8').split(' ').slice(0, 2).join(' ');
    expect(k.sshPublicLine.startsWith(pub)).toBe(true);
  });

  it('refuses a missing file, a broken key and an encrypted key without echoing the value', () => {
    expect(() => serverKeyFromSetting(join(tempDir(), 'nope'))).toThrow(
      /DB8_SERVER_KEY: cannot read the key file \(ENOENT\)/,
    );
    const broken = KEY_TEXT.replace(/\n[A-Za-z0-9+/]{20}/, '\n!!!!');
    const err = (() => {
      try {
        serverKeyFromSetting(broken);
      } catch (e) {
        return e as Error;
      }
      return null;
    })();
    expect(err?.message).toMatch(/^DB8_SERVER_KEY: not a usable server key/);
    expect(err?.message).not.toContain(KEY_TEXT.split('\n')[1]!.slice(0, 16));

    const enc = join(tempDir(), 'enc_ed25519');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', 'secret-pass', '-f', enc]);
    expect(() => serverKeyFromSetting(enc)).toThrow(/DB8_SERVER_KEY: not a usable server key/);
  });

  it('is read from the environment', () => {
    expect(configFromEnv({ DB8_SERVER_KEY: '/etc/db8/key' }).serverKey).toBe('/etc/db8/key');
    expect(configFromEnv({}).serverKey).toBeUndefined();
  });

  it('two nodes given one key sign checkpoints with it and create no key of their own', async () => {
    const keyPath = join(tempDir(), 'cluster_ed25519');
    writeFileSync(keyPath, KEY_TEXT, { mode: 0o600 });
    const verifier = parseVerifierKey(EXPECTED.noteVerifierKey);
    const servers: RunningServer[] = [];
    try {
      const base = { port: 0, logLevel: 'silent' as const, adminLink: true, print: () => {} };
      // One node from the environment (as `db8 start` reads it), one from an option with the key text.
      const dataDirs = [tempDir(), tempDir()] as const;
      servers.push(await startServer({ ...base, dataDir: dataDirs[0], env: { DB8_SERVER_KEY: keyPath } }));
      servers.push(await startServer({ ...base, dataDir: dataDirs[1], env: false, serverKey: KEY_TEXT }));
      for (const d of dataDirs) expect(existsSync(join(d, SERVER_KEY_FILE))).toBe(false);
      const origins: string[] = [];
      for (const s of servers) {
        expect(toHex(s.runtime.serverKey.publicKey)).toBe(toHex(EXPECTED.publicKey));
        const c = new Db8Client({ baseUrl: s.url });
        const admin = c.withToken((await c.adminLogin(s.adminLink!.split('#token=')[1]!)).token);
        const room = await admin.createRoom({
          protocol: 'sealed-bid',
          config: {
            item: 'key',
            bidders: 2,
            reservePrice: 1,
            biddingWindowMs: 60_000,
            revealWindowMs: 60_000,
            rule: 'first-price',
          },
        });
        const { checkpoints } = await c.checkpoints(room.room_id);
        expect(checkpoints.length).toBeGreaterThan(0);
        for (const cp of checkpoints) {
          const v = verifyCheckpoint(cp.note, [verifier]);
          origins.push(v.checkpoint.origin);
        }
      }
      expect(new Set(origins).size).toBe(2); // two rooms, both signed by the one cluster key
    } finally {
      for (const s of servers) await s.close();
    }
  }, 180_000); // two embedded Postgres boots on a shared machine
});
