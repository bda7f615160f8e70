import { Command, type Option } from 'commander';
import { register as registerAct } from './commands/act.ts';
import { register as registerAgent } from './commands/agent.ts';
import { register as registerCanon } from './commands/canon.ts';
import { register as registerExport } from './commands/export.ts';
import { register as registerHash } from './commands/hash.ts';
import { register as registerLogin } from './commands/login.ts';
import { register as registerMcp } from './commands/mcp.ts';
import { register as registerReplay } from './commands/replay.ts';
import { register as registerRoom } from './commands/room.ts';
import { register as registerSshsig } from './commands/sshsig.ts';
import { register as registerStart } from './commands/start.ts';
import { register as registerVerify } from './commands/verify.ts';
import { register as registerWatch } from './commands/watch.ts';
import { oneLine } from './io.ts';
import type { Product } from './product.ts';

// The generic commands, in `db8 --help` order, each under the name a module's `listAfter` may use.
const generic: readonly (readonly [string, (program: Command, product: Product) => void])[] = [
  ['canon', registerCanon],
  ['hash', registerHash],
  ['replay', registerReplay],
  ['sshsig', registerSshsig],
  ['start', registerStart],
  // room client: login, agents, rooms, actions, watch
  ['login', registerLogin],
  ['agent', registerAgent],
  ['room', registerRoom],
  ['act', registerAct],
  ['watch', registerWatch],
  ['export', registerExport],
  ['verify', registerVerify],
  ['mcp', registerMcp],
];

/** The whole command tree: generic commands, then each protocol module's (docs/protocols.md). */
export function buildProgram(product: Product): Command {
  const modules = product.cliModules;
  const program = new Command('db8')
    .description('db8 command line')
    .version('0.1.0')
    // Commander's own usage errors in the one documented form, `db8: <message>` (docs/cli.md), with
    // where to look, on one line (commander puts its "Did you mean" on a second one); runAction's
    // failures already are. Subcommands inherit this.
    .configureOutput({
      outputError: (text, write) =>
        write(text.startsWith('error: ') ? `db8: ${oneLine(text.slice(7))} (add --help for usage)\n` : text),
    });
  for (const [name, register] of generic) {
    register(program, product);
    for (const m of modules) if (m.listAfter === name) m.register(program);
  }
  // A module without a place (or naming no generic command) still registers, after the rest.
  const placed = new Set(generic.map(([name]) => name));
  for (const m of modules) if (!placed.has(m.listAfter ?? '')) m.register(program);
  unknownOptionsFirst(program);
  return program;
}

/**
 * Commander checks required options before unknown ones, so a typo (`--agentz`) was reported as
 * "required option '--agents' not specified". Required options are checked here instead, in a
 * preAction hook, which runs after commander has refused unknown options and missing arguments.
 */
function unknownOptionsFirst(program: Command): void {
  const required = new Map<Command, Option[]>();
  const walk = (cmd: Command) => {
    const mandatory = cmd.options.filter((o) => o.mandatory);
    for (const o of mandatory) o.mandatory = false;
    if (mandatory.length) required.set(cmd, mandatory);
    for (const sub of cmd.commands) walk(sub);
  };
  walk(program);
  program.hook('preAction', (_program, action) => {
    for (const o of required.get(action) ?? []) {
      if (action.getOptionValue(o.attributeName()) === undefined) {
        // Commander's own wording and error code, as before.
        action.error(`error: required option '${o.flags}' not specified`, {
          code: 'commander.missingMandatoryOptionValue',
        });
      }
    }
  });
}

export async function main(argv: string[], product: Product): Promise<number> {
  const program = buildProgram(product);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (err) {
    process.stderr.write(`db8: ${(err as Error).message}\n`);
    return 1;
  }
}
