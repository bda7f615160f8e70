/** name → protocol, as @db8/protocols' createProtocolRegistry builds it. */
import type { Legal, ProtocolRegistry, PublicEntry, SeatInfo } from '@db8/core';
import { JsonValueSchema } from '@db8/core';
import { z } from 'zod';
import type { ServerKey } from '../keys/server-key.ts';
import type { Store } from '../store/store.ts';
import type { RuntimeError } from './errors.ts';

export type { ProtocolRegistry };

/** What the runtime needs of a Bus (packages/server/src/bus): publish appended public forms. */
export interface EntryPublisher {
  publish(roomId: string, entry: PublicEntry): Promise<void>;
}

/** What the runtime needs to hear of a Bus: every room's appends, this node's and other nodes'. */
export interface EntryAnnouncements {
  subscribe(roomId: '*', fn: (entry: PublicEntry) => void): () => void;
}

export interface RuntimeOptions {
  store: Store;
  protocols: ProtocolRegistry;
  serverKey: ServerKey;
  bus?: EntryPublisher;
  /**
   * The bus as heard by this node (Postgres only). With it, a read re-reads a room's tail only when
   * the bus announced a seq past the cached one (or `tailStaleMs` passed since the last check, in
   * case a message was lost); without it, every read re-reads the tail (other writers unseen).
   */
  announcements?: EntryAnnouncements;
  /** Longest a cached room is trusted without a tail check when announcements are heard (default 1000 ms). */
  tailStaleMs?: number;
  /** Unix ms. Injected in tests; Date.now otherwise. */
  clock?: () => number;
  /** Snapshot the state after at least this many new entries (default 256). */
  snapshotEvery?: number;
  /** Sign a checkpoint after at least this many new entries (default 64), besides milestones. */
  checkpointEvery?: number;
  /** Host part of each room log's checkpoint origin: `<origin>/room/<id>` (default `db8.local`). */
  origin?: string;
  /** Most actions one transaction may carry when a room is busy (default 256). */
  maxBatch?: number;
  /** Retries after losing a seq race to another server process (default 16). */
  maxRetries?: number;
  /** Called when publishing to the bus fails (the entry is durable; subscribers resync). */
  onPublishError?: (err: unknown, roomId: string, seq: number) => void;
  /**
   * Actions a protocol writes in a join's own commit, right after the join entry (protocol modules'
   * `onJoin`). A refused action is skipped: the seat is taken either way.
   */
  joinEffects?: (protocol: string, input: JoinInput) => readonly JoinEffect[];
  /**
   * Protocols whose rooms take their time from outside (a replicated stream): their deadlines are
   * not stored for the deadline scheduler, and their module ticks them with the stream's instant.
   */
  externalClock?: (protocol: string) => boolean;
}

/** What a join hook sees: the room, the seat being taken, its new holder and the state before. */
export interface JoinInput {
  roomId: string;
  config: unknown;
  seat: SeatInfo;
  principal: string;
  state: unknown;
}

/** An action written in the join's commit; `clientNonce` makes a retried join write it once. */
export interface JoinEffect {
  seat: string;
  action: unknown;
  clientNonce: string;
}

export const SeatSummarySchema = z.object({ id: z.string(), role: z.string(), held: z.boolean() });

export const RoomInfoSchema = z.object({
  id: z.string(),
  protocol: z.string(),
  protocolVersion: z.number().int(),
  title: z.string().nullable(),
  status: z.enum(['open', 'closed']),
  createdAt: z.number().int(),
  createdBy: z.string().nullable(),
  /** Seq of the last entry (the log has seq + 1 entries). */
  seq: z.number().int(),
  /** Next protocol deadline, unix ms, or null. */
  deadlineUnix: z.number().int().nullable(),
  seats: z.array(SeatSummarySchema),
  config: JsonValueSchema,
});
export type RoomInfo = z.infer<typeof RoomInfoSchema>;

export const AckSchema = z.object({
  seq: z.number().int().nonnegative(),
  /** True when this was a retry of an action already written (nothing new was written). */
  duplicate: z.boolean(),
  ts: z.number().int(),
});
export type Ack = z.infer<typeof AckSchema>;

export interface StateFor {
  seq: number;
  view: unknown;
  legal?: Legal;
  /** unix ms */
  deadlineUnix: number | null;
  status: 'open' | 'closed';
  protocol: string;
}

export interface InclusionProof {
  leafHash: string;
  index: number;
  treeSize: number;
  /** Audit path, hex, bottom-up (RFC 6962). */
  proof: string[];
  /** The signed checkpoint note the proof leads to. */
  checkpoint: string;
}

export interface CheckpointInfo {
  size: number;
  rootHash: string;
  note: string;
  milestone?: string;
}

export interface ReplayReport {
  ok: boolean;
  seq: number;
  stateHash: string;
  storedStateHash: string;
  /** First seq where the stored record and the refold disagree. */
  firstDivergence?: number;
  problems: string[];
}

export interface ActInput {
  seat: string;
  action: unknown;
  clientNonce?: string;
  turnToken?: string;
  /** The head seq the client last saw; STALE_SEQ when the room has moved on. */
  expectedSeq?: number;
  /** When given, must hold `seat` (SEAT_NOT_HELD otherwise); omitted by trusted in-process drivers. */
  principal?: string;
  /**
   * The entry's instant (unix ms), for trusted in-process callers that fold an ordered source whose
   * times every replica must share; never later-than-previous (the log's time stays monotonic).
   */
  now?: number;
}

/** An action a seat sent, as the runtime's act watchers see it (Runtime.watchActs). */
export interface WatchedAct {
  roomId: string;
  protocol: string;
  input: ActInput;
}

export interface ActWatch {
  /** Before the action is planned: throw a RuntimeError to refuse it (nothing is written). */
  before?(act: WatchedAct): void;
  /** After the action was refused with `error` (nothing was written). */
  refused?(act: WatchedAct & { error: RuntimeError }): Promise<void>;
}

export type RuntimeServerKey = ServerKey;
