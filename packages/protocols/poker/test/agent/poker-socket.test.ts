// Reference agents play a table through the SDK's PokerSocket while the server keeps killing their
// sockets: they reconnect, answer each turn once, and the table plays to its last hand.

import { OutdatedClientError } from '@db8/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATIENCE_MS } from '../../../../../test/patience.ts';
import { runPokerAgent, strategyNamed } from '../../agent/index.ts';
import { PokerSocket } from '../../client/index.ts';
import { JoinTableResponseSchema } from '../../rules/index.ts';
import { type LocalPokerServer, startLocalPokerServer } from '../../server/index.ts';

let server: LocalPokerServer;
beforeAll(async () => {
  server = await startLocalPokerServer();
});
afterAll(async () => {
  await server?.close();
});

const TABLE = {
  seats: 3,
  small_blind: 5,
  big_blind: 10,
  ante: 0,
  starting_stack: 1000,
  // Far above an agent's answer however busy the machine: the test counts no timeout.
  action_timeout_ms: 60_000,
  hand_interval_ms: 1,
  max_hands: 12,
  min_players: 3,
  max_consecutive_timeouts: null,
};

describe('poker agents over the SDK socket', () => {
  it('play every hand to the end across server-side drops', async () => {
    const HANDS = 12;
    const table = await server.poker.tables.create({ ...TABLE, max_hands: HANDS }, 'test');
    // The house tops up a busted seat, so three players stay in to the last hand.
    const { tables } = server.poker;
    // Kill every agent socket (no close handshake) at every other hand's start while hands are
    // played: tied to the table's progress, not a timer, so a fast table is cut as often as a slow one.
    let kills = 0;
    let lastKilled = 0;
    const offHouse = tables.observe((id, _seq, v) => {
      if (id !== table.table_id) return;
      for (const seat of v.seats)
        if (seat.sitOutReason === 'busted')
          tables.house(id, { kind: 'topUp', seat: seat.seat, amount: 1000 }).catch(() => {});
      if (v.handsStarted >= lastKilled + 2 && v.handsStarted < HANDS && kills < 24) {
        lastKilled = v.handsStarted;
        setImmediate(() => {
          for (const ws of server.app.websocketServer.clients) {
            ws.terminate();
            kills++;
          }
        });
      }
    });
    const runs = ['tight', 'random', 'station'].map((s, i) =>
      runPokerAgent({
        baseUrl: server.base,
        tableId: table.table_id,
        strategy: strategyNamed(s),
        seed: i + 1,
        maxRunMs: PATIENCE_MS,
      }),
    );
    const results = await Promise.all(runs).finally(() => offHouse());
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

  it('an outdated poker client gets OUTDATED_CLIENT as a typed error', async () => {
    const table = await server.poker.tables.create({ ...TABLE, max_hands: 1 }, 'test');
    const post = async (path: string, body: unknown, token?: string) => {
      const r = await fetch(`${server.base}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });
      return r.json() as Promise<Record<string, unknown>>;
    };
    const { api_key } = await post('/v1/agents', { name: 'old' });
    const join = JoinTableResponseSchema.parse(
      await post(`/v1/tables/${table.table_id}/join`, { client_protocol_version: '0.1' }, api_key as string),
    );
    const err = await PokerSocket.connect({
      url: join.ws_url,
      token: join.session_token,
      clientProtocolVersion: '0.0.1',
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutdatedClientError);
    expect(err).toMatchObject({ details: { min_supported_protocol_version: '0.1' } });
  });
});
