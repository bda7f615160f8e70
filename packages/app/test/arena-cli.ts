// `db8 <argv>` run in this process, as the arena's CLI tests drive it (the program's own commands,
// parsed from argv, output captured).

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildProgram } from '@db8/cli';
import type { Command } from 'commander';
import { vi } from 'vitest';
import { product } from '../src/main.ts';

/** `db8 <argv>` in this process: its stdout, and its error (message, exit code) if it failed. */
export async function db8(
  argv: string[],
): Promise<{ out: string; error: { message: string; exitCode: number } | null }> {
  const program = buildProgram(product);
  const quiet = (cmd: Command) => {
    cmd.exitOverride();
    cmd.configureOutput({ writeErr: () => {}, writeOut: () => {}, outputError: () => {} });
    for (const sub of cmd.commands) quiet(sub);
  };
  quiet(program);
  let out = '';
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: unknown, cb?: unknown) => {
    out += String(chunk);
    if (typeof cb === 'function') cb();
    return true;
  }) as typeof process.stdout.write);
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return { out, error: null };
  } catch (e) {
    const err = e as { message: string; exitCode: number };
    return { out, error: { message: err.message, exitCode: err.exitCode } };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}

/** The mock model server's two wires as provider profiles, the way a user's config names them. */
export const mockProfiles = (models: { openaiBaseUrl: string; anthropicBaseUrl: string }) => ({
  'mock-openai': { kind: 'openai', baseUrl: models.openaiBaseUrl },
  'mock-anthropic': { kind: 'anthropic', baseUrl: models.anthropicBaseUrl },
});

/** Writes `config` as `<dir>/db8.config.json` and points DB8_CONFIG at it (undone by vi.unstubAllEnvs). */
export async function writeConfig(dir: string, config: Record<string, unknown>): Promise<void> {
  const file = join(dir, 'db8.config.json');
  await writeFile(file, JSON.stringify(config));
  vi.stubEnv('DB8_CONFIG', file);
}
