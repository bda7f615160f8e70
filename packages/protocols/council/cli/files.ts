import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { parseJson } from '@db8/core';

/**
 * Where a council's files live under the home (seed 001, Decision 5) and how they are written:
 * every file atomically (a temp file renamed into place), JSON pretty-printed for people — hashes
 * are always over the RFC 8785 canonical form, so formatting never matters to replay.
 */

export const RUN_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,79}$/;

export function homeDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(flag ?? env.DB8_HOME ?? '.db8');
}

export function runDir(home: string, runId: string): string {
  if (!RUN_ID_PATTERN.test(runId)) throw new Error(`not a run id: ${runId}`);
  return join(runsDir(home), runId);
}

export function indexDir(home: string): string {
  return join(home, 'index');
}

/** The lock every process holds while the index is open (index-lock.ts). */
export function indexLockPath(home: string): string {
  return join(home, 'index.lock');
}

export function runsDir(home: string): string {
  return join(home, 'records', 'debates');
}

/** The decision record's path relative to the home (what the packet's writeback names). */
export function recordRelPath(runId: string): string {
  return `records/decisions/${runId}.json`;
}

export function relToHome(home: string, path: string): string {
  return relative(home, path).split('\\').join('/');
}

/** `20260115-090000-a1b2c3`: sortable by time, unique enough for one person's runs. */
export function newRunId(now: number): string {
  const iso = new Date(now).toISOString();
  const stamp = `${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}`;
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}

export async function writeAtomic(path: string, data: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(tmp, data, { flag: 'wx' });
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}

export function jsonText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

export async function writeJson(path: string, value: unknown): Promise<void> {
  await writeAtomic(path, jsonText(value));
}

/** Read a JSON file strictly (duplicate keys, lone surrogates and unsafe integers are errors). */
export async function readJson(path: string): Promise<unknown> {
  return parseJson(await readFile(path, 'utf8'));
}
