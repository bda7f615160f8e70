// `db8 sshsig sign|verify`: SSHSIG signatures (as `ssh-keygen -Y`) made and checked in-process.
import { writeFile } from 'node:fs/promises';
import {
  formatSshPublicKey,
  parseOpenSshPrivateKey,
  parseSshPublicKey,
  SSHSIG_HASHES,
  type SshsigHash,
  type SshsigSigner,
  type SshVerifyCode,
  signSshsig,
  verifySshsig,
} from '@db8/core';
import { type Command, Option } from 'commander';
import { EXIT_INVALID_INPUT, EXIT_IO_ERROR, EXIT_USAGE, EXIT_VERIFICATION_FAILED } from '../exit-codes.ts';
import { CliError, expandHome, readInput, readTextInput, runAction, writeStdout } from '../io.ts';

// Malformed or unsupported input is "invalid input"; everything else parsed fine and failed to verify.
const INVALID_INPUT_CODES: ReadonlySet<SshVerifyCode> = new Set([
  'MALFORMED',
  'UNSUPPORTED_VERSION',
  'UNSUPPORTED_KEY_TYPE',
  'UNSUPPORTED_HASH',
]);

/** Keys from a literal `ssh-ed25519 AAAA…` or a file of such lines (blank lines and # comments skipped). */
async function loadKeys(spec: string, what: string): Promise<Uint8Array[]> {
  const text = /^ssh-ed25519\s/.test(spec) ? spec : await readTextInput(expandHome(spec));
  const keys: Uint8Array[] = [];
  for (const line of text.split('\n')) {
    const l = line.trim();
    if (l === '' || l.startsWith('#')) continue;
    try {
      keys.push(parseSshPublicKey(l).publicKey);
    } catch (e) {
      throw new CliError(EXIT_INVALID_INPUT, `${what}: ${(e as Error).message}`);
    }
  }
  if (keys.length === 0) throw new CliError(EXIT_INVALID_INPUT, `${what}: no ssh-ed25519 key found`);
  return keys;
}

function describeSigner(s: SshsigSigner): string {
  if (s.kind === 'key') return `key ${s.fingerprint}`;
  return `principal ${s.principal} with certificate "${s.keyId}" (serial ${s.serial}) for ${s.fingerprint} from CA ${s.caFingerprint}`;
}

function signerJson(s: SshsigSigner): Record<string, unknown> {
  const base = { kind: s.kind, publicKey: formatSshPublicKey(s.publicKey), fingerprint: s.fingerprint };
  if (s.kind === 'key') return base;
  return {
    ...base,
    principal: s.principal,
    principals: s.principals,
    keyId: s.keyId,
    serial: s.serial.toString(),
    caPublicKey: formatSshPublicKey(s.caPublicKey),
    caFingerprint: s.caFingerprint,
    validAfter: s.validAfter.toString(),
    validBefore: s.validBefore.toString(),
  };
}

type VerifyOpts = {
  namespace: string;
  signerKey?: string;
  ca?: string;
  principal?: string;
  sig: string;
  at?: string;
  allowCriticalOption?: ('force-command' | 'source-address')[];
  json?: boolean;
};

async function verifyCommand(file: string | undefined, o: VerifyOpts): Promise<void> {
  if (!o.signerKey === !o.ca) throw new CliError(EXIT_USAGE, 'give exactly one of --signer-key or --ca');
  if (o.ca && !o.principal) throw new CliError(EXIT_USAGE, '--ca needs --principal');
  if (o.signerKey && o.principal) throw new CliError(EXIT_USAGE, '--principal only applies with --ca');
  if (file === '-' && o.sig === '-')
    throw new CliError(EXIT_USAGE, 'the signature and the message cannot both be stdin');
  let at = new Date();
  if (o.at !== undefined) {
    at = new Date(o.at);
    if (Number.isNaN(at.getTime())) throw new CliError(EXIT_USAGE, `--at: not an ISO time: ${o.at}`);
  }
  const armored = await readTextInput(o.sig);
  const message = await readInput(file);
  const trust = o.ca
    ? {
        caKeys: await loadKeys(o.ca, '--ca'),
        principal: o.principal!,
        at,
        allowCriticalOptions: o.allowCriticalOption ?? [],
      }
    : { publicKeys: await loadKeys(o.signerKey!, '--signer-key') };
  const r = verifySshsig({ armored, message, namespace: o.namespace, trust });
  if (o.json) {
    const out = r.ok
      ? { ok: true, namespace: r.namespace, hashAlgorithm: r.hashAlgorithm, signer: signerJson(r.signer) }
      : r;
    await writeStdout(`${JSON.stringify(out)}\n`);
  }
  if (!r.ok) {
    const exit = INVALID_INPUT_CODES.has(r.code) ? EXIT_INVALID_INPUT : EXIT_VERIFICATION_FAILED;
    throw new CliError(exit, `${r.code}: ${r.message}`);
  }
  if (!o.json) await writeStdout(`Good "${r.namespace}" signature from ${describeSigner(r.signer)}\n`);
}

