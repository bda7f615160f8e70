import { randomBytes } from 'node:crypto';
import {
  encodeSshEd25519PublicKey,
  type ParsedSshsig,
  parseSshsig,
  type SshsigTrust,
  sshFingerprint,
  verifySshsig,
} from '@db8/core';
import { ApiError } from '../errors.ts';
import type { AuthStore } from './types.ts';

export const SSH_NAMESPACE = 'db8';
export const SSH_AUDIENCE = 'db8';

export interface SshIdentity {
  principal: string;
  room: string | null;
  seat: string | null;
  kind: 'key' | 'certificate';
  fingerprint: string;
}

export interface SshLoginOptions {
  store: AuthStore;
  ttlSec: number;
  /** CA keys trusted for room certificates (`anon_N@room_<id>`). */
  roomCaKeys: (roomId: string) => Promise<Uint8Array[]>;
  clock?: () => number;
}

const NONCE_PREFIX = 'db8-login:';

/** `db8-login:<room|*>:<random>` -> the room it was issued for. */
export function parseNonce(nonce: string): { roomId: string | null } | null {
  const m = /^db8-login:([A-Za-z0-9_-]{1,128}|\*):[A-Za-z0-9_-]{32}$/.exec(nonce);
  if (!m) return null;
  return { roomId: m[1] === '*' ? null : m[1]! };
}

const invalidNonce = (why: string) => new ApiError(401, 'NONCE_INVALID', why);
const badSig = (why: string, code?: string) =>
  new ApiError(401, 'SIGNATURE_INVALID', why, code ? { reason: code } : undefined);

/** `anon_3@room_abc` -> seat `anon_3`, room part `room_abc`. */
export function splitPrincipal(p: string): { seat: string; roomPart: string } | null {
  const m = /^([A-Za-z0-9_-]{1,128})@([A-Za-z0-9_-]{1,128})$/.exec(p);
  return m ? { seat: m[1]!, roomPart: m[2]! } : null;
}

/** A certificate principal is bound to a room when its host part names that room (with or without `room_`). */
export function principalBindsRoom(roomPart: string, roomId: string): boolean {
  return roomPart === roomId || roomPart === `room_${roomId}`;
}

/** Accept the armored form, or its base64 (as `base64 -w0 nonce.txt.sig` prints it). */
export function normalizeArmored(sig: string): string {
  const s = sig.trim();
  if (s.startsWith('-----BEGIN')) return s;
  if (!/^[A-Za-z0-9+/=\s]+$/.test(s)) return s;
  return Buffer.from(s, 'base64').toString('utf8');
}

/**
 * SSH challenge login (seed 000 §1): a single-use nonce with expiry and audience, signed with
 * `ssh-keygen -Y sign -n db8`. A plain key must be registered to a principal; a certificate must come
 * from the room CA and name `<seat>@<room>` for the room the challenge was issued for.
 */
export class SshLogin {
  private readonly clock: () => number;
  constructor(private readonly opts: SshLoginOptions) {
    this.clock = opts.clock ?? Date.now;
  }

  async challenge(roomId: string | null): Promise<{
    nonce: string;
    expiresAt: Date;
    audience: string;
    roomId: string | null;
  }> {
    // The signed text names its purpose and room, so a signature for anything else never matches.
    const nonce = `${NONCE_PREFIX}${roomId ?? '*'}:${randomBytes(24).toString('base64url')}`;
    const now = this.clock();
    const expiresAt = now + this.opts.ttlSec * 1000;
    await this.opts.store.putNonce({ nonce, audience: SSH_AUDIENCE, createdAt: now, expiresAt });
    return { nonce, expiresAt: new Date(expiresAt), audience: SSH_AUDIENCE, roomId };
  }

