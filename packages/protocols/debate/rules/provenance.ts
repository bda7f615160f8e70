import {
  ed25519,
  encodeSshEd25519PublicKey,
  fromBase64,
  fromHex,
  sshFingerprint,
  utf8Decode,
  verifySshsig,
} from '@db8/core';
import type { SignatureRecord } from './state.ts';
import type { SubmitAction } from './submission.ts';

/**
 * Provenance (seed §1, §8): a signed submission must carry a valid signature over its canonical
 * bytes by a key bound to its author — a key listed for the seat (config `trust.keys` or a
 * `register_key` action), or for SSHSIG an OpenSSH user certificate from a trusted CA naming the
 * principal `<seat>@<room_id>`. Verification is pure computation (no subprocess, no clock: the
 * certificate's validity is judged at the entry's `now`), so replay reaches the same verdict.
 */

export const SSHSIG_NAMESPACE = 'db8';

export interface TrustFor {
  /** Raw Ed25519 keys (hex) bound to the author's seat. */
  keys: readonly string[];
  /** Raw CA keys (hex) whose certificates may sign (SSHSIG only). */
  caKeys: readonly string[];
  /** The principal a certificate must list: `<seat>@<room_id>`. */
  principal: string;
}

export type ProvenanceOutcome = { ok: true; signature: SignatureRecord } | { ok: false; reason: string };

const fingerprintOfHex = (hex: string): string => sshFingerprint(encodeSshEd25519PublicKey(fromHex(hex)));

function decodeB64(text: string): Uint8Array | null {
  try {
    return fromBase64(text);
  } catch {
    return null;
  }
}

/** Check the signature fields of a submit action against `message` (its canonical bytes). */
export function checkProvenance(
  action: SubmitAction,
  message: Uint8Array,
  trust: TrustFor,
  now: number,
): ProvenanceOutcome {
  const { signature_kind: kind, signature_b64: b64, signer_fingerprint: claimed } = action;
  if (kind === undefined) {
    if (b64 !== undefined || claimed !== undefined) {
      return { ok: false, reason: 'signature fields given without signature_kind' };
    }
    return {
      ok: true,
      signature: { kind: 'server', signature_b64: null, signer_fingerprint: null, via: null },
    };
  }
  if (b64 === undefined) return { ok: false, reason: 'signature_kind given without signature_b64' };
  const raw = decodeB64(b64);
  if (raw === null) return { ok: false, reason: 'signature_b64 is not valid base64' };

  let outcome: ProvenanceOutcome;
  if (kind === 'ed25519') outcome = checkEd25519(raw, message, trust, b64);
  else outcome = checkSshsig(raw, message, trust, now, b64);
  if (outcome.ok && claimed !== undefined && claimed !== outcome.signature.signer_fingerprint) {
    return { ok: false, reason: `signer_fingerprint ${claimed} is not the key that signed` };
  }
  return outcome;
}

function checkEd25519(raw: Uint8Array, message: Uint8Array, trust: TrustFor, b64: string): ProvenanceOutcome {
  if (raw.length !== 64) return { ok: false, reason: 'an Ed25519 signature is 64 bytes' };
  if (trust.keys.length === 0) return { ok: false, reason: 'no key is registered for this author' };
  for (const key of trust.keys) {
    if (ed25519.verify(fromHex(key), message, raw)) {
      return {
        ok: true,
        signature: {
          kind: 'ed25519',
          signature_b64: b64,
          signer_fingerprint: fingerprintOfHex(key),
          via: 'key',
        },
      };
    }
  }
  return { ok: false, reason: "the signature does not verify under any of the author's keys" };
}

function checkSshsig(
  raw: Uint8Array,
  message: Uint8Array,
  trust: TrustFor,
  now: number,
  b64: string,
): ProvenanceOutcome {
  let armored: string;
  try {
    armored = utf8Decode(raw);
  } catch {
    return { ok: false, reason: 'signature_b64 does not hold an armored SSHSIG' };
  }
  const attempts: string[] = [];
  if (trust.keys.length > 0) {
    const r = verifySshsig({
      armored,
      message,
      namespace: SSHSIG_NAMESPACE,
      trust: { publicKeys: trust.keys.map((k) => fromHex(k)) },
    });
    if (r.ok) {
      const signature: SignatureRecord = {
        kind: 'ssh',
        signature_b64: b64,
        signer_fingerprint: r.signer.fingerprint,
        via: 'key',
      };
      return { ok: true, signature };
    }
    attempts.push(`${r.code}: ${r.message}`);
  }
  if (trust.caKeys.length > 0) {
    const r = verifySshsig({
      armored,
      message,
      namespace: SSHSIG_NAMESPACE,
      trust: { caKeys: trust.caKeys.map((k) => fromHex(k)), principal: trust.principal, at: now },
    });
    if (r.ok) {
      const signature: SignatureRecord = {
        kind: 'ssh',
        signature_b64: b64,
        signer_fingerprint: r.signer.fingerprint,
        via: 'certificate',
      };
      return { ok: true, signature };
    }
    attempts.push(`${r.code}: ${r.message}`);
  }
  if (attempts.length === 0) return { ok: false, reason: 'no key or CA is trusted for this author' };
  return { ok: false, reason: attempts.join('; ') };
}
