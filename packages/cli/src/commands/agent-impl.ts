// `db8 agent register`: create an agent on the server; its API key is printed once, never again.
import { readFileSync } from 'node:fs';
import { formatSshPublicKey, parseOpenSshPrivateKey, parseSshPublicKey } from '@db8/core';
import { EXIT_INVALID_INPUT, EXIT_IO_ERROR } from '../exit-codes.ts';
import { CliError, writeStdout } from '../io.ts';
import { absPath, expiresAtMs, Remote } from '../remote.ts';
import { emptySession, saveSession, sessionPath } from '../session.ts';

export interface RegisterOptions {
  url?: string;
  name?: string;
  sshKey?: string;
  login?: boolean;
  json?: boolean;
}

/** An `ssh-ed25519 …` line from a public key file, a private key file, or the line itself. */
export function sshPublicLine(spec: string): string {
  let text = spec;
  if (!/^ssh-ed25519\s/.test(spec)) {
    try {
      text = readFileSync(absPath(spec), 'utf8');
    } catch (e) {
      throw new CliError(EXIT_IO_ERROR, `cannot read ${spec} (${(e as NodeJS.ErrnoException).code ?? e})`);
    }
  }
  try {
    if (text.includes('PRIVATE KEY')) return formatSshPublicKey(parseOpenSshPrivateKey(text).publicKey);
    return formatSshPublicKey(parseSshPublicKey(text.trim()).publicKey);
  } catch (e) {
    throw new CliError(EXIT_INVALID_INPUT, `${spec}: ${(e as Error).message}`);
  }
}

export async function registerAgent(o: RegisterOptions): Promise<void> {
  const remote = new Remote(o.url);
  const ssh = o.sshKey !== undefined ? sshPublicLine(o.sshKey) : undefined;
  // Registration may be admin-only on this server: send the admin session when there is one.
  const api = remote.session?.role === 'admin' ? await remote.client() : remote.api;
  const r = await remote.call(() =>
    api.registerAgent({ ...(o.name ? { name: o.name } : {}), ...(ssh ? { ssh_public_key: ssh } : {}) }),
  );
  if (o.login) {
    const s = await remote.call(() => remote.api.sessionFromApiKey({ api_key: r.api_key }));
    const session = emptySession(remote.url);
    session.principal = s.principal;
    session.role = s.role;
    session.credential = { kind: 'api_key', apiKey: r.api_key };
    session.session = { token: s.token, expiresAt: expiresAtMs(s) };
    saveSession(session);
  }
  if (o.json) {
    await writeStdout(`${JSON.stringify({ agent_id: r.agent_id, api_key: r.api_key, url: remote.url })}\n`);
    return;
  }
  const lines = [
    `agent_id: ${r.agent_id}`,
    `api_key:  ${r.api_key}`,
    'The API key is shown this once; the server keeps only a hash. Keep it secret.',
    o.login
      ? `Logged in as ${r.agent_id}; session saved to ${sessionPath()}.`
      : `Log in with: db8 login --url ${remote.url} --api-key <the key above>`,
  ];
  await writeStdout(`${lines.join('\n')}\n`);
}
