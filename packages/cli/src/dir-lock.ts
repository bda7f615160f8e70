import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import lockfile from 'proper-lockfile';

/**
 * One process at a time on a directory: an embedded PGlite database under the CLI's home (two
 * processes with it open at once corrupt it). Every opener holds this lock for as long as the
 * database is open; the others wait their turn.
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

export class DirLockedError extends Error {}

export interface DirLock {
  release(): Promise<void>;
  /** Set if the lock was lost while held (its file removed or not refreshed in time). */
  compromised(): Error | null;
}

/** Locks `dir` (which need not exist yet) through the lock directory `lockPath`. */
export async function lockDir(dir: string, lockPath: string): Promise<DirLock> {
  await mkdir(dirname(lockPath), { recursive: true });
  let lost: Error | null = null;
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(dir, {
      realpath: false,
      lockfilePath: lockPath,
      stale: STALE_MS,
      update: UPDATE_MS,
      retries: RETRIES,
      onCompromised: (e) => {
        lost = e;
      },
    });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOCKED')
      throw new DirLockedError(`${dir} stayed locked by another db8 process`);
    throw e;
  }
  return {
    release: async () => {
      if (!lost) await release();
    },
    compromised: () => lost,
  };
}
