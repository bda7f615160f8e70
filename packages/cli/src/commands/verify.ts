// `db8 verify <bundle>`: checks a journal bundle offline (verifyBundle in @db8/core) and names the
// first entry that fails, then refolds the log from its genesis with the protocol it names (core's
// refoldLog: the fold a server room loads with) and compares the result the close entry records.
// With --ssh-dir it also lays out the files `ssh-keygen -Y verify` needs.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CHECKPOINT_SSHSIG_NAMESPACE,
  createProtocolRegistry,
  formatFailure,
  type JournalFailureCode,
  JournalKeySchema,
  journalEntries,
  type ProtocolRegistry,
  parseJournalText,
  type RefoldReport,
  refoldLog,
  type VerifyBundleResult,
  verifyBundleText,
} from '@db8/core';
import type { Command } from 'commander';
import { EXIT_INVALID_INPUT, EXIT_IO_ERROR, EXIT_VERIFICATION_FAILED } from '../exit-codes.ts';
import { CliError, inputName, readTextInput, runAction, writeStdout } from '../io.ts';
import type { Product } from '../product.ts';

/** Not a journal bundle at all (or one this version cannot read): invalid input, not a failed check. */
const NOT_A_BUNDLE: ReadonlySet<JournalFailureCode> = new Set(['NO_HEADER', 'UNSUPPORTED_VERSION']);

/** --key: a note verifier key, an `ssh-ed25519 …` line, or a file holding one (e.g. server_ed25519.pub). */
async function pinnedKey(spec: string): Promise<string> {
  const literal = /^ssh-ed25519\s/.test(spec) || /^[^\s+]+\+[0-9a-f]{8}\+\S+$/.test(spec);
  const text = literal ? spec : await readTextInput(spec);
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '' && !l.startsWith('#'));
  if (!line) throw new CliError(EXIT_INVALID_INPUT, `--key: no key in ${spec}`);
  return line;
}

/** allowed_signers plus, per checkpoint, its text and SSHSIG, named by tree size. */
async function writeSshFiles(dir: string, text: string): Promise<string[]> {
  const { records } = parseJournalText(text);
  const written: string[] = [];
  try {
    await mkdir(dir, { recursive: true });
    for (const { value } of records) {
      const r = value as { type?: string; size?: number; text?: string; sshsig?: string };
      const key = JournalKeySchema.safeParse(value);
      if (key.success) {
        await writeFile(join(dir, 'allowed_signers'), `${key.data.allowed_signers}\n`);
        written.push('allowed_signers');
      } else if (r.type === 'checkpoint' && typeof r.text === 'string' && typeof r.sshsig === 'string') {
        await writeFile(join(dir, `checkpoint-${r.size}`), r.text);
        await writeFile(join(dir, `checkpoint-${r.size}.sig`), r.sshsig);
        written.push(`checkpoint-${r.size}`);
      }
    }
  } catch (e) {
    throw new CliError(EXIT_IO_ERROR, `cannot write to ${dir}: ${(e as NodeJS.ErrnoException).code ?? e}`);
  }
  return written;
}

function summary(r: VerifyBundleResult, f: RefoldReport, file: string, pinned: boolean): string {
  const trust = pinned ? 'signed by the pinned key' : 'self-consistent only: pin the server key with --key';
  const refold =
    f.skipped !== undefined
      ? `not refolded: ${f.skipped}`
      : `refolded ${f.protocol} v${f.version} to seq ${f.seq}, state ${f.stateHash}` +
        (f.closed
          ? f.ended
            ? `, ended early by ${f.ended.by} (${f.ended.reason})`
            : ', the recorded result follows'
          : ' (open)');
  return (
    `ok ${file}: room ${r.room}, ${r.viewerClass} bundle, ${r.entries} entries, ${r.checkpoints} checkpoints, ` +
    `${r.reveals} reveals, ${r.sealed} sealed payloads verified; root ${r.rootHash} (${trust})\n` +
    `  ${refold}\n`
  );
}

/** Refold the bundle's entries offline (every built-in protocol); the state itself stays out of JSON. */
function refold(text: string, registry: ProtocolRegistry): RefoldReport {
  const entries = journalEntries(parseJournalText(text).records.map((x) => x.value));
  const { state: _state, ...report } = refoldLog(entries, registry);
  return report;
}

type VerifyOpts = { key?: string; json?: boolean; sshDir?: string };

async function verifyCommand(
  file: string | undefined,
  o: VerifyOpts,
  registry: ProtocolRegistry,
): Promise<void> {
  const text = await readTextInput(file);
  const pin = o.key !== undefined ? await pinnedKey(o.key) : undefined;
  const r = verifyBundleText(text, pin !== undefined ? { pinnedKey: pin } : {});
  if (o.sshDir !== undefined) await writeSshFiles(o.sshDir, text);
  const first = r.firstFailure;
  // A bundle that fails its own checks is not refolded: its entries are not what was signed.
  const f = first ? null : refold(text, registry);
  if (o.json) await writeStdout(`${JSON.stringify(f ? { ...r, refold: f } : r)}\n`);
  if (first) {
    const exit = NOT_A_BUNDLE.has(first.code) ? EXIT_INVALID_INPUT : EXIT_VERIFICATION_FAILED;
    const more = r.failures.length > 1 ? ` (+${r.failures.length - 1} more)` : '';
    throw new CliError(exit, `${inputName(file)}: ${formatFailure(first)}${more}`);
  }
  if (f && f.problems.length > 0) {
    const more = f.problems.length > 1 ? ` (+${f.problems.length - 1} more)` : '';
    throw new CliError(EXIT_VERIFICATION_FAILED, `${inputName(file)}: REFOLD: ${f.problems[0]}${more}`);
  }
  if (!o.json && f) await writeStdout(summary(r, f, inputName(file), r.keyPinned));
}

export function register(program: Command, product: Product): void {
  const registry = createProtocolRegistry(product.protocols);
  const cmd = program
    .command('verify')
    .description(
      'verify a journal bundle (db8 export, or a room run locally) offline: every leaf, tree ' +
        'head, checkpoint signature (note and SSHSIG), sealed payload and commit-reveal pair, then refold the ' +
        'log with its protocol and check the recorded result; exit 0 ok, 3 naming the first failing entry, 2 not a bundle',
    )
    .argument('[bundle]', 'JSONL bundle; - or nothing for stdin')
    .option(
      '--key <key>',
      'pin the server key: a note verifier key (name+id+base64), an ssh-ed25519 line, or a file with one. ' +
        'Without it a bundle is checked against the key it carries, which proves only that it is self-consistent',
    )
    .option('--json', 'print the full result as JSON')
    .option(
      '--ssh-dir <dir>',
      `write allowed_signers and checkpoint-<size>(.sig) files for ssh-keygen -Y verify -n ${CHECKPOINT_SSHSIG_NAMESPACE}`,
    );
  cmd.action(runAction(cmd, (file: string | undefined, o: VerifyOpts) => verifyCommand(file, o, registry)));
}
