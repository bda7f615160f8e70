// Registers `submit`/`resubmit` with light imports only; the action loads submit-impl.ts when it runs.

import { ROOM_HELP, runAction, URL_HELP } from '@db8/cli/kit';
import type { Command } from 'commander';
import type { SubmitOpts } from './submit-impl.ts';

const DRAFT = 'draft.json';
const impl = () => import('./submit-impl.ts');

export function register(program: Command): void {
  const draft = program
    .command('draft')
    .description('debate drafts: open draft.json for the open round, save it privately');
  const d = draft
    .command('open')
    .description("write (or update) draft.json with the open round's fields, and say what is left to fill in")
    .option('--room <id>', ROOM_HELP)
    .option('-o, --output <file>', 'the draft file', DRAFT)
    .option('--url <url>', URL_HELP);
  d.action(runAction(d, async (o) => (await impl()).openDraft(o)));
  const sv = draft
    .command('save')
    .description('send the draft to the room as your private draft (never published)')
    .argument('[file]', 'the draft file (default draft.json)')
    .option('--room <id>', ROOM_HELP)
    .option('--url <url>', URL_HELP);
  sv.action(runAction(sv, async (f: string | undefined, o) => (await impl()).saveDraft(f, o)));

  for (const re of [false, true]) {
    const c = program
      .command(re ? 'resubmit' : 'submit')
      .description(
        re
          ? 'replace your submission for the open round (a new version, until the deadline)'
          : 'submit draft.json for the open round: canonicalised (RFC 8785), optionally SSH-signed',
      )
      .argument('[file]', 'the draft file (default draft.json)')
      .option('--room <id>', "room id (default: the draft's room_id, $DB8_ROOM, or the one room you joined)")
      .option('--sign <key>', 'sign in-process with this OpenSSH Ed25519 private key (namespace db8)')
      .option(
        '--cert <file>',
        'with --sign: sign with this room certificate (default <key>-cert.pub when it names your seat)',
      )
      .option(
        '--sig <file>',
        'a detached signature: ssh-keygen -Y sign -n db8 over the bytes db8 canon <file> prints',
      )
      .option('--nonce <key>', 'idempotency key (default: derived from the canonical bytes)')
      .option('--url <url>', URL_HELP)
      .option('--json', 'print the result as JSON');
    c.action(runAction(c, async (f: string | undefined, o: SubmitOpts) => (await impl()).submit(f, o, re)));
  }
}
