import type { WebModule } from '../module.tsx';

// Sealed-bid auction: the generic room plays it; the module only gives the create form sensible values.
const MINUTE = 60_000;

export const sealedBid: WebModule = {
  protocol: 'sealed-bid',
  createPreset: {
    item: 'A signed first edition',
    bidders: 2,
    reservePrice: 100,
    biddingWindowMs: 10 * MINUTE,
    revealWindowMs: 2 * MINUTE,
    turnWindowMs: 30_000,
    rule: 'second-price',
  },
};
