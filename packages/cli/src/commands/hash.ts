// `db8 hash [file|-]`: SHA-256 (lowercase hex) of the canonical form, as hashCanonical computes it.
import { sha256Hex } from '@db8/core';
import type { Command } from 'commander';
import { runAction, writeStdout } from '../io.ts';
import { canonicalInput } from './canon.ts';

export function register(program: Command): void {
  const cmd = program
    .command('hash')
    .description(
      'print the SHA-256 (hex) of the RFC 8785 canonical form of a JSON file or stdin, then a newline',
    )
    .argument('[file]', 'JSON file; - or nothing for stdin');
  cmd.action(
    runAction(cmd, async (file: string | undefined) => {
      await writeStdout(`${sha256Hex(await canonicalInput(file))}\n`);
    }),
  );
}
