// `db8 poker simulate --seed` fixes the deals: the table is created with a room seed derived from
// --seed, and every deck is a function of the room seed (docs/poker.md, "The deck").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableConfig, tableSeed } from '../../cli/simulate.ts';
import { type LocalPokerServer, startLocalPokerServer } from '../../server/index.ts';

let server: LocalPokerServer;
beforeAll(async () => {
  server = await startLocalPokerServer();
});
afterAll(() => server?.close());

/** The genesis entry's commitment to the room seed (sha256 of it). */
async function seedCommitOf(roomId: string): Promise<unknown> {
  const [genesis] = await server.runtime.entries(roomId, { kind: 'admin' }, 0, 1);
  return (genesis!.payload as { seedCommit?: unknown }).seedCommit;
}

describe('poker simulate --seed', () => {
  it('gives the table the same room seed for the same --seed, another for another', async () => {
    const config = tableConfig({ agents: ['tight', 'random'], hands: 1, seed: 7 });
    const a = await server.poker.tables.create(config, 'test', tableSeed(7));
    const b = await server.poker.tables.create(config, 'test', tableSeed(7));
    const c = await server.poker.tables.create(config, 'test', tableSeed(8));
    expect(tableSeed(7)).toMatch(/^[0-9a-f]{64}$/);
    const [ca, cb, cc] = await Promise.all([a, b, c].map((t) => seedCommitOf(t.table_id)));
    expect(ca).toBeDefined();
    expect(ca).toEqual(cb);
    expect(ca).not.toEqual(cc);
  });
});

describe('poker simulate progress', () => {
  it('says how far it is at most every 5 s, on a clock it is given', async () => {
    const { handProgress } = await import('../../cli/simulate.ts');
    let t = 0;
    const lines: string[] = [];
    const progress = handProgress(
      (l) => lines.push(l),
      200,
      () => t,
    );
    progress(1);
    t = 4_999;
    progress(30);
    t = 5_000;
    progress(41);
    t = 7_000;
    progress(50);
    expect(lines).toEqual(['… 1/200 hands', '… 41/200 hands']);
  });
});
