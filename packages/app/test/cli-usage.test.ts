// Usage errors name the actual mistake: an unknown option is "unknown option", on every command,
// even one with required options (commander checked those first and blamed a missing one).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildProgram } from '@db8/cli';
import { spawnDb8 } from '@db8/cli/test/helpers.ts';
import { type Command, CommanderError } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { product } from '../src/main.ts';

const dir = mkdtempSync(join(tmpdir(), 'db8-usage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every command that runs an action, with its path of names from the root. */
function runnable(program: Command): Array<{ path: string[]; cmd: Command }> {
  const out: Array<{ path: string[]; cmd: Command }> = [];
  const walk = (cmd: Command, path: string[]) => {
    // Commander's error settings are copied when a subcommand is made: set them on each one.
    cmd.exitOverride();
    cmd.configureOutput({ writeErr: () => {}, writeOut: () => {}, outputError: () => {} });
    if ((cmd as unknown as { _actionHandler: unknown })._actionHandler) out.push({ path, cmd });
    for (const sub of cmd.commands) walk(sub, [...path, sub.name()]);
  };
  walk(program, []);
  return out;
}

async function refusal(program: Command, argv: string[]): Promise<CommanderError> {
  const err = await program.parseAsync(argv, { from: 'user' }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, argv.join(' ')).toBeInstanceOf(CommanderError);
  return err as CommanderError;
}

describe('usage errors', () => {
  it('every command answers an unknown option with "unknown option", required options or not', async () => {
    const commands = runnable(buildProgram(product));
    expect(commands.length).toBeGreaterThan(20);
    const withRequired = commands.filter(({ cmd }) =>
      cmd.options.some((o) => o.flags.startsWith('--agents') || o.flags.includes('--protocol')),
    );
    expect(withRequired.length).toBeGreaterThan(0);
    for (const { path } of commands) {
      const program = buildProgram(product);
      runnable(program);
      const err = await refusal(program, [...path, '--agentz']);
      expect(err.code, path.join(' ')).toBe('commander.unknownOption');
      expect(err.message, path.join(' ')).toMatch(
        /^error: unknown option '--agentz'(\n\(Did you mean --agents\?\))?$/,
      );
      expect(err.exitCode).toBe(1);
    }
  });

  it('a required option left out is still refused, before the command runs', async () => {
    const program = buildProgram(product);
    runnable(program);
    const err = await refusal(program, ['poker', 'simulate']);
    expect(err.code).toBe('commander.missingMandatoryOptionValue');
    expect(err.message).toBe("error: required option '--agents <list>' not specified");
    expect(err.exitCode).toBe(1);
  });

  it('the real CLI says so on stderr with the usage exit code', async () => {
    const typo = await spawnDb8(['poker', 'simulate', '--agentz', 'tight,random'], dir);
    expect(typo.status).toBe(1);
    // One line, with commander's suggestion.
    expect(typo.stderr).toBe(
      "db8: unknown option '--agentz' (Did you mean --agents?) (add --help for usage)\n",
    );
    const missing = await spawnDb8(['room', 'create'], dir);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toBe(
      "db8: required option '--protocol <name>' not specified (add --help for usage)\n",
    );
  });
});
