// Opening a server's store directly (export --data-dir): the same store and key files the
// server uses, without starting it. PGlite is single-process: the server must be stopped first.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type AnyProtocol, createProtocolRegistry, noteText, parseCheckpoint } from '@db8/core';
import {
  loadOrCreateServerKey,
  openStore,
  Runtime,
  resolveDataDir,
  SERVER_KEY_FILE,
  type ServerKey,
  type Store,
} from '@db8/server';
import { EXIT_IO_ERROR, EXIT_USAGE } from '../exit-codes.ts';
import { CliError } from '../io.ts';

export type StoreOpts = { dataDir?: string; databaseUrl?: string };

export { STORE_HELP } from '../help-text.ts';

export async function openLocalStore(o: StoreOpts): Promise<Store> {
  const dir = resolveDataDir(o.dataDir);
  const url = o.databaseUrl ?? process.env.DATABASE_URL;
  if (!url && !existsSync(join(dir, 'pglite'))) {
    throw new CliError(EXIT_USAGE, `no db8 store in ${dir} (give --data-dir or --database-url)`);
  }
  try {
    return await openStore({ dataDir: dir, ...(url ? { databaseUrl: url } : {}) });
  } catch (e) {
    const hint = url ? '' : ' (is a server running on it? stop it first: PGlite is single-process)';
    throw new CliError(EXIT_IO_ERROR, `cannot open the store: ${(e as Error).message}${hint}`);
  }
}

/** The server key in the data directory; never creates one (that would sign with a stranger's key). */
export function existingServerKey(dataDir: string | undefined): ServerKey | null {
  const dir = resolveDataDir(dataDir);
  return existsSync(join(dir, SERVER_KEY_FILE)) ? loadOrCreateServerKey(dir) : null;
}

/** The host part of the room log's origin, as the server signed it (`<host>/room/<id>`). */
export async function originOf(store: Store, roomId: string): Promise<string | undefined> {
  const cp = await store.checkpoints.latest(roomId);
  if (!cp) return undefined;
  const origin = parseCheckpoint(noteText(cp.note)).origin;
  const suffix = `/room/${roomId}`;
  return origin.endsWith(suffix) ? origin.slice(0, -suffix.length) : undefined;
}

/** A runtime over the store with the server's own key and origin, so what it signs is the server's. */
export async function localRuntime(
  store: Store,
  o: StoreOpts,
  roomId: string,
  protocols: readonly AnyProtocol[],
): Promise<Runtime> {
  const key = existingServerKey(o.dataDir);
  if (!key)
    throw new CliError(EXIT_USAGE, `no server key (${SERVER_KEY_FILE}) in ${resolveDataDir(o.dataDir)}`);
  const origin = await originOf(store, roomId);
  return new Runtime({
    store,
    protocols: createProtocolRegistry(protocols),
    serverKey: key,
    ...(origin ? { origin } : {}),
  });
}
