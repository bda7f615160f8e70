import type { AnyProtocol, Legal, StoredEntry, Viewer } from '@db8/core';

/**
 * The slice of the room Runtime the HTTP and realtime layers use (see .tmp/RUNTIME_API.md). Kept
 * structural so routes can be tested against the real Runtime without importing its internals.
 */
export interface RoomInfoLike {
  id: string;
  protocol: string;
  title: string | null;
  status: string;
  headSeq: number;
  createdAt: number;
  config?: unknown;
  seats: ReadonlyArray<{ seat: string; role: string; principalId: string | null }>;
}

export interface RuntimeStateLike {
  seq: number;
  view: unknown;
  legal?: Legal;
  deadlineUnix: number | null;
  status: string;
  protocol: string;
}

export interface RuntimeApi {
  /** The protocols this runtime serves (docs: config and action schemas). */
  readonly protocols?: ReadonlyMap<string, AnyProtocol>;
  /** The key that signs checkpoints (GET /v1/keys); the real Runtime has it. */
  readonly serverKey?: { readonly noteVerifierKey: string; readonly sshPublicLine: string };
  /** Origin in checkpoint notes; the server key's allowed_signers identity derives from it. */
  readonly origin?: string;
  createRoom(input: {
    protocol: string;
    config: unknown;
    title?: string;
    createdBy?: string;
  }): Promise<unknown>;
  listRooms(filter?: {
    protocol?: string;
    status?: 'open' | 'closed';
    limit?: number;
    cursor?: string;
  }): Promise<unknown[]>;
  getRoom(roomId: string): Promise<unknown>;
  join(
    roomId: string,
    input: { seat?: string; principal: string },
  ): Promise<{ seat: string; entrySeq: number }>;
  act(
    roomId: string,
    input: {
      seat: string;
      action: unknown;
      clientNonce?: string;
      turnToken?: string;
      expectedSeq?: number;
      principal?: string;
    },
  ): Promise<{ seq: number; duplicate: boolean; ts: number }>;
  stateFor(roomId: string, viewer: Viewer): Promise<RuntimeStateLike>;
  /** Realtime: the state from the committed room if it holds `minSeq`, without a queue or a read. */
  stateNow?(roomId: string, viewer: Viewer, minSeq: number): RuntimeStateLike | null;
  /** Realtime: entry `seq` was read from the store, so the next state must include it. */
  expectSeq?(roomId: string, seq: number): void;
  /** Realtime: entries from `fromSeq` that this node just committed (empty when it did not). */
  committedSince?(roomId: string, fromSeq: number): StoredEntry[];
  entries(roomId: string, viewer: Viewer, fromSeq: number, limit: number): Promise<StoredEntry[]>;
  proof(
    roomId: string,
    seq: number,
  ): Promise<{ leafHash: string; index: number; treeSize: number; proof: string[]; checkpoint: string }>;
  checkpoints(
    roomId: string,
  ): Promise<Array<{ size: number; rootHash: string; note: string; milestone?: string | null }>>;
  export(roomId: string, viewer: Viewer): AsyncIterable<object>;
}
