import { mkdir } from 'node:fs/promises';
import lockfile from 'proper-lockfile';
import { indexDir, indexLockPath } from './files.ts';

/**
 * The council index is an embedded PGlite database: one process at a time may open it (two at
 * once corrupt it). Every opener — a run writing its row, list, show, search, replay, reindex —
 * holds this lock for as long as the database is open; the others wait their turn.
 *
 * proper-lockfile takes the lock by mkdir (atomic on local file systems), keeps refreshing its
 * mtime while held, and treats a lock whose mtime is older than STALE_MS as left by a dead
 * process, so a killed `db8` never blocks the home for ever. PGlite can hold the event loop for
 * seconds (initdb, a large transaction), so the stale window is generous.
 */

const STALE_MS = 30_000;
const UPDATE_MS = 5_000;
/** Wait up to about five minutes for another process's turn (a reindex of many runs). */
const RETRIES = { retries: 600, factor: 1.2, minTimeout: 50, maxTimeout: 500 };

export class IndexLockedError extends Error {}

export interface IndexLock {
  release(): Promise<void>;
  /** Set if the lock was lost while held (its file removed or not refreshed in time). */
  compromised(): Error | null;
}

export async function lockIndex(home: string): Promise<IndexLock> {
  await mkdir(home, { recursive: true });
  let lost: Error | null = null;
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(indexDir(home), {
      realpath: false,
      lockfilePath: indexLockPath(home),
      stale: STALE_MS,
      update: UPDATE_MS,
      retries: RETRIES,
      onCompromised: (e) => {
        lost = e;
      },
    });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOCKED') {
      throw new IndexLockedError(`the index in ${home} stayed locked by another db8 process`);
    }
    throw e;
  }
  return {
    release: async () => {
      if (!lost) await release();
    },
    compromised: () => lost,
  };
}