type SignOpts = { key: string; namespace: string; cert?: string; hash: SshsigHash; output?: string };

async function signCommand(file: string | undefined, o: SignOpts): Promise<void> {
  const keyPath = expandHome(o.key);
  const keyText = await readTextInput(keyPath);
  let seed: Uint8Array;
  try {
    seed = parseOpenSshPrivateKey(keyText).seed;
  } catch (e) {
    throw new CliError(EXIT_INVALID_INPUT, `${keyPath}: ${(e as Error).message}`);
  }
  const certificate = o.cert ? await readTextInput(expandHome(o.cert)) : undefined;
  const message = await readInput(file);
  let armored: string;
  try {
    armored = signSshsig({ seed, namespace: o.namespace, message, hashAlgorithm: o.hash, certificate });
  } catch (e) {
    throw new CliError(EXIT_INVALID_INPUT, (e as Error).message.split('\n')[0] ?? 'cannot sign');
  }
  if (o.output) {
    try {
      await writeFile(o.output, armored, { mode: 0o644 });
    } catch (e) {
      throw new CliError(EXIT_IO_ERROR, `cannot write ${o.output}: ${(e as NodeJS.ErrnoException).code}`);
    }
  } else await writeStdout(armored);
}

export function register(program: Command): void {
  const sshsig = program
    .command('sshsig')
    .description(
      'sign and verify SSH signatures (SSHSIG, as ssh-keygen -Y) with Ed25519 keys and certificates',
    );

  const verify = sshsig
    .command('verify')
    .description(
      'verify an SSH signature over a file (or stdin); exit 0 good, 2 invalid input, 3 not verified',
    )
    .argument('[file]', 'signed message; - or nothing for stdin')
    .requiredOption('-n, --namespace <ns>', 'namespace the signature must be for (db8 uses "db8")')
    .option('--signer-key <key>', 'allowed signer: an ssh-ed25519 line or a file of them')
    .option('--ca <key>', 'trusted certificate authority: an ssh-ed25519 line or a file of them')
    .option('--principal <p>', 'with --ca: principal the certificate must list')
    .requiredOption('-s, --sig <file>', 'armored signature file; - for stdin')
    .option('--at <iso-time>', 'judge certificate validity at this time (default: now)')
    .addOption(
      new Option(
        '--allow-critical-option <name...>',
        'certificate critical options the caller enforces',
      ).choices(['force-command', 'source-address']),
    )
    .option('--json', 'print the result as JSON');
  verify.action(runAction(verify, (file: string | undefined, o: VerifyOpts) => verifyCommand(file, o)));

  const sign = sshsig
    .command('sign')
    .description('sign a file (or stdin) with an Ed25519 OpenSSH key; writes the armored signature to stdout')
    .argument('[file]', 'message to sign; - or nothing for stdin')
    .requiredOption('-n, --namespace <ns>', 'namespace to sign for (db8 uses "db8")')
    .option('-k, --key <file>', 'unencrypted OpenSSH private key', '~/.ssh/id_ed25519')
    .option('--cert <file>', 'sign with this user certificate (…-cert.pub) for the key')
    .addOption(new Option('--hash <alg>', 'message hash').choices([...SSHSIG_HASHES]).default('sha512'))
    .option('-o, --output <file>', 'write the signature here instead of stdout');
  sign.action(runAction(sign, (file: string | undefined, o: SignOpts) => signCommand(file, o)));
}
