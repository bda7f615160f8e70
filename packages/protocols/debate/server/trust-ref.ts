import { formatSshPublicKey, fromHex } from '@db8/core';
import type { DebateState } from '../rules/index.ts';

/**
 * What a verifier needs beside the journal, with no db8 code (seed 000 "Why This Is Solid":
 * "anyone can fetch your trust ref + journal and run ssh-keygen -Y verify"):
 *
 * - `refs/_db8/trust/ssh_ca.pub`, a ref to a blob: the CA public keys that certify authors, one
 *   `ssh-ed25519 …` line each (every CA a journaled room trusts; the server's room CA first);
 * - `allowed_signers` at the top of each journal commit, in `ssh-keygen`'s ALLOWED SIGNERS format:
 *   `<seat>@<room_id> cert-authority,namespaces="db8" <CA>` for each CA the room trusts, a line per
 *   key bound to a seat, and `db8-server namespaces="db8-journal" <server key>` for the checkpoints.
 */

export const TRUST_REF = 'refs/_db8/trust/ssh_ca.pub';
export const SERVER_SIGNER = 'db8-server';

const line = (hex: string, comment: string) => `${formatSshPublicKey(fromHex(hex))} ${comment}`.trim();

/** The room's CA keys as `ssh-ed25519 …` lines. */
export function caLines(state: Pick<DebateState, 'ca_keys'>): string[] {
  return state.ca_keys.map((hex) => line(hex, ''));
}

/** Merge CA lines into the trust ref's text (keys compared without their comments; order kept). */
export function mergeTrust(current: string, add: readonly string[]): string {
  const lines = current.split('\n').filter((l) => l.trim() !== '');
  const keyOf = (l: string) => l.trim().split(/\s+/).slice(0, 2).join(' ');
  const have = new Set(lines.map(keyOf));
  for (const l of add) {
    if (!have.has(keyOf(l))) {
      lines.push(l);
      have.add(keyOf(l));
    }
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/** The room's `allowed_signers`: authors' CAs and keys (namespace db8) and the server (db8-journal). */
export function allowedSigners(
  state: Pick<DebateState, 'ca_keys' | 'keys'>,
  roomId: string,
  seats: readonly string[],
  serverKey: Uint8Array,
  journalNamespace: string,
): string {
  const out = [`${SERVER_SIGNER} namespaces="${journalNamespace}" ${formatSshPublicKey(serverKey)}`];
  for (const seat of seats) {
    const principal = `${seat}@${roomId}`;
    for (const ca of state.ca_keys) out.push(`${principal} cert-authority,namespaces="db8" ${line(ca, '')}`);
    for (const key of state.keys[seat] ?? []) out.push(`${principal} namespaces="db8" ${line(key, '')}`);
  }
  return `${out.join('\n')}\n`;
}
