import { readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SqlDriver } from '@db8/server/kit';

/**
 * What survives a server that dies during a measurement (docs/deliberation.md#sandbox):
 *
 * - The ledger of started runs: a version is claimed before it runs and released once its
 *   measurement is recorded. A claim older than the longest a run can take (the lease) means the
 *   run never finished — the server stopped, whatever the cause — and the version is recorded as
 *   an interrupted, failed measurement instead of being run again: no crash loop. A younger claim
 *   is another worker's (or this server's previous life's) run still within its time: wait for it.
 * - Leftover temp dirs of the sandbox before bubblewrap (`db8-sandbox-*` under the temp dir): the
 *   sandbox now writes nothing to the host's disk (its work dir is a tmpfs in its own mount
 *   namespace, gone with it), and the worker removes old ones when it starts.
 */

export type Claim =
  | { kind: 'run' }
  | { kind: 'interrupted'; startedAt: number }
  | { kind: 'busy'; until: number };

export interface SandboxRuns {
  begin(room: string, version: number, now: number, leaseMs: number): Promise<Claim>;
  finish(room: string, version: number): Promise<void>;
}

function claimOf(startedAt: number, now: number, leaseMs: number): Claim {
  return now - startedAt >= leaseMs
    ? { kind: 'interrupted', startedAt }
    : { kind: 'busy', until: startedAt + leaseMs };
}

/** The ledger in the server's store (PGlite or Postgres), shared by every worker on it. */
export function sqlSandboxRuns(db: SqlDriver): SandboxRuns {
  return {
    async begin(room, version, now, leaseMs) {
      const inserted = await db.query(
        `INSERT INTO deliberation_sandbox_runs (room_id, version, started_at) VALUES ($1, $2, $3)
         ON CONFLICT (room_id, version) DO NOTHING RETURNING started_at`,
        [room, version, now],
      );
      if (inserted.length > 0) return { kind: 'run' };
      const rows = await db.query<{ started_at: number }>(
        'SELECT started_at FROM deliberation_sandbox_runs WHERE room_id = $1 AND version = $2',
        [room, version],
      );
      // Released between the two statements: recorded by whoever held it.
      if (rows.length === 0) return { kind: 'busy', until: now };
      return claimOf(Number(rows[0]!.started_at), now, leaseMs);
    },
    async finish(room, version) {
      await db.query('DELETE FROM deliberation_sandbox_runs WHERE room_id = $1 AND version = $2', [
        room,
        version,
      ]);
    },
  };
}

/** A ledger in memory (a worker without a store; it forgets with the process). */
export function memorySandboxRuns(): SandboxRuns {
  const started = new Map<string, number>();
  return {
    async begin(room, version, now, leaseMs) {
      const key = `${room}/${version}`;
      const at = started.get(key);
      if (at === undefined) {
        started.set(key, now);
        return { kind: 'run' };
      }
      return claimOf(at, now, leaseMs);
    },
    async finish(room, version) {
      started.delete(`${room}/${version}`);
    },
  };
}

/** The prefix of the temp dirs the sandbox used before bubblewrap. */
export const LEGACY_TEMP_PREFIX = 'db8-sandbox-';

/**
 * Removes `db8-sandbox-*` dirs under `dir` not touched for `olderThanMs` (a run lasts seconds, so
 * an older one is a leftover of a killed server — never another server's run in progress).
 * Returns the names removed.
 */
export async function sweepLegacyTempDirs(
  dir: string = tmpdir(),
  olderThanMs = 10 * 60_000,
  now: number = Date.now(),
): Promise<string[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.startsWith(LEGACY_TEMP_PREFIX));
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const path = join(dir, name);
    try {
      const s = await stat(path);
      if (!s.isDirectory() || now - s.mtimeMs < olderThanMs) continue;
      await rm(path, { recursive: true, force: true });
      removed.push(name);
    } catch {}
  }
  return removed;
}
