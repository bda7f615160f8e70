// Registers `debate` with light imports only; the action loads impl.ts when it runs.

import type { CliModule } from '@db8/cli/kit';
import { demoGroup, ROOM_HELP, runAction, URL_HELP } from '@db8/cli/kit';
import { type Command, InvalidArgumentError } from 'commander';
import type { CreateOpts } from './impl.ts';
import { register as registerSubmit } from './submit.ts';
import { register as registerVote } from './vote.ts';

const impl = () => import('./impl.ts');
const operateImpl = () => import('./operate.ts');
// `debate export` is `room export` for a debate room: one bundle fetch.
const roomImpl = () => import('@db8/cli/kit-run');

function count(min: number, max: number) {
  return (v: string) => {
    const n = Number(v);
    if (!/^\d+$/.test(v) || n < min || n > max) throw new InvalidArgumentError(`expected ${min} to ${max}`);
    return n;
  };
}

const reasonOpt = ['--reason <text>', 'why (recorded in the entry)'] as const;

/** The admin's operations on a running debate (docs/debate.md#operating-a-debate). */
function registerOperate(d: Command): void {
  const run = async (
    room: string | undefined,
    body: Parameters<typeof import('./operate.ts').operate>[1],
    o: { url?: string; json?: boolean },
  ) => (await operateImpl()).operate(room, body, o);
  const why = (o: { reason?: string }) => (o.reason ? { reason: o.reason } : {});
  const ab = d
    .command('abort')
    .description('end the debate now, unrated (admin)')
    .argument('[room]', ROOM_HELP)
    .option(...reasonOpt)
    .option('--url <url>', URL_HELP)
    .option('--json', 'print the answer as JSON');
  ab.action(runAction(ab, (room: string | undefined, o) => run(room, { op: 'abort', ...why(o) }, o)));
  const pa = d
    .command('pause')
    .description('freeze the countdown: nobody may act until resumed (admin)')
    .argument('[room]', ROOM_HELP)
    .option(...reasonOpt)
    .option('--url <url>', URL_HELP)
    .option('--json', 'print the answer as JSON');
  pa.action(runAction(pa, (room: string | undefined, o) => run(room, { op: 'pause', ...why(o) }, o)));
  const re = d
    .command('resume')
    .description('run the paused window again with the time it had left (admin)')
    .argument('[room]', ROOM_HELP)
    .option('--url <url>', URL_HELP)
    .option('--json', 'print the answer as JSON');
  re.action(runAction(re, (room: string | undefined, o) => run(room, { op: 'resume' }, o)));
  const ex = d
    .command('extend')
    .description('end the current window later (admin)')
    .argument('<seconds>', 'how much later (1-86400)', count(1, 86_400))
    .argument('[room]', ROOM_HELP)
    .option(...reasonOpt)
    .option('--url <url>', URL_HELP)
    .option('--json', 'print the answer as JSON');
  ex.action(
    runAction(ex, (seconds: number, room: string | undefined, o) =>
      run(room, { op: 'extend', seconds, ...why(o) }, o),
    ),
  );
  const rp = d
    .command('replace')
    .description('give a debater seat that never submitted to another agent or person (admin)')
    .argument('<seat>', 'the no-show seat, e.g. anon_3')
    .argument('<principal>', 'the new holder (agent or person id); it then joins that seat')
    .argument('[room]', ROOM_HELP)
    .option(...reasonOpt)
    .option('--url <url>', URL_HELP)
    .option('--json', 'print the answer as JSON');
  rp.action(
    runAction(rp, (seat: string, principal: string, room: string | undefined, o) =>
      run(room, { op: 'replace', seat, principal, ...why(o) }, o),
    ),
  );
}

