// Registers `watch` with light imports only; the action loads watch-impl.ts when it runs.
import { type Command, InvalidArgumentError } from 'commander';
import { runAction } from '../io.ts';
import type { WatchOptions } from './watch-impl.ts';

const impl = () => import('./watch-impl.ts');

function seqArg(v: string): number {
  const n = Number(v);
  if (!/^-?\d+$/.test(v) || n < -1) throw new InvalidArgumentError('expected a seq (-1 for the whole log)');
  return n;
}

export function register(program: Command): void {
  const cmd = program
    .command('watch')
    .description('tail a room: one line per entry, phase/deadline banners; exits when the room closes')
    .argument('<room>', 'room id')
    .option('--since <seq>', 'start after this seq (default -1: the whole log)', seqArg)
    .option('--live', 'only entries from now on')
    .option('--url <url>', 'server base URL (default: $DB8_URL, the saved session, or http://127.0.0.1:8787)')
    .option('--json', 'print each event as a JSON line: {event:"entry",entry} or {event:"state",state}');
  cmd.action(runAction(cmd, async (id: string, o: WatchOptions) => (await impl()).watch(id, o)));
}
