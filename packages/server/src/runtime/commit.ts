import { canonicalize, roomOrigin, signCheckpoint, toHex } from '@db8/core';
import type { ServerKey } from '../keys/server-key.ts';
import type { Store } from '../store/store.ts';
import type { BatchPlan, PlannedCheckpoint } from './batch-plan.ts';
import { type FoldedRoom, snapshotBody, stateHash } from './room.ts';

/** Thrown inside a commit to abandon it as a lost race (retried like a seq conflict). */
export class RaceLost extends Error {}
/** Thrown inside a watcher tick's commit when another node holds the room's tick lock. */
export class TickLockBusy extends Error {}

export interface CommitConfig {
  serverKey: ServerKey;
  origin: string;
  snapshotEvery: number;
  checkpointEvery: number;
  /** Protocols whose rooms are ticked by their module, not the deadline scheduler (RuntimeOptions). */
  externalClock?: (protocol: string) => boolean;
}

export function signRoomCheckpoint(
  cfg: CommitConfig,
  roomId: string,
  size: number,
  root: Uint8Array,
): string {
  return signCheckpoint({ origin: roomOrigin(cfg.origin, roomId), size, rootHash: root }, [
    cfg.serverKey.noteSigner,
  ]);
}

/**
 * The room's deadline_at as stored with its head: a function of the state alone, so any node's
 * memo at a seq knows it. An externally clocked room keeps none, so no node's scheduler ticks it.
 */
export function storedDeadline(memo: FoldedRoom, cfg: Pick<CommitConfig, 'externalClock'>): number | null {
  if (memo.closed || cfg.externalClock?.(memo.protocol.name)) return null;
  const at = memo.protocol.deadline(memo.state);
  // Only a finite instant is a deadline: NaN or ±Infinity would arm no timer that means anything.
  return at !== null && Number.isFinite(at) ? at : null;
}

const crossed = (from: number, to: number, every: number) =>
  Math.floor(from / every) !== Math.floor(to / every);

/**
 * Writes a planned batch atomically: entries (unique (room_id, seq) is the race arbiter),
 * idempotency records, seat holders, the room head and deadline, and — when due — a snapshot and
 * signed checkpoints. Any failure rolls all of it back.
 */
export async function commitPlan(
  store: Store,
  plan: BatchPlan,
  before: FoldedRoom,
  cfg: CommitConfig,
  opts: { tickLock?: boolean } = {},
): Promise<void> {
  const memo = plan.memo;
  const roomId = memo.core.id;
  const oldSize = before.seq + 1;
  const newSize = memo.seq + 1;
  const deadline = storedDeadline(memo, cfg);

  const checkpoints: PlannedCheckpoint[] = [...plan.checkpoints];
  if (crossed(oldSize, newSize, cfg.checkpointEvery) && !checkpoints.some((c) => c.size === newSize)) {
    checkpoints.push({ size: newSize, root: memo.frontier.root(), milestone: null });
  }
  let snapshot: { body: string; hash: string } | null = null;
  if (crossed(oldSize, newSize, cfg.snapshotEvery) || (memo.closed && !before.closed)) {
    try {
      snapshot = { body: canonicalize(snapshotBody(memo)), hash: stateHash(memo.state) };
    } catch {
      snapshot = null; // a state that is not JSON cannot be snapshotted; loads refold instead
    }
  }
  const ts = memo.lastTs;

  const head = {
    roomId,
    headSeq: memo.seq,
    deadlineAt: deadline,
    status: memo.closed ? 'closed' : 'open',
    updatedAt: ts,
  } as const;
  const rows = plan.out.map((b) => b.row);
  const checkpointRows = checkpoints.map((c) => ({
    roomId,
    size: c.size,
    rootHash: toHex(c.root),
    note: signRoomCheckpoint(cfg, roomId, c.size, c.root),
    milestone: c.milestone,
    createdAt: ts,
  }));
  // The common case is one statement, checkpoints included: no BEGIN/COMMIT round trips, still atomic.
  if (!opts.tickLock && plan.seatTakes.length === 0 && !snapshot) {
    await store.entries.appendWithHead(rows, plan.idem, head, checkpointRows);
    return;
  }
  await store.tx(async (s) => {
    if (opts.tickLock) {
      const [row] = await s.db.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked',
        [`db8:tick:${roomId}`],
      );
      if (!row?.locked) throw new TickLockBusy();
    }
    await s.entries.appendWithHead(rows, plan.idem, head);
    for (const t of plan.seatTakes) {
      if (!(await s.rooms.takeSeat(roomId, t.seat, t.principal, t.seq, t.ts, t.from))) throw new RaceLost();
    }
    if (snapshot) {
      await s.snapshots.put({
        roomId,
        seq: memo.seq,
        stateHash: snapshot.hash,
        bodyJson: snapshot.body,
        createdAt: ts,
      });
    }
    for (const c of checkpointRows) await s.checkpoints.put(c);
  });
}
