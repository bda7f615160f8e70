import type { PublicEntry } from '@db8/core';

/**
 * Fan-out of appended entries. Postgres is the source of truth, so the bus may drop or delay a
 * message: subscribers notice a seq gap and fill it from the store. Only public forms travel here;
 * sealed payloads are read per viewer from the store.
 */
export interface Bus {
  publish(roomId: string, entry: PublicEntry): Promise<void>;
  /** `'*'` receives every room. Returns an unsubscribe function. */
  subscribe(roomId: string | '*', fn: (entry: PublicEntry) => void): () => void;
  close(): Promise<void>;
}

export type BusHandler = (entry: PublicEntry) => void;
