import { parseJson, type StoredEntry } from '@db8/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgentProcess } from '../../agent/index.ts';
import { type HandSummary, parsePhhs, replayPhh, replayTable, verifyHandDeal } from '../../rules/index.ts';
import {
  type LocalPokerServer,
  loadTableExport,
  startLocalPokerServer,
  toJsonl,
  toPhhs,
} from '../../server/index.ts';

let server: LocalPokerServer;
beforeAll(async () => {
  server = await startLocalPokerServer();
});
afterAll(async () => {
  await server?.close();
});

const HANDS = 200;

type Entry = StoredEntry & { payload?: Record<string, unknown> };

describe('poker simulation: agents as separate processes over WebSocket', () => {
  it(`plays ${HANDS} hands to the end; chips conserved; the export replays`, {
    timeout: 240_000,
  }, async () => {
    const { tables } = server.poker;
    const table = await tables.create(
      {
        seats: 3,
        small_blind: 5,
        big_blind: 10,
        ante: 0,
        starting_stack: 1000,
        action_timeout_ms: 5000,
        hand_interval_ms: 1,
        max_hands: HANDS,
        min_players: 3,
        max_consecutive_timeouts: null,
      },
      'test',
    );
    const id = table.table_id;
    const off = tables.observe((tableId, _seq, v) => {
      if (tableId !== id) return;
      for (const s of v.seats)
        if (s.sitOutReason === 'busted')
          tables.house(id, { kind: 'topUp', seat: s.seat, amount: 1000 }).catch(() => {});
    });
    const agents = ['tight', 'random', 'station'];
    const results = await Promise.all(
      agents.map((name, i) =>
        runAgentProcess([
          '--url',
          server.base,
          '--table',
          id,
          '--strategy',
          name,
          '--name',
          `${name}-${i}`,
          '--seed',
          String(i + 1),
        ]),
      ),
    );
    off();
    // Every agent saw every hand end, and made no illegal move.
    for (const r of results) {
      expect(r.errors).toEqual([]);
      expect(r.hands.length).toBe(HANDS);
    }
    expect(new Set(results.map((r) => r.seat))).toEqual(new Set([0, 1, 2]));
    for (let h = 0; h < HANDS; h++) {
      expect(results.reduce((t, r) => t + r.hands[h]!.net, 0)).toBe(0);
    }

    const x = await loadTableExport(server.app.db8, tables, id);
    expect(x.replay.problems).toEqual([]);
    expect(x.replay.ok).toBe(true);
    expect(x.replay.hands).toHaveLength(HANDS);
    expect(x.replay.state?.stopped).toBe(true);
    const final = x.replay.state!;
    expect(final.seats.reduce((t, s) => t + s.stack, 0)).toBe(final.seats.reduce((t, s) => t + s.bought, 0));

    // The JSONL export alone (as a client downloads it) replays, with the seed from the close entry.
    const lines = toJsonl(id, table.title, x)
      .trim()
      .split('\n')
      .map((l) => parseJson(l) as Record<string, unknown>);
    const entries = lines.filter((l) => l.type === 'entry').map((l) => l.entry as Entry);
    const seed = String(entries.find((e) => e.kind === 'close')?.payload?.seed);
    const again = replayTable(entries, seed);
    expect(again.ok).toBe(true);
    const recorded = lines.filter((l) => l.type === 'hand').map((l) => l.hand as HandSummary);
    expect(again.hands).toEqual(recorded);
    for (const h of recorded) expect(verifyHandDeal(h, { seed })).toEqual([]);
    // A tampered entry makes the replay stop exactly there.
    const k = entries.findIndex((e) => e.kind === 'action' && e.payload?.kind === 'raiseTo');
    const bad = entries.map((e, i) => (i === k ? { ...e, payload: { kind: 'raiseTo', amount: 1 } } : e));
    expect(replayTable(bad, seed).firstDivergence).toBe(entries[k]!.seq);

    // PHH: every hand replays through the engine to the recorded stacks.
    const phh = parsePhhs(toPhhs(x.config, x.replay.hands));
    expect(phh).toHaveLength(HANDS);
    phh.forEach((p, i) => {
      expect(replayPhh(p).state.stacks).toEqual(x.replay.hands[i]!.endStacks);
    });
  });
});
