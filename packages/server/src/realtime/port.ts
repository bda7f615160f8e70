import type { Bus } from '../bus/types.ts';
import type { FeedRuntime } from '../kit/runtime.ts';
import type { Store } from '../store/index.ts';

/**
 * What the fan-out (hub and room channels) needs of its node, and nothing else of the app: the
 * runtime's committed entries and state, the bus's announcements, the store's room heads (the
 * backstop poll) and the clock that stamps frames.
 */
export interface FeedPort {
  runtime: FeedRuntime;
  bus: Pick<Bus, 'subscribe'>;
  store: { rooms: Pick<Store['rooms'], 'heads'> };
  clock: () => number;
}
