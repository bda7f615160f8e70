// Signing a submission: in-process with an OpenSSH key (and optionally its room certificate), or a
// detached signature made elsewhere (`ssh-keygen -Y sign -n db8` over `db8 canon draft.json`).
import { existsSync, readFileSync } from 'node:fs';
import { CliError, EXIT_INVALID_INPUT, EXIT_IO_ERROR, EXIT_VERIFICATION_FAILED } from '@db8/cli/kit';
import { absPath } from '@db8/cli/kit-run';
import {
  encodeSshEd25519PublicKey,
  parseCertificateLine,
  parseOpenSshPrivateKey,
  parseSshsig,
  signSshsig,
  sshFingerprint,
  toBase64,
  toHex,
  utf8Encode,
  verifySshsig,
} from '@db8/core';
import { SSHSIG_NAMESPACE } from '../rules/index.ts';

export interface Signed {
  fields: { signature_kind: 'ssh'; signature_b64: string; signer_fingerprint: string };
  /** Raw key hex of the signer (the certified key for a certificate). */
  keyHex: string;
  /** The certificate's principals when signed with one, else null (a plain key). */
  principals: string[] | null;
}

function readFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new CliError(EXIT_IO_ERROR, `cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? e})`);
  }
}

function signedOf(armored: string): Signed {
  const p = parseSshsig(armored);
  return {
    fields: {
      signature_kind: 'ssh',
      signature_b64: toBase64(utf8Encode(armored)),
      signer_fingerprint: sshFingerprint(encodeSshEd25519PublicKey(p.publicKey)),
    },
    keyHex: toHex(p.publicKey),
    principals: p.certificate ? p.certificate.principals : null,
  };
}

/**
 * Sign in-process. The certificate is `cert` when given, else `<key>-cert.pub` when it exists and
 * names `principal` (a certificate for another room or seat is left alone: the plain key signs).
 */
export function signWithKey(
  bytes: Uint8Array,
  keyFile: string,
  opts: { cert?: string; principal: string },
): Signed {
  const keyPath = absPath(keyFile);
  let seed: Uint8Array;
  try {
    seed = parseOpenSshPrivateKey(readFile(keyPath)).seed;
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw new CliError(
      EXIT_INVALID_INPUT,
      `${keyFile}: ${(e as Error).message} (an unencrypted OpenSSH Ed25519 key)`,
    );
  }
  let certificate: string | undefined;
  if (opts.cert) {
    certificate = readFile(absPath(opts.cert)).trim();
  } else if (existsSync(`${keyPath}-cert.pub`)) {
    const line = readFile(`${keyPath}-cert.pub`).trim();
    try {
      if (parseCertificateLine(line).principals.includes(opts.principal)) certificate = line;
    } catch {
      // not a certificate we can read: sign with the plain key
    }
  }
  try {
    return signedOf(
      signSshsig({
        seed,
        namespace: SSHSIG_NAMESPACE,
        message: bytes,
        ...(certificate ? { certificate } : {}),
      }),
    );
  } catch (e) {
    throw new CliError(EXIT_INVALID_INPUT, `cannot sign with ${keyFile}: ${(e as Error).message}`);
  }
}

/** A detached signature file; checked here against the bytes so a wrong file fails before sending. */
export function signatureFromFile(bytes: Uint8Array, sigFile: string, draftName: string): Signed {
  const armored = readFile(absPath(sigFile));
  let signed: Signed;
  let key: Uint8Array;
  try {
    const p = parseSshsig(armored);
    key = p.publicKey;
    signed = signedOf(armored);
  } catch (e) {
    throw new CliError(EXIT_INVALID_INPUT, `${sigFile}: ${(e as Error).message}`);
  }
  const r = verifySshsig({
    armored,
    message: bytes,
    namespace: SSHSIG_NAMESPACE,
    trust: { publicKeys: [key] },
  });
  // A certificate signature is checked against its CA by the server; here only the bytes matter.
  const bytesOk = r.ok || (r.code !== 'BAD_SIGNATURE' && r.code !== 'NAMESPACE_MISMATCH');
  if (!bytesOk) {
    throw new CliError(
      EXIT_VERIFICATION_FAILED,
      `${sigFile} is not a signature over ${draftName} (${r.ok ? '' : r.code}): sign exactly what db8 canon ${draftName} prints, with ssh-keygen -Y sign -n ${SSHSIG_NAMESPACE}`,
    );
  }
  return signed;
}
