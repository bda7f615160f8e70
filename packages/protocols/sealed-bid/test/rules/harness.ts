import { LocalRoom, type LoggedInput } from '@db8/core';
import { type SealedBidAction, type SealedBidView, sealedBid } from '../../rules/index.ts';

/**
 * Tests drive the protocol through core's LocalRoom: seqs as the runtime assigns them (genesis is
 * 0), actions parsed with the protocol's schema, every state deep-frozen (a mutation throws), the
 * room closed when it is over, and the very entries a server room would write.
 */

export type LoggedEntry = LoggedInput & { action?: SealedBidAction };

export const baseConfig = {
  item: 'a 1962 Gibson ES-335',
  bidders: 3,
  reservePrice: 100,
  biddingWindowMs: 60_000,
  revealWindowMs: 10_000,
  turnWindowMs: 5_000,
  rule: 'first-price',
} as const;

export class Room extends LocalRoom<typeof sealedBid> {
  constructor(config: unknown = baseConfig, now = 0) {
    super({ protocol: sealedBid, config, seed: 'ab'.repeat(32), now });
  }

  /** The actions and ticks folded so far. */
  get log(): LoggedEntry[] {
    return this.inputs as LoggedEntry[];
  }

  seat(seat: string): SealedBidView {
    return this.view({ kind: 'seat', seat });
  }

  token(seat: string): string | undefined {
    return this.legal(seat).turnToken;
  }
}
