// Reference agents play a table through the SDK's PokerSocket while the server keeps killing their
// sockets: they reconnect, answer each turn once, and the table plays to its last hand.
import { type LocalPokerServer, startLocalPokerServer } from '@db8/server/poker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPokerAgent, strategyNamed } from '../src/poker/index.ts';

let server: LocalPokerServer;
beforeAll(async () => {
  server = await startLocalPokerServer();
});
afterAll(async () => {
  await server?.close();
});

describe('poker agents over the SDK socket', () => {
  it('play every hand to the end across server-side drops', { timeout: 120_000 }, async () => {
    const HANDS = 12;
    const table = await server.poker.tables.create(
      {
        seats: 3,
        small_blind: 5,
        big_blind: 10,
        ante: 0,
        starting_stack: 1000,
        action_timeout_ms: 10_000,
        hand_interval_ms: 1,
        max_hands: HANDS,
        min_players: 3,
        max_consecutive_timeouts: null,
      },
      'test',
    );
    const runs = ['tight', 'random', 'station'].map((s, i) =>
      runPokerAgent({
        baseUrl: server.base,
        tableId: table.table_id,
        strategy: strategyNamed(s),
        seed: i + 1,
        maxRunMs: 100_000,
      }),
    );
    // Kill every agent socket a few times while hands are played (no close handshake).
    let kills = 0;
    const killer = setInterval(() => {
      if (kills >= 24) return;
      for (const ws of server.app.websocketServer.clients) {
        ws.terminate();
        kills++;
      }
    }, 700);
    const results = await Promise.all(runs).finally(() => clearInterval(killer));
    expect(kills).toBeGreaterThanOrEqual(6);
    for (const r of results) {
      expect(r.errors).toEqual([]);
      expect(r.actions).toBeGreaterThan(0);
      // Each hand at most once (a resumed socket re-sends nothing already delivered).
      const numbers = r.hands.map((h) => h.hand);
      expect(new Set(numbers).size).toBe(numbers.length);
      expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    }
    // Nobody timed out: every turn was answered over whichever connection was up.
    const state = await fetch(`${server.base}/v1/rooms/${table.table_id}/state`).then((r) => r.json());
    const recent = (
      state as { view: { recent: Array<{ number: number; actions: Array<{ auto?: boolean }> }> } }
    ).view.recent;
    expect(recent.at(-1)?.number).toBe(HANDS);
    expect(recent.flatMap((h) => h.actions).filter((a) => a.auto)).toEqual([]);
  });
});
