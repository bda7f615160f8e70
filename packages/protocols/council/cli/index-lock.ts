import { type DirLock, lockDir } from '@db8/cli/kit-run';
import { indexDir, indexLockPath } from './files.ts';

/**
 * The council index is an embedded PGlite database: one process at a time may open it. Every
 * opener — a run writing its row, list, show, search, replay, reindex — holds the CLI kit's
 * directory lock (dir-lock.ts) on it for as long as the database is open.
 */
export type IndexLock = DirLock;

export function lockIndex(home: string): Promise<IndexLock> {
  return lockDir(indexDir(home), indexLockPath(home));
}
