// Shared plumbing for commands: read a file or stdin, write exact bytes, turn any failure into one
// `db8: …` line on stderr with the documented exit code (exit-codes.ts) — never a stack trace.
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { clipText, JsonError, utf8Decode } from '@db8/core';
import type { Command } from 'commander';
import { EXIT_INVALID_INPUT, EXIT_IO_ERROR, EXIT_USAGE, type ExitCode } from './exit-codes.ts';

/** A failure with the exit code it should end the process with. */
export class CliError extends Error {
  constructor(
    readonly exitCode: ExitCode,
    message: string,
  ) {
    super(message);
  }
}

/** `~` or `~/…` resolved against the home directory (the shell does not do it for option values). */
export function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? join(homedir(), p.slice(1)) : p;
}

/** `-` or no argument means stdin; names the input in messages. */
export function inputName(path: string | undefined): string {
  return path === undefined || path === '-' ? '<stdin>' : path;
}

function describeIoError(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  const m = /^E[A-Z]+: ([^,]+)/.exec(err.message ?? '');
  return m && err.code ? `${m[1]} (${err.code})` : (err.message ?? String(e));
}

/** All bytes of a file, or of stdin for `-`/undefined. Refuses to wait on an interactive terminal. */
export async function readInput(path: string | undefined): Promise<Uint8Array> {
  const fromStdin = path === undefined || path === '-';
  if (path === undefined && process.stdin.isTTY) {
    throw new CliError(EXIT_USAGE, 'no input: give a file, or pipe the input to stdin (or use - to type it)');
  }
  try {
    if (!fromStdin) return new Uint8Array(await readFile(path));
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(c as Buffer);
    return new Uint8Array(Buffer.concat(chunks));
  } catch (e) {
    throw new CliError(EXIT_IO_ERROR, `cannot read ${inputName(path)}: ${describeIoError(e)}`);
  }
}

/** The input as text: strict UTF-8 (invalid bytes are an error, not U+FFFD); a BOM is kept. */
export async function readTextInput(path: string | undefined): Promise<string> {
  const bytes = await readInput(path);
  try {
    return utf8Decode(bytes);
  } catch {
    throw new CliError(EXIT_INVALID_INPUT, `${inputName(path)}: not valid UTF-8`);
  }
}

/** Write exact bytes to stdout (no newline added); a closed pipe is an I/O error, not a crash. */
export async function writeStdout(data: Uint8Array | string): Promise<void> {
  const out = process.stdout;
  await new Promise<void>((resolve, reject) => {
    // The stream also emits 'error' (on a later tick); without a listener that would crash the process.
    const onError = (e: Error) => reject(e);
    out.once('error', onError);
    out.write(data, (err) => {
      if (err) return reject(err);
      out.off('error', onError);
      resolve();
    });
  }).catch((e: unknown) => {
    throw new CliError(EXIT_IO_ERROR, `cannot write to stdout: ${describeIoError(e)}`);
  });
}

/** Exit code for any error: CliError says; JSON and decoding errors are invalid input; errno is I/O. */
export function exitCodeOf(e: unknown): ExitCode {
  if (e instanceof CliError) return e.exitCode;
  if (e instanceof JsonError || e instanceof TypeError || e instanceof RangeError) return EXIT_INVALID_INPUT;
  if (typeof (e as NodeJS.ErrnoException)?.code === 'string') return EXIT_IO_ERROR;
  return EXIT_INVALID_INPUT;
}

/** One line, however the message was built. */
export function oneLine(message: string): string {
  const line = message.replace(/\s*\n\s*/g, ' ').trim();
  return clipText(line, 1000, '...');
}

/** Wrap a command action: on failure print `db8: <message>` and exit with exitCodeOf(error). */
export function runAction<A extends unknown[]>(cmd: Command, fn: (...args: A) => Promise<void>) {
  return async (...args: A): Promise<void> => {
    try {
      await fn(...args);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      cmd.error(`db8: ${oneLine(message)}`, { exitCode: exitCodeOf(e), code: 'db8.error' });
    }
  };
}
