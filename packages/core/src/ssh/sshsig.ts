// SSHSIG (OpenSSH PROTOCOL.sshsig): armored detached signatures as made by `ssh-keygen -Y sign`,
// for Ed25519 keys and Ed25519 user certificates. Verified in-process; nothing here spawns ssh-keygen.
import { z } from 'zod';
import { bytesEqual, fromBase64, toBase64, toHex, utf8Encode } from '../crypto/bytes.ts';
import { publicKeyFromSeed, sign, verify } from '../crypto/ed25519.ts';
import { sha256, sha512 } from '../crypto/hash.ts';
import {
  CertificateCheckSchema,
  checkParsedCertificate,
  parseCertificate,
  parseCertificateLine,
  SSH_ED25519_CERT,
  type SshCertificate,
} from './cert.ts';
import { failure, SshVerifyError, type SshVerifyFailure } from './errors.ts';
import { encodeSshEd25519PublicKey, parseSshPublicKey, SSH_ED25519, sshFingerprint } from './keys.ts';
import { SshReader, SshWireError, SshWriter } from './wire.ts';

export const SSHSIG_BEGIN = '-----BEGIN SSH SIGNATURE-----';
export const SSHSIG_END = '-----END SSH SIGNATURE-----';
export const SSHSIG_HASHES = ['sha256', 'sha512'] as const;
export type SshsigHash = (typeof SSHSIG_HASHES)[number];

const MAGIC = utf8Encode('SSHSIG');

export type ParsedSshsig = {
  namespace: string;
  hashAlgorithm: SshsigHash;
  /** Raw 64-byte Ed25519 signature over the SSHSIG signed data. */
  signature: Uint8Array;
  /** The publickey field: a plain ssh-ed25519 key blob or a certificate blob. */
  publicKeyBlob: Uint8Array;
  /** The key that made the signature (for a certificate: the certified key). */
  publicKey: Uint8Array;
  certificate: SshCertificate | null;
};

function dearmor(armored: string): Uint8Array {
  const text = armored.trim();
  if (!text.startsWith(SSHSIG_BEGIN) || !text.endsWith(SSHSIG_END)) {
    throw new SshVerifyError('MALFORMED', 'not an armored SSH signature (-----BEGIN SSH SIGNATURE-----)');
  }
  const b64 = text.slice(SSHSIG_BEGIN.length, text.length - SSHSIG_END.length).replace(/\s+/g, '');
  try {
    return fromBase64(b64);
  } catch {
    throw new SshVerifyError('MALFORMED', 'SSH signature has invalid base64');
  }
}

