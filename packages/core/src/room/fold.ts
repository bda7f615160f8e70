import { z } from 'zod';
import { fromHex } from '../crypto/bytes.ts';
import { hashCanonical } from '../crypto/hash.ts';
import { canonicalize, type JsonValue } from '../json/index.ts';
import { entryPayload, type StoredEntry } from '../log/entry.ts';
import type { MerkleLog } from '../merkle/log.ts';
import type { AnyProtocol, SeatInfo } from '../protocol/contract.ts';
import { Frontier } from './frontier.ts';

/**
 * The one fold: a stored entry into a room's state. The server runtime (load, sync, replay), the
 * LocalRoom (tests, local runs) and offline verification (`db8 verify`) all fold through here, so
 * a log means the same thing everywhere.
 */

/** What never changes in a room: fixed at creation (protocol, config, seats, seed). */
export interface RoomCore {
  id: string;
  protocol: AnyProtocol;
  protocolVersion: number;
  config: unknown;
  seats: SeatInfo[];
  seed: string;
}

export type Holders = Record<string, { principal: string; seq: number }>;

/**
 * A room folded up to `seq`: protocol state plus the bookkeeping every writer needs (seat holders,
 * tree frontier, last timestamp, closed). The server forks it for each write batch.
 */
export class FoldedRoom {
  /** The server builds a full tree lazily for inclusion proofs; append-only, shared between forks. */
  tree: MerkleLog | null = null;

  constructor(
    readonly core: RoomCore,
    public state: unknown,
    public seq: number,
    public lastTs: number,
    public frontier: Frontier,
    public holders: Holders,
    public closed: boolean,
  ) {}

  static empty(core: RoomCore): FoldedRoom {
    return new FoldedRoom(core, undefined, -1, 0, Frontier.empty(), {}, false);
  }

  fork(): FoldedRoom {
    const m = new FoldedRoom(
      this.core,
      this.state,
      this.seq,
      this.lastTs,
      this.frontier.clone(),
      { ...this.holders },
      this.closed,
    );
    m.tree = this.tree;
    return m;
  }

  get protocol(): AnyProtocol {
    return this.core.protocol;
  }

  seatOf(principal: string): string | undefined {
    for (const seat of this.core.seats) if (this.holders[seat.id]?.principal === principal) return seat.id;
    return undefined;
  }
}

/**
 * Who ended a room before its protocol was over, and why (an admin's act, Colyseus' "dispose"):
 * recorded in the close entry's payload beside the seed and the (null) result. A close without it
 * must come exactly when the protocol says the room is over; a close with it may come at any time.
 */
export const EndedSchema = z.object({ by: z.string().min(1), reason: z.string() }).strict();
export type Ended = z.infer<typeof EndedSchema>;

/** The close payload every writer records: the room seed, the result, and who ended it early. */
export function closePayload(seed: string, result: JsonValue, ended?: Ended): JsonValue {
  return ended ? { seed, result, ended } : { seed, result };
}

/** The `ended` of a close entry's payload, or null when the room closed because it was over. */
export function endedOf(payload: unknown): Ended | null {
  if (payload === null || typeof payload !== 'object') return null;
  const r = EndedSchema.safeParse((payload as { ended?: unknown }).ended);
  return r.success ? r.data : null;
}

export const JoinPayloadSchema = z.object({ seat: z.string(), principal: z.string() });
export type JoinPayload = z.infer<typeof JoinPayloadSchema>;

/** A logged entry the protocol does not reproduce: the log and the code disagree at `seq`. */
export class RefoldError extends Error {
  readonly code = 'REFOLD_FAILED';
  constructor(
    readonly seq: number,
    message: string,
  ) {
    super(message);
    this.name = 'RefoldError';
  }
}

function refoldError(entry: StoredEntry, why: string): RefoldError {
  return new RefoldError(entry.seq, `room ${entry.room} seq ${entry.seq}: ${why}`);
}

