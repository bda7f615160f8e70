import type { RoomRow } from '../store/schemas.ts';
import type { Store } from '../store/store.ts';
import { rowToStored } from './entries.ts';
import { runtimeError } from './errors.ts';
import { FoldedRoom, foldEntry, type RoomCore, roomFromSnapshot, SnapshotBodySchema } from './room.ts';
import type { ProtocolRegistry } from './types.ts';

const PAGE = 5000;

export function coreFromRow(row: RoomRow, protocols: ProtocolRegistry): RoomCore {
  const protocol = protocols.get(row.protocol);
  if (!protocol) throw runtimeError('UNKNOWN_PROTOCOL', `this server does not run protocol ${row.protocol}`);
  if (protocol.version !== row.protocolVersion) {
    throw runtimeError(
      'PROTOCOL_VERSION_MISMATCH',
      `room ${row.id} was made with ${row.protocol} v${row.protocolVersion}; this server runs v${protocol.version}`,
    );
  }
  // The stored config is the schema's output as canonical JSON: exactly what setup() saw.
  const config: unknown = JSON.parse(row.configJson);
  return {
    id: row.id,
    protocol,
    protocolVersion: row.protocolVersion,
    config,
    seats: protocol.seats(config),
    seed: row.seed,
  };
}

/** Folds every stored entry after memo.seq into memo (other writers' entries, or a load's tail). */
export async function syncTail(store: Store, memo: FoldedRoom): Promise<number> {
  let n = 0;
  for (;;) {
    const rows = await store.entries.range(memo.core.id, memo.seq + 1, PAGE);
    for (const r of rows) foldEntry(memo, rowToStored(r), r.leafHash);
    n += rows.length;
    if (rows.length < PAGE) return n;
  }
}

/**
 * Loads a room: the newest snapshot, then a refold of the entries after it. With `fromScratch`,
 * ignores snapshots and refolds the whole log (replay and benchmarks compare the two).
 */
export async function loadMemo(
  store: Store,
  protocols: ProtocolRegistry,
  roomId: string,
  opts: { fromScratch?: boolean } = {},
): Promise<FoldedRoom> {
  const row = await store.rooms.get(roomId);
  if (!row) throw runtimeError('ROOM_NOT_FOUND', `no room ${roomId}`);
  const core = coreFromRow(row, protocols);
  let memo = FoldedRoom.empty(core);
  const snap = opts.fromScratch ? null : await store.snapshots.latest(roomId);
  if (snap) {
    const body = SnapshotBodySchema.safeParse(JSON.parse(snap.bodyJson));
    // An unreadable snapshot only costs time: fall back to the full refold.
    if (body.success && body.data.seq === snap.seq) memo = roomFromSnapshot(core, body.data);
  }
  await syncTail(store, memo);
  return memo;
}
