// A cast of scripted participants for a debate room, over the SDK: agents registered once (and
// reused across rooms), seats taken with their API keys, signers for some debaters.
import {
  ed25519,
  encodeSshEd25519PublicKey,
  formatSshPublicKey,
  signSshsig,
  sshFingerprint,
  toBase64,
  utf8Encode,
} from '@db8/core';
import { type Db8Client, issueRoomCert } from '@db8/sdk';
import { type DebateConfigInput, debate } from '../rules/index.ts';
import { type ActRecord, driveSeat, type SignFields } from './driver.ts';

export interface Agent {
  name: string;
  agentId: string;
  apiKey: string;
}

export interface SeatHandle {
  seat: string;
  principal: string;
  client: Db8Client;
  sign?: (bytes: Uint8Array) => SignFields;
  registerKey?: string;
}

/** Every seat of a config's cast, in the protocol's order. */
export function castSeats(c: { debaters: number; judges: number; viewers: number }): string[] {
  const r = (n: number, p: string) => Array.from({ length: n }, (_, i) => `${p}_${i + 1}`);
  return [...r(c.debaters, 'anon'), 'fact_checker', ...r(c.judges, 'judge'), ...r(c.viewers, 'viewer')];
}

/** `scripted`: flag the agents so the debate ratings leave them out by default (docs/debate.md). */
export async function registerAgents(
  api: Db8Client,
  names: readonly string[],
  opts: { scripted?: boolean } = {},
): Promise<Agent[]> {
  const out: Agent[] = [];
  for (const name of names) {
    const a = await api.registerAgent({ name, ...(opts.scripted ? { metadata: { scripted: true } } : {}) });
    out.push({ name, agentId: a.agent_id, apiKey: a.api_key });
  }
  return out;
}

export async function createDebate(
  admin: Db8Client,
  config: DebateConfigInput,
  title: string,
): Promise<string> {
  const room = await admin.createRoom({ protocol: 'debate', config: config as never, title });
  return room.room_id;
}

/**
 * Each agent joins its seat. The privileged seats (moderator, fact-checker) are given, not taken:
 * `admin` issues an invite for the seat and the agent joins with it, keeping its own identity.
 */
export async function takeSeats(
  api: Db8Client,
  roomId: string,
  seats: readonly string[],
  agents: readonly Agent[],
  admin?: Db8Client,
) {
  const handles: SeatHandle[] = [];
  for (const [i, seat] of seats.entries()) {
    const agent = agents[i];
    if (!agent) throw new Error(`no agent for ${seat}`);
    const invite =
      admin && debate.privilegedRoles?.includes(seat)
        ? (await admin.createInvite(roomId, { seat })).invite
        : undefined;
    const j = await api.withToken(agent.apiKey).join(roomId, { seat, ...(invite ? { invite } : {}) });
    handles.push({ seat, principal: j.principal, client: api.withToken(j.session_token) });
  }
  return handles;
}

const fields = (armored: string, publicKey: Uint8Array): SignFields => ({
  signature_kind: 'ssh',
  signature_b64: toBase64(utf8Encode(armored)),
  signer_fingerprint: sshFingerprint(encodeSshEd25519PublicKey(publicKey)),
});

/** A plain-key signer: the driver registers the key for the seat, then signs every submission. */
export function keySigner(h: SeatHandle, seed: Uint8Array): void {
  const { publicKey } = ed25519.keyPairFromSeed(seed);
  h.registerKey = formatSshPublicKey(publicKey, `${h.seat}-scripted`);
  h.sign = (bytes) => fields(signSshsig({ seed, namespace: 'db8', message: bytes }), publicKey);
}

/** A room-certificate signer: the room CA certifies a fresh key for `<seat>@<room>`. */
export async function certSigner(h: SeatHandle, roomId: string, seed: Uint8Array): Promise<string> {
  const { publicKey } = ed25519.keyPairFromSeed(seed);
  const cert = await issueRoomCert(h.client, roomId, {
    public_key: formatSshPublicKey(publicKey),
    ttl_sec: 3600,
  });
  h.sign = (bytes) =>
    fields(signSshsig({ seed, namespace: 'db8', message: bytes, certificate: cert.certificate }), publicKey);
  return cert.principal;
}

/** Drive every seat to the close; resolves with all acts (seat order). */
export async function playCast(
  roomId: string,
  handles: readonly SeatHandle[],
  opts: { signal?: AbortSignal; onAct?: (r: ActRecord) => void } = {},
): Promise<ActRecord[]> {
  const all = await Promise.all(
    handles.map((h) =>
      driveSeat({
        client: h.client,
        roomId,
        seat: h.seat,
        ...(h.sign ? { sign: h.sign } : {}),
        ...(h.registerKey ? { registerKey: h.registerKey } : {}),
        ...(opts.signal ? { signal: opts.signal } : {}),
        ...(opts.onAct ? { onAct: opts.onAct } : {}),
      }),
    ),
  );
  return all.flat();
}
