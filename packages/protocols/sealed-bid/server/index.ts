import type { ProtocolModule } from '@db8/server/kit';
import { sealedBid } from '../rules/index.ts';
import { sealedBidAgentRecord } from './agent-record.ts';

/** The sealed-bid example needs little beyond its pure rules: the generic routes play it. */
export const sealedBidModule: ProtocolModule = { protocol: sealedBid, agentRecord: sealedBidAgentRecord };
