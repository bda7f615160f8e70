// Registers `act` with light imports only; the action loads act-impl.ts when it runs.
import type { Command } from 'commander';
import { runAction } from '../io.ts';
import type { ActOptions } from './act-impl.ts';

const impl = () => import('./act-impl.ts');

export function register(program: Command): void {
  const cmd = program
    .command('act')
    .description('act for your seat in a room, e.g. db8 act room_ab12 \'{"type":"bid","amount":120}\'')
    .argument('<room>', 'room id')
    .argument('<action>', 'the action as JSON (- reads it from stdin)')
    .option('--seat <seat>', 'act for this seat (default: the seat you joined)')
    .option('--nonce <key>', 'idempotency key: a retry with the same key returns the first ack')
    .option('--url <url>', 'server base URL (default: $DB8_URL, the saved session, or http://127.0.0.1:8787)')
    .option('--json', 'print the ack as JSON');
  cmd.action(
    runAction(cmd, async (room: string, action: string, o: ActOptions) =>
      (await impl()).act(room, action, o),
    ),
  );
}
