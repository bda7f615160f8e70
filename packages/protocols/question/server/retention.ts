import type { ModuleRuntime as Runtime } from '@db8/server/kit';
import { armAt } from '@db8/server/kit';

/**
 * History retention (docs/swarm.md "Limits"): a closed or expired question room is deleted from
 * the store `retentionMs` after it closed (its close's stream time), entries, checkpoints and all;
 * its reads then answer 404 on every process of the node (each read looks the room up in the
 * store first). Every process runs the purge (deleting is idempotent) and drops what it purged
 * from its own cache. Each purged room leaves a tombstone (`swarm_purged`), so a refold of the
 * stream (a new consumer on this store) does not open it again: the fold looks at what this node
 * did, never at a clock. The stream's max age is only a backstop for the messages themselves.
 */

/** Whether this node purged room `roomId` (its tombstone). */
export async function wasPurged(runtime: Runtime, roomId: string): Promise<boolean> {
  const rows = await runtime.store.db.query('SELECT 1 FROM swarm_purged WHERE room_id = $1', [roomId]);
  return rows.length > 0;
}

/** One pass: purges every room due at `now` (in batches), returns their ids. */
export async function purgeClosedRooms(
  runtime: Runtime,
  retentionMs: number,
  now: number,
): Promise<string[]> {
  const purged: string[] = [];
  for (;;) {
    const ids = await runtime.store.rooms.purgeClosed('question', now - retentionMs, 500);
    if (ids.length > 0) {
      await runtime.store.db.query(
        `INSERT INTO swarm_purged (room_id, purged_at) SELECT id, $2 FROM unnest($1::text[]) AS t(id)
         ON CONFLICT (room_id) DO NOTHING`,
        [ids, now],
      );
    }
    for (const id of ids) runtime.forget(id);
    purged.push(...ids);
    if (ids.length < 500) return purged;
  }
}

/** Runs `purgeClosedRooms` every `min(retention, 1 min)` until stopped. */
export function startRetention(runtime: Runtime, retentionMs: number, onError: (m: string) => void) {
  const every = Math.min(retentionMs, 60_000);
  let stopped = false;
  let cancel: () => void = () => {};
  const pass = () => {
    if (stopped) return;
    void purgeClosedRooms(runtime, retentionMs, runtime.now())
      .catch((err) => onError(`swarm retention: ${(err as Error).message}`))
      .finally(() => {
        if (!stopped) cancel = armAt(Date.now() + every, pass, Date.now);
      });
  };
  cancel = armAt(Date.now() + every, pass, Date.now);
  return {
    stop() {
      stopped = true;
      cancel();
    },
  };
}
