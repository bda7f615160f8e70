import {
  canonicalize,
  commitmentOf,
  entryLeafHashHex,
  fromHex,
  type PublicEntry,
  PublicEntrySchema,
  publicForm,
  sha256Hex,
  toHex,
  verifyReveal,
} from '@db8/core';
import type { Store } from '../store/store.ts';
import { rowToStored } from './entries.ts';
import { runtimeError } from './errors.ts';
import { coreFromRow, loadMemo } from './load.ts';
import { FoldedRoom, foldEntry, stateHash } from './room.ts';
import type { ProtocolRegistry, ReplayReport } from './types.ts';

const PAGE = 5000;

function hashOrNote(state: unknown): string {
  try {
    return stateHash(state);
  } catch (err) {
    return `unhashable: ${(err as Error).message}`;
  }
}

/**
 * Refolds a room from entry 0 with nothing but the log and the room seed, checking on the way
 * every stored byte that can be checked: canonical public JSON, leaf hashes, sealed commitments,
 * reveals, the seed commitment, each snapshot's state hash and each checkpoint's root. Finally
 * compares the refolded state with the state as the runtime loads it (snapshot + tail).
 */
export async function replayRoom(
  store: Store,
  protocols: ProtocolRegistry,
  roomId: string,
): Promise<ReplayReport> {
  const row = await store.rooms.get(roomId);
  if (!row) throw runtimeError('ROOM_NOT_FOUND', `no room ${roomId}`);
  const memo = FoldedRoom.empty(coreFromRow(row, protocols));
  const snapshots = new Map((await store.snapshots.hashes(roomId)).map((s) => [s.seq, s.stateHash]));
  const checkpoints = new Map((await store.checkpoints.list(roomId)).map((c) => [c.size, c.rootHash]));
  const committed = new Map<number, PublicEntry>();
  const problems: string[] = [];
  let first: number | undefined;
  const flag = (seq: number, msg: string) => {
    problems.push(`seq ${seq}: ${msg}`);
    if (first === undefined || seq < first) first = seq;
  };

  let broken = false;
  for (let from = 0; !broken; ) {
    const rows = await store.entries.range(roomId, from, PAGE);
    for (const r of rows) {
      const e = rowToStored(r);
      const pub = publicForm(e);
      if (!PublicEntrySchema.safeParse(pub).success) flag(r.seq, 'public form does not validate');
      if (canonicalize(pub) !== r.publicJson) flag(r.seq, 'stored public JSON is not canonical');
      const leaf = entryLeafHashHex(pub);
      if (leaf !== r.leafHash) flag(r.seq, 'stored leaf hash differs from the entry');
      if (pub.room !== roomId || pub.seq !== r.seq) flag(r.seq, 'entry names another room or seq');
      if (e.sealed && commitmentOf(e.sealed) !== pub.commit)
        flag(r.seq, 'sealed payload does not match its commitment');
      if (pub.commit !== undefined) committed.set(pub.seq, pub);
      for (const rv of pub.reveals ?? []) {
        const c = committed.get(rv.seq);
        if (!c || !verifyReveal(c, rv)) flag(r.seq, `reveal of seq ${rv.seq} does not match its commitment`);
      }
      const payload = pub.payload as Record<string, unknown> | undefined;
      if (pub.kind === 'genesis' && payload?.seedCommit !== sha256Hex(fromHex(row.seed))) {
        flag(r.seq, 'genesis seed commitment does not match the room seed');
      }
      if (pub.kind === 'close' && payload?.seed !== row.seed) flag(r.seq, 'close entry reveals another seed');
      try {
        foldEntry(memo, e, leaf);
      } catch (err) {
        flag(r.seq, (err as Error).message);
        broken = true;
        break;
      }
      const snap = snapshots.get(r.seq);
      if (snap !== undefined && hashOrNote(memo.state) !== snap)
        flag(r.seq, 'snapshot state differs from the refold');
      const cp = checkpoints.get(r.seq + 1);
      if (cp !== undefined && toHex(memo.frontier.root()) !== cp)
        flag(r.seq, 'checkpoint root differs from the log');
    }
    if (rows.length < PAGE) break;
    from = (rows[rows.length - 1]?.seq ?? from) + 1;
  }
  if (!broken && memo.seq !== row.headSeq)
    flag(memo.seq + 1, `room head is ${row.headSeq}, log ends at ${memo.seq}`);

  const refolded = hashOrNote(memo.state);
  let stored = 'unavailable';
  try {
    stored = hashOrNote((await loadMemo(store, protocols, roomId)).state);
  } catch (err) {
    problems.push(`loading the stored state failed: ${(err as Error).message}`);
  }
  if (!broken && refolded !== stored) flag(memo.seq, 'refolded state differs from the stored state');
  return {
    ok: problems.length === 0,
    seq: memo.seq,
    stateHash: refolded,
    storedStateHash: stored,
    ...(first !== undefined ? { firstDivergence: first } : {}),
    problems,
  };
}
