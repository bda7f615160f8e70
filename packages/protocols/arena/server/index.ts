import type { ProtocolModule } from '@db8/server/kit';
import { arena } from '../rules/index.ts';

/** A tournament is created and read like any room: the generic routes serve it; its view holds the standings. */
export const arenaModule: ProtocolModule = { protocol: arena };