/** Parse an armored SSHSIG. Throws SshVerifyError (MALFORMED, UNSUPPORTED_*). */
export function parseSshsig(armored: string): ParsedSshsig {
  const blob = dearmor(armored);
  try {
    if (blob.length < 6 || !bytesEqual(blob.subarray(0, 6), MAGIC)) {
      throw new SshVerifyError('MALFORMED', 'missing SSHSIG magic');
    }
    const r = new SshReader(blob.subarray(6));
    const version = r.readUint32('version');
    if (version !== 1)
      throw new SshVerifyError('UNSUPPORTED_VERSION', `unsupported SSHSIG version ${version}`);
    const publicKeyBlob = r.readString('public key');
    const namespace = r.readText('namespace');
    r.readString('reserved'); // PROTOCOL.sshsig: ignore if not empty
    const hash = r.readText('hash algorithm');
    const sigBlob = r.readString('signature');
    r.end('SSH signature');
    if (hash !== 'sha256' && hash !== 'sha512') {
      throw new SshVerifyError('UNSUPPORTED_HASH', `unsupported hash algorithm ${JSON.stringify(hash)}`);
    }

    const keyType = new SshReader(publicKeyBlob).readText('key type');
    let publicKey: Uint8Array;
    let certificate: SshCertificate | null = null;
    if (keyType === SSH_ED25519_CERT) {
      certificate = parseCertificate(publicKeyBlob);
      publicKey = certificate.publicKey;
    } else if (keyType === SSH_ED25519) {
      const kr = new SshReader(publicKeyBlob);
      kr.readText('key type');
      publicKey = kr.readString('public key');
      kr.end('public key');
      if (publicKey.length !== 32)
        throw new SshVerifyError('MALFORMED', 'Ed25519 public key must be 32 bytes');
    } else {
      throw new SshVerifyError('UNSUPPORTED_KEY_TYPE', `unsupported signing key type ${keyType}`);
    }

    const sr = new SshReader(sigBlob);
    const sigType = sr.readText('signature type');
    // ssh-keygen signs with a certificate using the plain algorithm name.
    if (sigType !== SSH_ED25519)
      throw new SshVerifyError('UNSUPPORTED_KEY_TYPE', `unsupported signature ${sigType}`);
    const signature = sr.readString('signature');
    sr.end('signature');
    if (signature.length !== 64) throw new SshVerifyError('MALFORMED', 'Ed25519 signature must be 64 bytes');
    return { namespace, hashAlgorithm: hash, signature, publicKeyBlob, publicKey, certificate };
  } catch (e) {
    if (e instanceof SshWireError)
      throw new SshVerifyError('MALFORMED', `malformed SSH signature: ${e.message}`);
    throw e;
  }
}

/** The bytes the key actually signs: MAGIC, namespace, reserved, hash algorithm, H(message). */
export function sshsigSignedData(
  namespace: string,
  hashAlgorithm: SshsigHash,
  message: Uint8Array,
): Uint8Array {
  // Built in one buffer: this runs for every verification.
  const digest = hashAlgorithm === 'sha512' ? sha512(message) : sha256(message);
  const ns = utf8Encode(namespace);
  const out = new Uint8Array(6 + 4 + ns.length + 4 + 4 + 6 + 4 + digest.length);
  const view = new DataView(out.buffer);
  out.set(MAGIC, 0);
  let o = 6;
  view.setUint32(o, ns.length);
  out.set(ns, o + 4);
  o += 4 + ns.length + 4; // reserved: empty string
  view.setUint32(o, 6);
  out.set(HASH_NAMES[hashAlgorithm], o + 4);
  o += 10;
  view.setUint32(o, digest.length);
  out.set(digest, o + 4);
  return out;
}

const HASH_NAMES: Record<SshsigHash, Uint8Array> = {
  sha256: utf8Encode('sha256'),
  sha512: utf8Encode('sha512'),
};

const bytes = z.custom<Uint8Array>((v) => v instanceof Uint8Array, 'must be a Uint8Array');
const bytes32 = bytes.refine((b) => b.length === 32, 'must be 32 bytes');
const namespaceSchema = z.string().min(1, 'namespace must not be empty');

export const SignSshsigSchema = z.object({
  /** The signer's Ed25519 seed (e.g. from parseOpenSshPrivateKey). */
  seed: bytes32,
  namespace: namespaceSchema,
  message: bytes,
  hashAlgorithm: z.enum(SSHSIG_HASHES).default('sha512'),
  /** Sign "with the certificate": its blob or `*-cert.pub` line goes in the publickey field. */
  certificate: z.union([bytes, z.string()]).optional(),
});
export type SignSshsigInput = z.input<typeof SignSshsigSchema>;

