import type { ProtocolModule } from '@db8/server/kit';
import { sealedBid } from '../rules/index.ts';

/** The sealed-bid example needs nothing beyond its pure rules: the generic routes play it. */
export const sealedBidModule: ProtocolModule = { protocol: sealedBid };
