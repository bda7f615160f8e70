// Registers `export` with light imports only; the action loads export-impl.ts when it runs.
import { type ViewerClass, ViewerClassSchema } from '@db8/core';
import { type Command, InvalidArgumentError } from 'commander';
import { STORE_HELP } from '../help-text.ts';
import { runAction } from '../io.ts';
import type { Product } from '../product.ts';
import type { ExportOpts } from './export-impl.ts';

const impl = () => import('./export-impl.ts');

function viewerClass(v: string): ViewerClass {
  const r = ViewerClassSchema.safeParse(v);
  if (!r.success) throw new InvalidArgumentError('expected public, admin or seat:<id>');
  return r.data;
}

export function register(program: Command, product: Product): void {
  const cmd = program
    .command('export')
    .description(
      "write a room's journal bundle (JSONL: header, server key, entries as the viewer class may see them, " +
        'signed checkpoints with their SSHSIG form, trailer); check it with db8 verify',
    )
    .argument('<room>', 'room id')
    .option(
      '--url <url>',
      'server base URL (default: $DB8_URL, else the saved session’s, else http://127.0.0.1:8787)',
    )
    .option(
      '--token <token>',
      'bearer token (default: $DB8_TOKEN, else the saved session: your seat in the room or db8 login): an admin or seat token exports more',
    )
    .option('--as <class>', 'viewer class: public, admin or seat:<id>', viewerClass, 'public' as ViewerClass)
    .option('-o, --output <file>', 'write here instead of stdout')
    .option('--data-dir <dir>', 'read the PGlite store and server key in this data directory, not the server')
    .option('--database-url <url>', 'read this PostgreSQL store (the key still comes from --data-dir)')
    .addHelpText('after', `\n${STORE_HELP}\n`);
  cmd.action(
    runAction(cmd, async (room: string, o: ExportOpts) =>
      (await impl()).exportCommand(room, o, product.protocols),
    ),
  );
}
