import { readFileSync } from 'node:fs';
import { parseOpenSshPrivateKey } from '@db8/core';
import { DEFAULT_NOTE_NAME, loadOrCreateServerKey, type ServerKey, serverKeyFromSeed } from './server-key.ts';

const BEGIN = '-----BEGIN OPENSSH PRIVATE KEY-----';

/**
 * The server key named by deployment config (DB8_SERVER_KEY): the path of an unencrypted OpenSSH
 * Ed25519 private key file, or the key text itself (real newlines, or `\n` escapes as a one-line
 * env var or secret store gives it). Every node of a cluster is given the same key, so checkpoints,
 * session tokens and room certificates from any node verify on all of them. Errors never echo the
 * value: it may be the secret itself.
 */
export function serverKeyFromSetting(setting: string, noteName?: string): ServerKey {
  const name = noteName ?? process.env.DB8_KEY_NAME ?? DEFAULT_NOTE_NAME;
  let text: string;
  if (setting.includes(BEGIN)) {
    text = setting.includes('\n') ? setting : setting.replaceAll('\\n', '\n');
  } else {
    try {
      text = readFileSync(setting.trim(), 'utf8');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? 'unreadable';
      throw new Error(`DB8_SERVER_KEY: cannot read the key file (${code}); give a path or the key text`);
    }
  }
  try {
    return serverKeyFromSeed(parseOpenSshPrivateKey(text).seed, name);
  } catch (e) {
    throw new Error(`DB8_SERVER_KEY: not a usable server key: ${(e as Error).message}`);
  }
}

/** The configured key when there is one, else the data directory's own (created on first start). */
export function resolveServerKey(dataDir: string, setting: string | undefined): ServerKey {
  return setting ? serverKeyFromSetting(setting) : loadOrCreateServerKey(dataDir);
}
