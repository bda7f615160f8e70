// Regression: `db8 poker simulate` once reported heads-up nets summing to -5. A seat joined over
// REST, hand 1 was dealt and folded before that seat's WebSocket opened, so its agent never got
// hand 1's `hand_complete` (the server sends those only for hands ending after the socket opens).
// Chips were conserved; the report summed what each agent saw. Here hand 1 deterministically ends
// before the second agent connects, and the report must still count it for both seats.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATIENCE_MS } from '../../../../../test/patience.ts';
import { runPokerAgent, strategyNamed } from '../../agent/index.ts';
import { agentRows } from '../../cli/simulate.ts';
import { seatNets } from '../../cli/stats.ts';
import { JoinTableResponseSchema, POKER_PROTOCOL_VERSION } from '../../rules/index.ts';
import { type LocalPokerServer, loadTableExport, startLocalPokerServer } from '../../server/index.ts';

let server: LocalPokerServer;
beforeAll(async () => {
  server = await startLocalPokerServer();
});
afterAll(async () => {
  await server?.close();
});

async function post(url: string, body: unknown, token?: string): Promise<unknown> {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await r.json()) as unknown;
  if (!r.ok) throw new Error(`${url}: ${r.status} ${JSON.stringify(json)}`);
  return json;
}

describe('poker simulate report', () => {
  it('counts a hand that ended before a seat connected (heads-up nets sum to zero)', async () => {
    const { tables } = server.poker;
    const table = await tables.create(
      {
        seats: 2,
        small_blind: 5,
        big_blind: 10,
        ante: 0,
        starting_stack: 1000,
        action_timeout_ms: 150,
        hand_interval_ms: 1,
        max_hands: 3,
        min_players: 2,
        max_consecutive_timeouts: null,
      },
      'test',
    );
    const id = table.table_id;
    // The late seat: registered and seated over REST, no socket yet.
    const { api_key } = (await post(`${server.base}/v1/agents`, { name: 'late' })) as { api_key: string };
    const lateSeat = JoinTableResponseSchema.parse(
      await post(
        `${server.base}/v1/tables/${id}/join`,
        { client_protocol_version: POKER_PROTOCOL_VERSION },
        api_key,
      ),
    ).seat_id;
    const early = runPokerAgent({
      baseUrl: server.base,
      tableId: id,
      strategy: strategyNamed('tight'),
      seed: 1,
    });
    // Hand 1 plays out on the late seat's timeouts (check if free, else fold) before it connects.
    for (const end = Date.now() + PATIENCE_MS; ; ) {
      if ((await tables.view(id)).recent.some((h) => h.number === 1)) break;
      if (Date.now() > end) throw new Error('hand 1 never finished');
      await new Promise((r) => setTimeout(r, 25));
    }
    const late = runPokerAgent({
      baseUrl: server.base,
      tableId: id,
      strategy: strategyNamed('station'),
      apiKey: api_key,
      seed: 2,
    });
    const results = await Promise.all([early, late]);
    const x = await loadTableExport(server.app.db8, tables, id);
    expect(x.replay.ok, x.replay.problems.join('; ')).toBe(true);
    expect(x.replay.hands.map((h) => h.number)).toEqual([1, 2, 3]);
    expect(x.replay.hands[0]!.seats).toContain(lateSeat);

    // The cause: the late agent's own tally has no hand 1.
    expect(results[1]!.seat).toBe(lateSeat);
    expect(results[1]!.hands.map((h) => h.hand)).not.toContain(1);

    // The report counts every dealt hand for every seat, from the settled log.
    const rows = agentRows(results, x.replay.hands, 10);
    expect(rows.map((r) => r.hands)).toEqual([3, 3]);
    expect(rows[0]!.net + rows[1]!.net).toBe(0);
    const logNets = [0, 1].map((s) => seatNets(x.replay.hands, s).reduce((a, b) => a + b, 0));
    expect(rows.map((r) => r.net).sort()).toEqual(logNets.sort());
  });
});

describe('seatNets', () => {
  const hand = (number: number, seats: number[], net: number[], cancelled = false) =>
    ({ number, seats, net, cancelled }) as unknown as Parameters<typeof seatNets>[0][number];
  it('takes the seat’s net from each hand it was dealt into, skipping called-off hands', () => {
    const hands = [hand(1, [0, 1], [-5, 5]), hand(2, [1, 2], [10, -10]), hand(3, [0, 1], [0, 0], true)];
    expect(seatNets(hands, 0)).toEqual([-5]);
    expect(seatNets(hands, 1)).toEqual([5, 10]);
    expect(seatNets(hands, 2)).toEqual([-10]);
  });
});
