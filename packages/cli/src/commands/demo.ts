// `db8 demo <name>`: protocol modules add their demonstrations to one group. It is made on first
// use, so `db8 --help` lists it beside the first module that contributes a demo.
import type { Command } from 'commander';

export function demoGroup(program: Command): Command {
  return (
    program.commands.find((c) => c.name() === 'demo') ??
    program.command('demo').description('demonstrations on a local server')
  );
}
