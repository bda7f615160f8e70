// Registers `room` with light imports only; the action loads room-impl.ts when it runs.
import { type Command, InvalidArgumentError } from 'commander';
import { ROOM_HELP, URL_HELP } from '../help-text.ts';
import { runAction } from '../io.ts';
import type { Product } from '../product.ts';

const impl = () => import('./room-impl.ts');

function positiveInt(v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n < 1 || n > 200) throw new InvalidArgumentError('expected a number from 1 to 200');
  return n;
}

function ttl(v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n < 60 || n > 86_400)
    throw new InvalidArgumentError('expected seconds from 60 to 86400');
  return n;
}

export function register(program: Command, product: Product): void {
  const room = program.command('room').description('rooms: create, list, status, join, invite');

  const c = room
    .command('create')
    .description('create a room (admin: db8 login --link <admin link>)')
    .requiredOption('--protocol <name>', `protocol, e.g. ${product.roomExamples.join(', ')}`)
    .option('--config <file>', 'room config as a JSON file (- for stdin)')
    .option('--title <title>', 'room title')
    .option(
      '--drive <seat=provider[/model]>',
      "a seat the server's model drivers play, e.g. fact_checker=scripted or judge_1=openai/gpt-4o-mini (repeatable; docs/drivers.md)",
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .option('--url <url>', URL_HELP)
    .option('--json', 'print the room as JSON');
  c.action(runAction(c, async (o) => (await impl()).create(o)));

  const l = room
    .command('list')
    .description('list rooms, newest first')
    .option('--protocol <name>', 'only this protocol')
    .option('--status <status>', 'open or closed')
    .option('--limit <n>', 'at most n rooms (1-200, default 50)', positiveInt)
    .option('--url <url>', URL_HELP)
    .option('--json', 'print the server response as JSON');
  l.action(runAction(l, async (o) => (await impl()).list(o)));

  const s = room
    .command('status')
    .description('one room as you may see it: phase, deadline, seats, your legal actions')
    .argument('<room>', 'room id')
    .option('--url <url>', URL_HELP)
    .option('--json', 'print {room, state} as JSON');
  s.action(runAction(s, async (id: string, o) => (await impl()).status(id, o)));

  const j = room
    .command('join')
    .description('take a seat (agents: after db8 login; people: with an invite)')
    .argument('<room>', 'room id')
    .option('--seat <seat>', 'the seat to take (default: the first free one)')
    .option('--invite <token>', 'an invite token or link (from db8 room invite)')
    .option('--url <url>', URL_HELP)
    .option('--json', 'print the result as JSON');
  j.action(runAction(j, async (id: string, o) => (await impl()).join(id, o)));

  const i = room
    .command('invite')
    .description('make an invite link for people (admin)')
    .argument('<room>', 'room id')
    .option('--seat <seat>', 'for this seat only')
    .option('--max-uses <n>', 'how many joins the link admits (default 1; at most 200 here)', positiveInt)
    .option('--url <url>', URL_HELP)
    .option('--json', 'print the server response as JSON');
  i.action(runAction(i, async (id: string, o) => (await impl()).invite(id, o)));

  const k = room
    .command('cert')
    .description('certify your SSH key for your seat (principal <seat>@<room>); writes <key>-cert.pub')
    .argument('<room>', 'room id')
    .requiredOption('--ssh-key <file>', 'your Ed25519 key (private or .pub)')
    .option('--ttl-sec <n>', 'validity, seconds (default 3600)', ttl)
    .option('--url <url>', URL_HELP)
    .option('--json', 'print the server response as JSON');
  k.action(runAction(k, async (id: string, o) => (await impl()).cert(id, o)));

  const e = room
    .command('export')
    .description(
      'the room journal bundle (JSONL) as your seat or admin session may see it; check it with db8 verify',
    )
    .argument('[room]', ROOM_HELP)
    .option('-o, --output <file>', 'write here instead of stdout')
    .option('--url <url>', URL_HELP);
  e.action(runAction(e, async (id: string | undefined, o) => (await impl()).exportRoom(id, o)));
}
