// Registers `vote` with light imports only; the action loads vote-impl.ts when it runs.

import { ROOM_HELP, runAction, URL_HELP } from '@db8/cli/kit';
import { type Command, InvalidArgumentError } from 'commander';

const impl = () => import('./vote-impl.ts');

function seatList(v: string): string[] {
  const list = v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  if (list.length === 0 || list.some((x) => !/^anon_[1-9][0-9]*$/.test(x))) {
    throw new InvalidArgumentError('expected debater seats separated by commas, e.g. anon_2,anon_4');
  }
  return list;
}

export function parseTtl(v: string): number {
  const m = /^(\d+)([smh]?)$/.exec(v.trim());
  const n = m ? Number(m[1]) * (m[2] === 'h' ? 3600 : m[2] === 'm' ? 60 : 1) : Number.NaN;
  if (!Number.isFinite(n) || n < 60 || n > 86_400)
    throw new InvalidArgumentError('expected 60s to 24h, e.g. 1h, 30m or 3600');
  return n;
}

export function register(program: Command): void {
  const vote = program
    .command('vote')
    .description('debate votes: continue after a round, and the final approval ballot');
  const c = vote
    .command('continue')
    .description('vote to continue the debate (yes) or end it (no) after a published round')
    .argument('<choice>', 'yes or no')
    .option('--room <id>', ROOM_HELP)
    .option('--url <url>', URL_HELP);
  c.action(runAction(c, async (choice: string, o) => (await impl()).voteContinue(choice, o)));
  const f = vote
    .command('final')
    .description('final ballot: approve one or more debaters; an optional ranking breaks ties')
    .requiredOption('--approve <seats>', 'debaters you approve, e.g. anon_2,anon_4', seatList)
    .option('--rank <seats>', 'your ranking, best first, e.g. anon_4,anon_2,anon_1', seatList)
    .option('--room <id>', ROOM_HELP)
    .option('--url <url>', URL_HELP);
  f.action(runAction(f, async (o) => (await impl()).voteFinal(o)));

  const auth = program.command('auth').description('credentials for rooms');
  const ic = auth
    .command('issue-cert')
    .description('a short-lived OpenSSH certificate for your seat from the room CA; writes <key>-cert.pub')
    .requiredOption('--principal <p>', 'your seat and room, e.g. anon_3@room_ab12')
    .option('--ttl <time>', 'validity: 1h, 30m, 3600 (60s to 24h)', parseTtl, 3600)
    .option('--key <file>', 'the Ed25519 key to certify (public or private)', '~/.ssh/id_ed25519.pub')
    .option('-o, --output <file>', 'where to write the certificate (default <key>-cert.pub)')
    .option('--url <url>', URL_HELP)
    .option('--json', 'print the server response as JSON');
  ic.action(runAction(ic, async (o) => (await impl()).issueCert(o)));
}
