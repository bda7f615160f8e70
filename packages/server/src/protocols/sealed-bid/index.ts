import { sealedBid } from '@db8/protocols/examples';
import type { ProtocolModule } from '../../kit/index.ts';

/** The sealed-bid example needs nothing beyond its pure rules: the generic routes play it. */
export const sealedBidModule: ProtocolModule = { protocol: sealedBid };