  /**
   * `room` is for a challenge issued for no room (`*`), as seed 000's `GET /auth/challenge` is:
   * the room a certificate login is for, named by the caller's principal (routes/seed-auth.ts).
   */
  async verify(
    input: { nonce: string; signature: string; principal?: string },
    opts: { room?: string } = {},
  ): Promise<SshIdentity> {
    // The room is part of the signed nonce text; parse it before touching the store.
    const parsedNonce = parseNonce(input.nonce);
    if (!parsedNonce) throw invalidNonce('not a db8 login challenge');
    const rec = { roomId: parsedNonce.roomId ?? opts.room ?? null };
    // Consume first: a nonce is burnt by any attempt, so a wrong guess cannot be retried.
    const now = this.clock();
    if (!(await this.opts.store.consumeNonce(input.nonce, SSH_AUDIENCE, now))) {
      throw invalidNonce('unknown, expired or already used challenge');
    }

    const armored = normalizeArmored(input.signature);
    let parsed: ParsedSshsig;
    try {
      parsed = parseSshsig(armored);
    } catch (e) {
      throw badSig(`malformed signature: ${(e as Error).message}`, 'MALFORMED');
    }
    const fingerprint = sshFingerprint(encodeSshEd25519PublicKey(parsed.publicKey));

    let trust: SshsigTrust;
    let identity: Omit<SshIdentity, 'fingerprint' | 'kind'>;
    if (parsed.certificate) {
      if (!rec.roomId) throw badSig('certificate logins need a challenge for a room (room_id)');
      const principal =
        input.principal ??
        parsed.certificate.principals.find((p) => {
          const s = splitPrincipal(p);
          return s !== null && principalBindsRoom(s.roomPart, rec.roomId!);
        });
      const split = principal ? splitPrincipal(principal) : null;
      if (!principal || !split) throw badSig('certificate names no principal for this room');
      if (!principalBindsRoom(split.roomPart, rec.roomId)) {
        throw new ApiError(403, 'FORBIDDEN', `principal ${principal} is not bound to room ${rec.roomId}`);
      }
      const caKeys = await this.opts.roomCaKeys(rec.roomId);
      if (caKeys.length === 0) throw badSig('room has no certificate authority');
      trust = { caKeys, principal, at: now };
      identity = { principal, room: rec.roomId, seat: split.seat };
    } else {
      const owner = await this.opts.store.principalByKey(fingerprint);
      if (!owner) throw badSig(`key ${fingerprint} is not registered`, 'UNTRUSTED_KEY');
      trust = { publicKeys: [parsed.publicKey] };
      identity = { principal: owner, room: rec.roomId, seat: null };
    }

    // `jq -r .nonce > nonce.txt` adds a newline; accept exactly the nonce or the nonce plus "\n".
    let last: { code: string; message: string } | null = null;
    for (const text of [input.nonce, `${input.nonce}\n`]) {
      const r = verifySshsig({
        armored,
        message: new TextEncoder().encode(text),
        namespace: SSH_NAMESPACE,
        trust,
      });
      if (r.ok) return { ...identity, kind: parsed.certificate ? 'certificate' : 'key', fingerprint };
      last = r;
      if (r.code !== 'BAD_SIGNATURE') break;
    }
    throw badSig(last?.message ?? 'signature does not verify', last?.code);
  }
}

/**
 * Which of `nonces` an SSHSIG signs (as sent or with `jq -r`'s newline), judged by the key inside
 * the signature alone: it finds the challenge; it proves nothing (verify() does, with the trust).
 */
export function signedNonce(signature: string, nonces: Iterable<string>): string | null {
  let parsed: ParsedSshsig;
  const armored = normalizeArmored(signature);
  try {
    parsed = parseSshsig(armored);
  } catch {
    return null;
  }
  for (const nonce of nonces) {
    for (const text of [nonce, `${nonce}\n`]) {
      const r = verifySshsig({
        armored,
        message: new TextEncoder().encode(text),
        namespace: SSH_NAMESPACE,
        trust: { publicKeys: [parsed.publicKey] },
      });
      if (r.ok) return nonce;
    }
  }
  return null;
}
