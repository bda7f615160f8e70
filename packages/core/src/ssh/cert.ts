// OpenSSH user certificates for Ed25519 keys (PROTOCOL.certkeys, `ssh-ed25519-cert-v01@openssh.com`):
// parse, check (CA signature, type, validity at a given time, principal, critical options) and create.
import { z } from 'zod';
import { bytesEqual, toBase64, toHex } from '../crypto/bytes.ts';
import { publicKeyFromSeed, sign, verify } from '../crypto/ed25519.ts';
import { sha256 } from '../crypto/hash.ts';
import { BoundedCache } from '../crypto/lru.ts';
import { failure, SshVerifyError, type SshVerifyFailure } from './errors.ts';
import {
  decodeSshEd25519PublicKey,
  encodeSshEd25519PublicKey,
  SSH_ED25519,
  SshKeyError,
  splitSshKeyLine,
  sshFingerprint,
} from './keys.ts';
import { decodeTextList, encodeStringList, SshReader, SshWireError, SshWriter } from './wire.ts';

export const SSH_ED25519_CERT = 'ssh-ed25519-cert-v01@openssh.com';
export const SSH_CERT_TYPE_USER = 1;
export const SSH_CERT_TYPE_HOST = 2;
/** `valid before` of a certificate that never expires. */
export const SSH_CERT_FOREVER = 0xffff_ffff_ffff_ffffn;
/** Critical options OpenSSH defines; refused unless the caller opts in (they restrict use we cannot enforce). */
export const KNOWN_CRITICAL_OPTIONS = ['force-command', 'source-address'] as const;
export type KnownCriticalOption = (typeof KNOWN_CRITICAL_OPTIONS)[number];

export type SshCertOption = { name: string; data: Uint8Array };

export type SshCertificate = {
  nonce: Uint8Array;
  /** The certified Ed25519 key, raw 32 bytes. */
  publicKey: Uint8Array;
  serial: bigint;
  /** 1 = user, 2 = host. */
  type: number;
  keyId: string;
  principals: string[];
  /** Unix seconds, as in the certificate. */
  validAfter: bigint;
  validBefore: bigint;
  criticalOptions: SshCertOption[];
  extensions: SshCertOption[];
  /** The CA's Ed25519 key, raw 32 bytes. */
  caPublicKey: Uint8Array;
  /** The CA's signature (raw 64 bytes) over `signedData`. */
  signature: Uint8Array;
  signedData: Uint8Array;
  /** The whole certificate blob (what goes in the `…-cert.pub` line and in an SSHSIG's publickey field). */
  blob: Uint8Array;
};

function parseOptions(buf: Uint8Array, what: string): SshCertOption[] {
  const r = new SshReader(buf);
  const out: SshCertOption[] = [];
  const seen = new Set<string>();
  while (r.remaining > 0) {
    const name = r.readText(`${what} name`);
    const data = r.readString(`${what} data`);
    if (seen.has(name)) throw new SshVerifyError('MALFORMED', `duplicate ${what} ${name}`);
    seen.add(name);
    out.push({ name, data });
  }
  return out;
}

/** Parse an Ed25519 certificate blob. Throws SshVerifyError (MALFORMED / UNSUPPORTED_KEY_TYPE). */
export function parseCertificate(blob: Uint8Array): SshCertificate {
  try {
    const r = new SshReader(blob);
    const keyType = r.readText('key type');
    if (keyType !== SSH_ED25519_CERT) {
      throw new SshVerifyError('UNSUPPORTED_KEY_TYPE', `unsupported certificate type: ${keyType}`);
    }
    const nonce = r.readString('nonce');
    const publicKey = r.readString('public key');
    if (publicKey.length !== 32)
      throw new SshVerifyError('MALFORMED', 'certified Ed25519 key must be 32 bytes');
    const serial = r.readUint64('serial');
    const type = r.readUint32('type');
    const keyId = r.readText('key id');
    const principals = decodeTextList(r.readString('principals'), 'principal');
    const validAfter = r.readUint64('valid after');
    const validBefore = r.readUint64('valid before');
    const criticalOptions = parseOptions(r.readString('critical options'), 'critical option');
    const extensions = parseOptions(r.readString('extensions'), 'extension');
    r.readString('reserved');
    const signatureKey = r.readString('signature key');
    const signedData = blob.subarray(0, r.offset);
    const sigBlob = r.readString('signature');
    r.end('certificate');

    let caPublicKey: Uint8Array;
    try {
      caPublicKey = decodeSshEd25519PublicKey(signatureKey);
    } catch (e) {
      if (e instanceof SshKeyError && e.code === 'UNSUPPORTED_KEY_TYPE') {
        throw new SshVerifyError('UNSUPPORTED_KEY_TYPE', `CA key must be ssh-ed25519: ${e.message}`);
      }
      throw new SshVerifyError('MALFORMED', `bad CA key: ${(e as Error).message}`);
    }
    const sr = new SshReader(sigBlob);
    const sigType = sr.readText('CA signature type');
    if (sigType !== SSH_ED25519)
      throw new SshVerifyError('MALFORMED', `CA signature type ${sigType} != ssh-ed25519`);
    const signature = sr.readString('CA signature');
    sr.end('CA signature');
    if (signature.length !== 64) throw new SshVerifyError('MALFORMED', 'CA signature must be 64 bytes');

    return {
      nonce,
      publicKey,
      serial,
      type,
      keyId,
      principals,
      validAfter,
      validBefore,
      criticalOptions,
      extensions,
      caPublicKey,
      signature,
      signedData,
      blob,
    };
  } catch (e) {
    if (e instanceof SshWireError)
      throw new SshVerifyError('MALFORMED', `malformed certificate: ${e.message}`);
    throw e;
  }
}