/** Produce an armored SSHSIG, byte-identical to `ssh-keygen -Y sign` for the same inputs. */
export function signSshsig(input: SignSshsigInput): string {
  const i = SignSshsigSchema.parse(input);
  const publicKey = publicKeyFromSeed(i.seed);
  let publicKeyBlob = encodeSshEd25519PublicKey(publicKey);
  if (i.certificate !== undefined) {
    const cert =
      typeof i.certificate === 'string'
        ? parseCertificateLine(i.certificate)
        : parseCertificate(i.certificate);
    if (!bytesEqual(cert.publicKey, publicKey)) throw new Error('certificate does not certify this key');
    publicKeyBlob = cert.blob;
  }
  const sig = sign(i.seed, sshsigSignedData(i.namespace, i.hashAlgorithm, i.message));
  const blob = new SshWriter()
    .raw(MAGIC)
    .uint32(1)
    .string(publicKeyBlob)
    .string(i.namespace)
    .string(new Uint8Array(0))
    .string(i.hashAlgorithm)
    .string(new SshWriter().string(SSH_ED25519).string(sig).bytes())
    .bytes();
  const b64 = toBase64(blob)
    .replace(/(.{70})/g, '$1\n')
    .trimEnd();
  return `${SSHSIG_BEGIN}\n${b64}\n${SSHSIG_END}\n`;
}

/**
 * The same signature with a certificate in its publickey field: `ssh-keygen -Y sign -f id_ed25519`
 * signs with the plain key even when a `-cert.pub` sits beside it, and seed 000's client sends the
 * certificate separately. The publickey field is not part of the signed data, so this changes who
 * vouches for the key (the certificate's CA), never what was signed. Throws when the certificate
 * certifies another key.
 */
export function attachSshsigCertificate(armored: string, certificateLine: string): string {
  const parsed = parseSshsig(armored);
  const cert = parseCertificateLine(certificateLine);
  if (!bytesEqual(cert.publicKey, parsed.publicKey)) {
    throw new SshVerifyError('MALFORMED', 'the certificate does not certify the key that signed');
  }
  const blob = new SshWriter()
    .raw(MAGIC)
    .uint32(1)
    .string(cert.blob)
    .string(parsed.namespace)
    .string(new Uint8Array(0))
    .string(parsed.hashAlgorithm)
    .string(new SshWriter().string(SSH_ED25519).string(parsed.signature).bytes())
    .bytes();
  const b64 = toBase64(blob)
    .replace(/(.{70})/g, '$1\n')
    .trimEnd();
  return `${SSHSIG_BEGIN}\n${b64}\n${SSHSIG_END}\n`;
}

/** A key given as raw 32 bytes or as an `ssh-ed25519 AAAA…` line. */
const keyInput = z.union([
  bytes32,
  z.string().transform((line, ctx) => {
    try {
      return parseSshPublicKey(line).publicKey;
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: (e as Error).message });
      return z.NEVER;
    }
  }),
]);

/** allowed_signers with plain keys. */
const KeysTrustSchema = z.strictObject({ publicKeys: z.array(keyInput).min(1) });
/** allowed_signers `cert-authority` lines: certificates from these CAs naming `principal`, valid at `at`. */
const CaTrustSchema = z.strictObject({ ...CertificateCheckSchema.shape, caKeys: z.array(keyInput).min(1) });
export const SshsigTrustSchema = z.union([KeysTrustSchema, CaTrustSchema]);
export type SshsigTrust = z.input<typeof SshsigTrustSchema>;

const VerifyArgsSchema = z.object({ armored: z.string(), message: bytes, namespace: namespaceSchema });
export const VerifySshsigSchema = VerifyArgsSchema.extend({ trust: SshsigTrustSchema });
export type VerifySshsigInput = z.input<typeof VerifySshsigSchema>;

// Validate the trust with the one schema its shape selects: a failed union branch costs more than
// the signature parse, and verification sits on every entry's hot path.
function parseVerifyInput(input: VerifySshsigInput) {
  const args = VerifyArgsSchema.safeParse(input);
  if (!args.success) return args;
  const t: unknown = (input as { trust?: unknown }).trust;
  const trust =
    t !== null && typeof t === 'object' && 'publicKeys' in t
      ? KeysTrustSchema.safeParse(t)
      : CaTrustSchema.safeParse(t);
  if (!trust.success) return trust;
  return { success: true as const, data: { ...args.data, trust: trust.data } };
}

