// `db8 canon [file|-]`: the RFC 8785 canonical form of a JSON document — the exact bytes db8 hashes.
import { canonicalBytes, parseJson } from '@db8/core';
import type { Command } from 'commander';
import { inputName, readTextInput, runAction, writeStdout } from '../io.ts';

/** Strict-parse the file (or stdin) and return its canonical UTF-8 bytes; errors name the input. */
export async function canonicalInput(file: string | undefined): Promise<Uint8Array<ArrayBuffer>> {
  const text = await readTextInput(file);
  try {
    return canonicalBytes(parseJson(text));
  } catch (e) {
    if (e instanceof Error) e.message = `${inputName(file)}: ${e.message}`;
    throw e;
  }
}

export function register(program: Command): void {
  const cmd = program
    .command('canon')
    .description(
      'print the RFC 8785 canonical JSON of a file or stdin, with no trailing newline: the exact bytes db8 hashes',
    )
    .argument('[file]', 'JSON file; - or nothing for stdin');
  cmd.action(
    runAction(cmd, async (file: string | undefined) => {
      await writeStdout(await canonicalInput(file));
    }),
  );
}