/** Parse a `ssh-ed25519-cert-v01@openssh.com AAAA… comment` line (the `*-cert.pub` file). */
export function parseCertificateLine(line: string): SshCertificate {
  let blob: Uint8Array;
  try {
    blob = splitSshKeyLine(line).blob;
  } catch (e) {
    throw new SshVerifyError('MALFORMED', (e as Error).message);
  }
  return parseCertificate(blob);
}

// Whether a certificate's CA signature verifies depends only on its signed bytes, so a verified
// certificate can be remembered: a room sees the same few certificates on every entry. Keyed by the
// signature, the entry keeps the exact signed bytes, and a hit requires them to match byte for byte.
const verifiedCertificates = new BoundedCache<string, Uint8Array>(1024);

export function certificateSignatureValid(cert: SshCertificate): boolean {
  const id = toHex(cert.signature);
  const known = verifiedCertificates.get(id);
  if (known !== undefined && bytesEqual(known, cert.signedData)) return true;
  if (!verify(cert.caPublicKey, cert.signedData, cert.signature)) return false;
  verifiedCertificates.set(id, cert.signedData.slice());
  return true;
}

const bytes32 = z
  .custom<Uint8Array>((v) => v instanceof Uint8Array, 'must be a Uint8Array')
  .refine((b) => b.length === 32, 'must be 32 bytes');
const timeInput = z.union([z.date(), z.number().finite()]);

export const CertificateCheckSchema = z.object({
  /** Trusted CA keys, raw 32 bytes. */
  caKeys: z.array(bytes32).min(1),
  principal: z.string().min(1),
  /** When the signature is judged: a Date or unix milliseconds. Never "now" implicitly. */
  at: timeInput,
  /** Critical options the caller will enforce itself; any other critical option fails the check. */
  allowCriticalOptions: z.array(z.enum(KNOWN_CRITICAL_OPTIONS)).optional(),
});
export type CertificateCheck = z.input<typeof CertificateCheckSchema>;

export function unixSeconds(at: Date | number): bigint {
  const ms = typeof at === 'number' ? at : at.getTime();
  if (!Number.isFinite(ms)) throw new RangeError('invalid time');
  return BigInt(Math.floor(ms / 1000));
}

/**
 * Check a parsed user certificate against trusted CAs, a required principal and a time.
 * Returns null when acceptable, else the failure. Order: trust, CA signature, type, validity,
 * principal, critical options — so a forged certificate never gets past the signature step.
 */
export function checkCertificate(cert: SshCertificate, check: CertificateCheck): SshVerifyFailure | null {
  return checkParsedCertificate(cert, CertificateCheckSchema.parse(check));
}

/** checkCertificate for arguments already validated by CertificateCheckSchema (the SSHSIG hot path). */
export function checkParsedCertificate(
  cert: SshCertificate,
  c: z.output<typeof CertificateCheckSchema>,
): SshVerifyFailure | null {
  const trusted = c.caKeys.some((k) => bytesEqual(k, cert.caPublicKey));
  if (!trusted)
    return failure('UNTRUSTED_CA', `certificate signed by an untrusted CA (${caFingerprint(cert)})`);
  if (!certificateSignatureValid(cert))
    return failure('CERT_BAD_SIGNATURE', 'certificate CA signature is invalid');
  if (cert.type !== SSH_CERT_TYPE_USER) {
    return failure('CERT_WRONG_TYPE', `certificate type ${cert.type} is not a user certificate`);
  }
  const t = unixSeconds(c.at);
  if (t < cert.validAfter)
    return failure('CERT_NOT_YET_VALID', `certificate not valid until ${fmtTime(cert.validAfter)}`);
  if (t >= cert.validBefore)
    return failure('CERT_EXPIRED', `certificate expired at ${fmtTime(cert.validBefore)}`);
  // OpenSSH treats an empty list as "any principal", but refuses it for signatures; so do we.
  if (!cert.principals.includes(c.principal)) {
    return failure(
      'PRINCIPAL_MISMATCH',
      cert.principals.length === 0
        ? 'certificate lists no principals'
        : `principal ${JSON.stringify(c.principal)} not in certificate (${cert.principals.join(', ')})`,
    );
  }
  const allowed = new Set<string>(c.allowCriticalOptions ?? []);
  for (const opt of cert.criticalOptions) {
    if (!allowed.has(opt.name)) {
      return failure('CERT_CRITICAL_OPTION', `certificate has critical option ${JSON.stringify(opt.name)}`);
    }
  }
  return null;
}