function register(program: Command): void {
  const d = program
    .command('debate')
    .description(
      'debates (seed 000): create, status, watch, export, transcript, verify, ratings; admins: abort, pause, resume, extend, replace',
    );
  const c = d
    .command('create')
    .description('create a debate room (admin)')
    .option('--topic <text>', 'the motion')
    .option('--tags <list>', 'topic tags, comma-separated (each gets its own Elo table)')
    .option('--config <file>', 'a debate config as JSON (docs/debate.md#config); flags override it')
    .option('--debaters <n>', 'debaters (2-12, default 5)', count(2, 12))
    .option('--judges <n>', 'judges (0-15, default 3)', count(0, 15))
    .option('--viewers <n>', 'viewers (0-100, default 5)', count(0, 100))
    .option('--rounds <n>', 'argument rounds before the final (1-20, default 3)', count(1, 20))
    .option('--title <title>', 'room title (default: the topic)')
    .option('--url <url>', URL_HELP)
    .option('--json', 'print the room as JSON');
  c.action(runAction(c, async (o: CreateOpts) => (await impl()).create(o)));

  const s = d
    .command('status')
    .description('phase, deadline, submissions, and what you may do now')
    .argument('[room]', ROOM_HELP)
    .option('--url <url>', URL_HELP)
    .option('--json', 'print the state as JSON');
  s.action(runAction(s, async (room: string | undefined, o) => (await impl()).status(room, o)));

  const w = d
    .command('watch')
    .description('phase and timer banners over SSE; prints each round when it is published, then the results')
    .argument('[room]', ROOM_HELP)
    .option('--url <url>', URL_HELP);
  w.action(runAction(w, async (room: string | undefined, o) => (await impl()).watch(room, o)));

  const e = d
    .command('export')
    .description('the room journal bundle (JSONL) as your credential may see it')
    .argument('[room]', ROOM_HELP)
    .option('-o, --output <file>', 'write here instead of stdout')
    .option('--url <url>', URL_HELP);
  e.action(runAction(e, async (room: string | undefined, o) => (await roomImpl()).exportRoom(room, o)));

  const t = d
    .command('transcript')
    .description(
      'the debate as a Markdown transcript (motion, each round by debater with claims and citations, result, and the signed tree head to check with db8 verify), as your credential may see it',
    )
    .argument('[room]', ROOM_HELP)
    .option('-o, --output <file>', 'write here instead of stdout')
    .option('--url <url>', URL_HELP);
  t.action(runAction(t, async (room: string | undefined, o) => (await impl()).transcript(room, o)));

  const v = d
    .command('verify')
    .description(
      "export the room journal and verify it offline: leaves, signed checkpoints, reveals, then every published submission's hash and signature and the round chain",
    )
    .argument('[room]', ROOM_HELP)
    .option(
      '--key <key>',
      'pin the server key: an ssh-ed25519 line or a file holding one (server_ed25519.pub)',
    )
    .option('-o, --output <file>', 'also save the bundle here')
    .option('--url <url>', URL_HELP)
    .option('--json', 'print both reports as JSON');
  v.action(runAction(v, async (room: string | undefined, o) => (await impl()).verify(room, o)));

  const r = d
    .command('ratings')
    .description("Elo leaderboards (global and per tag), or one identity's history")
    .argument('[identity]', 'an identity (agent principal)')
    .option('--tag <tag>', 'only this tag')
    .option('--limit <n>', 'rows per table', count(1, 1000))
    .option('--url <url>', URL_HELP)
    .option('--json', 'print as JSON');
  r.action(runAction(r, async (id: string | undefined, o) => (await impl()).ratings(id, o)));

  registerOperate(d);

  const dd = demoGroup(program)
    .command('debate')
    .description(
      'a scripted five-debater debate in about a minute, printed phase by phase, on the running local server (its local admin credential or an admin session), --url, or else a temporary server of its own',
    )
    .option('--rounds <n>', 'argument rounds before the final (default 3)', count(1, 5))
    .option('--pace <x>', 'scale every window (default 1)', (x) => {
      const n = Number(x);
      if (!(n >= 0.2 && n <= 10)) throw new InvalidArgumentError('expected 0.2 to 10');
      return n;
    })
    .option('--url <url>', 'use this server (needs an admin session: db8 login --local or --link …)');
  dd.action(runAction(dd, async (o) => (await impl()).demo(o)));

  registerSubmit(program);
  registerVote(program);
}

/** Debate's CLI: `debate …`, `demo debate`, and the debater's `draft`, `submit`, `resubmit`, `vote`, `auth`. */
export const debateCli: CliModule = { protocol: 'debate', register, roomExample: true };
