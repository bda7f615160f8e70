import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ed25519, formatOpenSshPrivateKey, formatSshPublicKey, parseOpenSshPrivateKey } from '@db8/core';

/**
 * The Ed25519 key that signs the checkpoints of rooms run locally (no server), kept in the home
 * as an OpenSSH key (0600) with its `.pub` beside it: pin it with `db8 verify --key <home>/local_ed25519.pub`.
 * Created on first use; the file appears atomically (hard link), so two runs starting together agree.
 */
export const LOCAL_KEY_FILE = 'local_ed25519';

export function loadOrCreateLocalKey(home: string): { seed: Uint8Array; publicLine: string; path: string } {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const path = join(home, LOCAL_KEY_FILE);
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fresh = new Uint8Array(randomBytes(32));
  writeFileSync(tmp, formatOpenSshPrivateKey(fresh, 'db8-local'), { mode: 0o600, flag: 'wx' });
  chmodSync(tmp, 0o600); // the mode given to open() is masked by the umask
  let created = false;
  try {
    linkSync(tmp, path);
    created = true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    unlinkSync(tmp);
  }
  const seed = created ? fresh : parseOpenSshPrivateKey(readFileSync(path, 'utf8')).seed;
  const publicLine = formatSshPublicKey(ed25519.publicKeyFromSeed(seed), 'db8-local');
  if (created) writeFileSync(`${path}.pub`, `${publicLine}\n`, { mode: 0o644 });
  return { seed, publicLine, path };
}
