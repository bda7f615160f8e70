import type { PublicEntry } from '@db8/core';
import { serverKeyFromSeed } from '../src/keys/index.ts';
import { Runtime, type RuntimeOptions } from '../src/runtime/index.ts';
import type { Store } from '../src/store/index.ts';
import { counterRegistry } from './fixtures/counter.ts';

export const TEST_KEY = serverKeyFromSeed(new Uint8Array(32).fill(42), 'db8.test');

/** A settable clock (unix ms). */
export function fakeClock(start = 1_700_000_000_000) {
  let t = start;
  const clock = () => t;
  return Object.assign(clock, {
    set(v: number) {
      t = v;
    },
    advance(ms: number) {
      t += ms;
    },
  });
}

/** Records what the runtime publishes. */
export function recordingBus() {
  const published: Array<{ roomId: string; entry: PublicEntry }> = [];
  return {
    published,
    async publish(roomId: string, entry: PublicEntry) {
      published.push({ roomId, entry });
    },
  };
}

export function makeRuntime(store: Store, opts: Partial<RuntimeOptions> = {}): Runtime {
  return new Runtime({ store, protocols: counterRegistry, serverKey: TEST_KEY, origin: 'db8.test', ...opts });
}
