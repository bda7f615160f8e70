// Stable failure codes for SSHSIG and certificate checks. Callers (journal verification, the CLI, the
// server's auth) switch on the code; the message is for people.

export const SSH_VERIFY_CODES = [
  'MALFORMED', // not parseable as an armored SSHSIG / certificate / key
  'UNSUPPORTED_VERSION', // SSHSIG version other than 1
  'UNSUPPORTED_KEY_TYPE', // anything other than ssh-ed25519 or its certificate type
  'UNSUPPORTED_HASH', // hash_algorithm other than sha256 / sha512
  'NAMESPACE_MISMATCH', // signed for another namespace
  'BAD_SIGNATURE', // the message signature does not verify (tampered message or signature)
  'UNTRUSTED_KEY', // signing key is not among the allowed keys (or a plain key where a certificate is required)
  'UNTRUSTED_CA', // certificate signed by a CA that is not trusted
  'CERT_BAD_SIGNATURE', // certificate's CA signature does not verify (forged or corrupted certificate)
  'CERT_WRONG_TYPE', // host certificate where a user certificate is required
  'CERT_NOT_YET_VALID', // at < valid after
  'CERT_EXPIRED', // at >= valid before
  'PRINCIPAL_MISMATCH', // required principal not listed in the certificate
  'CERT_CRITICAL_OPTION', // a critical option we do not (or were not allowed to) honour
] as const;

export type SshVerifyCode = (typeof SSH_VERIFY_CODES)[number];

export class SshVerifyError extends Error {
  readonly code: SshVerifyCode;
  constructor(code: SshVerifyCode, message: string) {
    super(message);
    this.name = 'SshVerifyError';
    this.code = code;
  }
}

export type SshVerifyFailure = { ok: false; code: SshVerifyCode; message: string };

export function failure(code: SshVerifyCode, message: string): SshVerifyFailure {
  return { ok: false, code, message };
}