function caFingerprint(cert: SshCertificate): string {
  return sshFingerprint(encodeSshEd25519PublicKey(cert.caPublicKey));
}

function fmtTime(s: bigint): string {
  if (s >= SSH_CERT_FOREVER) return 'forever';
  return new Date(Number(s) * 1000).toISOString();
}

/** The `string data` of an option: empty for flags, else the value wrapped as an SSH string (as ssh-keygen does). */
export function certOptionValue(opt: SshCertOption): string {
  if (opt.data.length === 0) return '';
  const r = new SshReader(opt.data);
  const v = r.readText(`${opt.name} value`);
  r.end(`${opt.name} value`);
  return v;
}

const validityTime = z.union([z.date(), z.number().finite().nonnegative()]);

export const SignCertificateSchema = z.object({
  caSeed: bytes32,
  /** The key being certified, raw 32 bytes. */
  publicKey: bytes32,
  keyId: z.string(),
  principals: z.array(z.string().min(1)).min(1),
  /** Date or unix milliseconds; 'always' = 0. */
  validAfter: z.union([validityTime, z.literal('always')]),
  /** Date or unix milliseconds; 'forever' = 2^64-1. */
  validBefore: z.union([validityTime, z.literal('forever')]),
  serial: z.union([z.bigint().nonnegative(), z.number().int().nonnegative()]).default(0),
  /** Extension name -> value ('' for flags like permit-pty). */
  extensions: z.record(z.string().min(1), z.string()).default({}),
  criticalOptions: z.record(z.string().min(1), z.string()).default({}),
  type: z.union([z.literal(SSH_CERT_TYPE_USER), z.literal(SSH_CERT_TYPE_HOST)]).default(SSH_CERT_TYPE_USER),
  /** Defaults to a hash of the other fields: Ed25519 does not need a random nonce, and this keeps certs reproducible. */
  nonce: z.custom<Uint8Array>((v) => v instanceof Uint8Array, 'must be a Uint8Array').optional(),
  comment: z.string().optional(),
});
export type SignCertificateInput = z.input<typeof SignCertificateSchema>;

function encodeOptions(opts: Record<string, string>): Uint8Array {
  // PROTOCOL.certkeys: options are lexically ordered by name; each name once (a record guarantees that).
  const w = new SshWriter();
  for (const name of Object.keys(opts).sort()) {
    const value = opts[name]!;
    w.string(name).string(value === '' ? new Uint8Array(0) : new SshWriter().string(value).bytes());
  }
  return w.bytes();
}

function toCertTime(t: Date | number | 'always' | 'forever'): bigint {
  if (t === 'always') return 0n;
  if (t === 'forever') return SSH_CERT_FOREVER;
  return unixSeconds(t);
}

/** Create a certificate signed by an Ed25519 CA. Returns the `*-cert.pub` line, the blob and its parse. */
export function signCertificate(input: SignCertificateInput): {
  line: string;
  blob: Uint8Array;
  certificate: SshCertificate;
} {
  const i = SignCertificateSchema.parse(input);
  const validAfter = toCertTime(i.validAfter);
  const validBefore = toCertTime(i.validBefore);
  if (validBefore <= validAfter) throw new RangeError('validBefore must be after validAfter');
  const caPub = publicKeyFromSeed(i.caSeed);
  const tail = new SshWriter()
    .string(i.publicKey)
    .uint64(BigInt(i.serial))
    .uint32(i.type)
    .string(i.keyId)
    .string(encodeStringList(i.principals))
    .uint64(validAfter)
    .uint64(validBefore)
    .string(encodeOptions(i.criticalOptions))
    .string(encodeOptions(i.extensions))
    .string(new Uint8Array(0))
    .string(encodeSshEd25519PublicKey(caPub))
    .bytes();
  const nonce = i.nonce ?? sha256(new SshWriter().string('db8-cert-nonce').raw(tail).bytes());
  const signedData = new SshWriter().string(SSH_ED25519_CERT).string(nonce).raw(tail).bytes();
  const sig = sign(i.caSeed, signedData);
  const blob = new SshWriter()
    .raw(signedData)
    .string(new SshWriter().string(SSH_ED25519).string(sig).bytes())
    .bytes();
  const b64 = toBase64(blob);
  const line = `${SSH_ED25519_CERT} ${b64}${i.comment ? ` ${i.comment}` : ''}`;
  return { line, blob, certificate: parseCertificate(blob) };
}
