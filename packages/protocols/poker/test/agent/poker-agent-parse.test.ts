// Issue 13: a seat checks a game_state in full only when the state is its turn to answer.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATIENCE_MS } from '../../../../../test/patience.ts';
import { runPokerAgent, strategyNamed } from '../../agent/index.ts';
import { GameStatePayloadSchema } from '../../rules/index.ts';
import { type LocalPokerServer, startLocalPokerServer } from '../../server/index.ts';

let server: LocalPokerServer;
beforeAll(async () => {
  server = await startLocalPokerServer();
});
afterAll(async () => {
  await server?.close();
});

describe('poker agents', () => {
  it('check in full only the game_states they answer', async () => {
    const table = await server.poker.tables.create(
      {
        seats: 3,
        small_blind: 5,
        big_blind: 10,
        ante: 0,
        starting_stack: 1000,
        // Far above an agent's answer however busy the machine.
        action_timeout_ms: 60_000,
        hand_interval_ms: 1,
        max_hands: 4,
        min_players: 3,
        max_consecutive_timeouts: null,
      },
      'test',
    );
    // Every full check of a game_state payload, wherever it runs (SDK parse or agent).
    const zod = GameStatePayloadSchema._zod;
    const run = zod.run;
    let full = 0;
    zod.run = (...a: Parameters<typeof run>) => {
      full++;
      return run(...a);
    };
    try {
      const results = await Promise.all(
        ['station', 'station', 'station'].map((s, i) =>
          runPokerAgent({
            baseUrl: server.base,
            tableId: table.table_id,
            strategy: strategyNamed(s),
            seed: i + 1,
            maxRunMs: PATIENCE_MS,
          }),
        ),
      );
      const actions = results.reduce((n, r) => n + r.actions, 0);
      expect(results.flatMap((r) => r.errors)).toEqual([]);
      expect(actions).toBeGreaterThan(0);
      // One full check per answered state (was two per state received, by each of the 3 seats:
      // the SDK's and the agent's, whoever's turn it was).
      expect(full).toBe(actions);
    } finally {
      zod.run = run;
    }
  });
});
