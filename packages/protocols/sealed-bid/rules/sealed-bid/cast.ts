import type { Cast } from '@db8/core';

/**
 * The privacy kit's sealed-bid auction (`Cast`, packages/core/src/protocol/cast.ts): three bidders,
 * second price. Every amount is a marker. bidder_1's first bid is replaced, so it stays sealed for
 * good; the others stay sealed to their bidders until the reveal tick publishes them.
 */
export const sealedBidCast: Cast = {
  protocol: 'sealed-bid',
  room: ({ marks }) => {
    const amount = (label: string) => ({ type: 'bid', amount: marks.int(label, 1_000_000, 9_999_999) });
    return {
      title: 'privacy kit: a lamp',
      config: {
        item: 'lamp',
        bidders: 3,
        reservePrice: 10,
        biddingWindowMs: 60_000,
        revealWindowMs: 60_000,
        rule: 'second-price',
      },
      steps: [
        { kind: 'act', seat: 'bidder_1', action: amount('bidder_1 replaced') },
        { kind: 'act', seat: 'bidder_1', action: amount('bidder_1') },
        { kind: 'act', seat: 'bidder_2', action: amount('bidder_2') },
        { kind: 'checkpoint', name: 'bidding' },
        { kind: 'act', seat: 'bidder_3', action: amount('bidder_3') },
        { kind: 'checkpoint', name: 'before the reveal' },
        { kind: 'advance' },
        { kind: 'checkpoint', name: 'revealed' },
        {
          kind: 'act',
          seat: 'auctioneer',
          action: ({ legal }) => ({ type: 'confirm', turnToken: legal.turnToken }),
        },
      ],
    };
  },
};