// Fingerprints are reported for every verification; remember them per key. Recency does not matter
// here, so the map is simply emptied when it fills up.
const fingerprints = new Map<string, string>();
function fingerprintOf(publicKey: Uint8Array): string {
  const id = toHex(publicKey);
  let fp = fingerprints.get(id);
  if (fp === undefined) {
    fp = sshFingerprint(encodeSshEd25519PublicKey(publicKey));
    if (fingerprints.size >= 1024) fingerprints.clear();
    fingerprints.set(id, fp);
  }
  return fp;
}

export type SshsigSigner =
  | { kind: 'key'; publicKey: Uint8Array; fingerprint: string }
  | {
      kind: 'certificate';
      publicKey: Uint8Array;
      fingerprint: string;
      /** The required principal, which the certificate lists. */
      principal: string;
      principals: string[];
      keyId: string;
      serial: bigint;
      caPublicKey: Uint8Array;
      caFingerprint: string;
      validAfter: bigint;
      validBefore: bigint;
      certificate: SshCertificate;
    };

export type VerifySshsigResult =
  | { ok: true; signer: SshsigSigner; namespace: string; hashAlgorithm: SshsigHash }
  | SshVerifyFailure;

/**
 * Verify an armored SSHSIG over `message` for `namespace` against `trust`. Never throws for bad
 * signatures or input; the failure code says what was wrong. With `publicKeys` trust a certificate-
 * signed signature is judged by its certified key (as `ssh-keygen -Y verify` does with a plain line).
 */
export function verifySshsig(input: VerifySshsigInput): VerifySshsigResult {
  const parsedInput = parseVerifyInput(input);
  if (!parsedInput.success)
    return failure('MALFORMED', `invalid arguments: ${parsedInput.error.issues[0]?.message}`);
  const { armored, message, namespace, trust } = parsedInput.data;
  let sig: ParsedSshsig;
  try {
    sig = parseSshsig(armored);
  } catch (e) {
    if (e instanceof SshVerifyError) return failure(e.code, e.message);
    return failure('MALFORMED', (e as Error).message);
  }
  if (sig.namespace !== namespace) {
    return failure(
      'NAMESPACE_MISMATCH',
      `signature is for namespace ${JSON.stringify(sig.namespace)}, not ${JSON.stringify(namespace)}`,
    );
  }
  const fingerprint = fingerprintOf(sig.publicKey);
  let signer: SshsigSigner;
  if ('publicKeys' in trust) {
    if (!trust.publicKeys.some((k) => bytesEqual(k, sig.publicKey))) {
      return failure('UNTRUSTED_KEY', `signing key ${fingerprint} is not allowed`);
    }
    signer = { kind: 'key', publicKey: sig.publicKey, fingerprint };
  } else {
    const cert = sig.certificate;
    if (!cert)
      return failure('UNTRUSTED_KEY', `signed by plain key ${fingerprint}; a certificate is required`);
    const bad = checkParsedCertificate(cert, trust);
    if (bad) return bad;
    signer = {
      kind: 'certificate',
      publicKey: cert.publicKey,
      fingerprint,
      principal: trust.principal,
      principals: cert.principals,
      keyId: cert.keyId,
      serial: cert.serial,
      caPublicKey: cert.caPublicKey,
      caFingerprint: fingerprintOf(cert.caPublicKey),
      validAfter: cert.validAfter,
      validBefore: cert.validBefore,
      certificate: cert,
    };
  }
  if (!verify(sig.publicKey, sshsigSignedData(sig.namespace, sig.hashAlgorithm, message), sig.signature)) {
    return failure('BAD_SIGNATURE', 'signature does not verify for this message');
  }
  return { ok: true, signer, namespace: sig.namespace, hashAlgorithm: sig.hashAlgorithm };
}
