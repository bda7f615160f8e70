import { createProtocolRegistry } from '@db8/core';
import { Db8Client } from '@db8/sdk';
import { joinEffectsOf } from '@db8/server';
import { builtinProtocols } from 'db8/src/protocols.ts';
import { builtinModules } from 'db8/src/server-modules.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalBus } from '../src/bus/local.ts';
import { actRetrying } from '../src/drivers/host.ts';
import { serverKeyFromSeed } from '../src/keys/index.ts';
import { Runtime } from '../src/runtime/index.ts';
import type { Store } from '../src/store/index.ts';
import { type Harness, listen, makeApp } from './app-harness.ts';
import { auctionWithBidders } from './routes-fixtures.ts';
import { createPgSchema, pgStoreIn } from './store.helpers.ts';

/**
 * Two nodes on one Postgres writing one room. A node that loses the seq race more often than it
 * retries answers 503 CONFLICT_RETRY_EXHAUSTED; the SDK resends with the same nonce, so its
 * caller never sees it and no action lands twice. Node A retries once here (enough
 * to catch up after the other node wrote), so a race lost twice reaches the client.
 */
describe('CONFLICT_RETRY_EXHAUSTED is retried by the SDK with the same nonce', () => {
  let drop: () => Promise<void>;
  let storeA: Store;
  let storeB: Store;
  let h: Harness;
  let a: Runtime;
  let b: Runtime;
  const key = serverKeyFromSeed(new Uint8Array(32).fill(7), 'db8.test');
  // The app's test clock, once the app exists: rooms and tokens live on one timeline.
  let now = Date.now;
  const node = (store: Store, maxRetries: number) =>
    new Runtime({
      store,
      protocols: createProtocolRegistry(builtinProtocols),
      joinEffects: joinEffectsOf(builtinModules),
      serverKey: key,
      bus: new LocalBus(),
      origin: 'db8.test',
      clock: () => now(),
      maxRetries,
    });

  beforeAll(async () => {
    let schema: string;
    ({ schema, drop } = await createPgSchema());
    storeA = await pgStoreIn(schema, 4);
    storeB = await pgStoreIn(schema, 4);
  });
  afterAll(async () => {
    await h?.close();
    await storeA?.close();
    await storeB?.close();
    await drop?.();
  });

  it('every SDK action is acknowledged once, while the node serving it loses races', async () => {
    a = node(storeA, 1);
    b = node(storeB, 16);
    h = await makeApp({
      store: storeA,
      runtime: a,
      serverKey: key,
      config: { rateLimit: { max: 10_000, windowMs: 60_000 } },
    });
    now = h.clock.fn;
    const base = await listen(h);
    const { roomId, seats } = await auctionWithBidders(h);
    // Counts the 503s the node answered (the SDK sees and retries them; its caller must not).
    let exhausted = 0;
    const client = new Db8Client({
      baseUrl: base,
      token: seats.bidder_1.token,
      fetch: async (url, init) => {
        const res = await fetch(url, init);
        if (res.status === 503) exhausted++;
        return res;
      },
    });
    const head = (await client.state(roomId)).seq;
    // Both nodes write bidder_1's bids (a sealed-bid room ends bidding once every bidder has bid).
    // Rounds of 60 + 60 concurrent acts until node A has answered a 503 at least once (bounded).
    const n = 60;
    let rounds = 0;
    const failed: string[] = [];
    const seqs = new Set<number>();
    while (exhausted === 0 && rounds < 20) {
      const amount = 1000 * ++rounds;
      const sdk = Array.from({ length: n }, (_, i) =>
        client.act(roomId, { seat: 'bidder_1', action: { type: 'bid', amount: amount + i } }),
      );
      // The other node writes steadily in small waves, so its writes overlap node A's.
      const other = (async () => {
        for (let i = 0; i < n; i += 4) {
          await Promise.all(
            [0, 1, 2, 3].map((j) =>
              b.act(roomId, {
                seat: 'bidder_1',
                action: { type: 'bid', amount: amount + 500 + i + j },
                principal: seats.bidder_1.agent,
              }),
            ),
          );
        }
      })();
      const [mine] = await Promise.all([Promise.allSettled(sdk), other]);
      for (const r of mine) {
        if (r.status === 'rejected') failed.push(String(r.reason));
        else seqs.add(r.value.seq);
      }
    }
    console.log('ROUNDS', rounds, exhausted, a.stats.conflicts);
    // The race really reached the client, and the client never saw it.
    expect(exhausted).toBeGreaterThan(0);
    expect(failed).toEqual([]);
    // Each action landed once: 2n entries per round after the head; the SDK's at distinct seqs.
    const rows = await storeA.entries.range(roomId, 0);
    expect(rows.length).toBe(head + 1 + 2 * n * rounds);
    expect(seqs.size).toBe(n * rounds);
  });

  it('a model driver resends a move that lost the race, where a plain act fails', async () => {
    const { roomId, seats } = await auctionWithBidders(h);
    const bid = (amount: number) => ({
      seat: 'bidder_1',
      action: { type: 'bid', amount },
      principal: seats.bidder_1.agent,
      clientNonce: `n${amount}`,
    });
    // Node B writes steadily in small waves while node A takes a burst of n acts.
    const race = async (amount: number, act: (x: ReturnType<typeof bid>) => Promise<unknown>) => {
      const n = 60;
      const burst = Promise.allSettled(Array.from({ length: n }, (_, i) => act(bid(amount + i))));
      for (let i = 0; i < n; i += 4) {
        await Promise.all([0, 1, 2, 3].map((j) => b.act(roomId, bid(amount + 500 + i + j))));
      }
      return (await burst).filter((r) => r.status === 'rejected').map((r) => String(r.reason));
    };
    let plain: string[] = [];
    for (let round = 1; plain.length === 0 && round <= 20; round++) {
      plain = await race(round * 1000, (x) => a.act(roomId, x));
    }
    // Under this race a plain act does fail…
    expect(plain.some((m) => m.includes('lost the seq race'))).toBe(true);
    // …and the driver's act does not.
    expect(await race(100_000, (x) => actRetrying(a, roomId, x))).toEqual([]);
  });
});