/** The note is never folded, only recomputed: the stored one must be exactly what the protocol says. */
function checkNote(entry: StoredEntry, note: unknown): void {
  const want = note === undefined ? undefined : canonicalize(note);
  const got = entry.note === undefined ? undefined : canonicalize(entry.note);
  if (want !== got) throw refoldError(entry, 'stored note differs from the one the protocol recomputes');
}

/**
 * Folds one stored entry into the memo: exactly what the live path did when it wrote the entry
 * (same protocol call, same payload, same `now` = entry ts, same seq). The leaf hash is the stored
 * one on load (replay recomputes and compares it separately). `payload` overrides the entry's own
 * (a verifier folding a public entry whose sealed payload a later reveal published).
 */
export function foldEntry(
  memo: FoldedRoom,
  entry: StoredEntry,
  leafHashHex: string,
  payload?: unknown,
): void {
  if (entry.seq !== memo.seq + 1) throw refoldError(entry, `expected seq ${memo.seq + 1}`);
  const p = memo.protocol;
  const body = payload !== undefined ? payload : entryPayload(entry);
  switch (entry.kind) {
    case 'genesis':
      memo.state = p.setup(memo.core.config, { seats: memo.core.seats, seed: memo.core.seed, now: entry.ts });
      break;
    case 'join': {
      const j = JoinPayloadSchema.safeParse(body);
      if (!j.success)
        throw refoldError(entry, 'join entry without {seat, principal} (sealed payload missing?)');
      memo.holders[j.data.seat] = { principal: j.data.principal, seq: entry.seq };
      break;
    }
    case 'action': {
      if (body === undefined) throw refoldError(entry, 'action payload missing');
      const r = p.apply(memo.state, { seat: entry.actor, action: body, now: entry.ts, seq: entry.seq });
      if (!r.ok) throw refoldError(entry, `protocol rejected a logged action: ${r.error.code}`);
      checkNote(entry, r.note);
      memo.state = r.state;
      break;
    }
    case 'tick': {
      const t = p.tick(memo.state, entry.ts, entry.seq);
      if (!t) throw refoldError(entry, 'protocol had nothing to do at a logged tick');
      checkNote(entry, t.note);
      memo.state = t.state;
      break;
    }
    case 'close':
      memo.closed = true;
      break;
  }
  memo.frontier.append(fromHex(leafHashHex));
  memo.seq = entry.seq;
  memo.lastTs = entry.ts;
}

/** Snapshot body: everything FoldedRoom holds beyond its core. */
export const SnapshotBodySchema = z.object({
  v: z.literal(1),
  seq: z.number().int(),
  lastTs: z.number().int(),
  state: z.unknown(),
  holders: z.record(z.string(), z.object({ principal: z.string(), seq: z.number().int() })),
  closed: z.boolean(),
  frontier: z.object({ size: z.number().int().nonnegative(), nodes: z.array(z.string()) }),
});
export type SnapshotBody = z.infer<typeof SnapshotBodySchema>;

export function snapshotBody(memo: FoldedRoom): SnapshotBody {
  return {
    v: 1,
    seq: memo.seq,
    lastTs: memo.lastTs,
    state: memo.state as JsonValue,
    holders: memo.holders,
    closed: memo.closed,
    frontier: memo.frontier.toJSON(),
  };
}

export function roomFromSnapshot(core: RoomCore, body: SnapshotBody): FoldedRoom {
  if (body.frontier.size !== body.seq + 1) throw new Error('snapshot frontier size does not match its seq');
  return new FoldedRoom(
    core,
    body.state,
    body.seq,
    body.lastTs,
    Frontier.fromJSON(body.frontier),
    { ...body.holders },
    body.closed,
  );
}

/** The state hash replay, snapshots and verify compare (RFC 8785 canonical JSON, SHA-256). */
export function stateHash(state: unknown): string {
  return hashCanonical(state);
}
