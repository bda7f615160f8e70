import { describe, expect, it } from 'vitest';
import {
  CompactStateSchema,
  compactOf,
  GameStatePayloadSchema,
  gameStateOf,
  HandCompletePayloadSchema,
  handCompleteOf,
  handToPhh,
  type LegalTableAction,
  PokerClientMessageSchema,
  parsePhh,
  poker,
  rebuildHand,
  replayPhh,
  replayTable,
} from '../../../rules/index.ts';
import { SEED, Table } from './harness.ts';

function played(hands: number): Table {
  const t = new Table({
    seats: 4,
    smallBlind: 5,
    bigBlind: 10,
    ante: 1,
    startingStack: 300,
    handIntervalMs: 10,
  });
  t.sitAll();
  for (let k = 0; k < hands && !t.state.stopped; k++) {
    t.tickDue();
    let step = 0;
    while (t.state.hand) {
      const seat = t.toAct()!;
      const { actions } = t.legal(seat);
      const a = actions[(k * 7 + step++ * 3 + seat) % actions.length]!;
      t.must(`seat_${seat}`, a.kind === 'raiseTo' ? { kind: 'raiseTo', amount: a.min } : { kind: a.kind });
    }
  }
  return t;
}

const gs = (t: Table, seat: number | null) => {
  const viewer =
    seat === null ? ({ kind: 'observer' } as const) : ({ kind: 'seat', seat: `seat_${seat}` } as const);
  const legal =
    seat === null
      ? undefined
      : (poker.legal(t.state, `seat_${seat}`) as { actions: LegalTableAction[]; turnToken?: string });
  return gameStateOf(poker.view(t.state, viewer), legal, poker.deadline(t.state));
};

describe('poker table: wire mapping', () => {
  it('game_state: your_hole only for your seat, turn_token and legal actions only for the seat to act', () => {
    const t = new Table();
    t.sitAll();
    t.tickDue();
    const toAct = t.toAct()!;
    for (const seat of [0, 1, 2, null]) {
      const g = GameStatePayloadSchema.parse(gs(t, seat));
      expect(g.your_seat).toBe(seat);
      expect(g.seats.every((s) => s.hole === null)).toBe(true);
      if (seat === null) expect(g.your_hole).toBeUndefined();
      else expect(g.your_hole).toEqual(t.state.hand!.engine.hole[t.state.hand!.seats.indexOf(seat)]);
      if (seat === toAct) {
        expect(g.turn_token).toBe(poker.legal(t.state, `seat_${seat}`).turnToken);
        expect(g).toMatchObject({ amount_to_call: 10, min_raise_to: 20, max_raise_to: 1000 });
        expect(g.legal_actions?.map((a) => a.kind)).toEqual(['fold', 'call', 'raiseTo']);
      } else {
        expect(g.turn_token).toBeUndefined();
        expect(g.legal_actions).toBeUndefined();
      }
      expect(g.deck_commitment).toBe(t.state.hand!.commitment);
      expect(JSON.stringify(g)).not.toContain(t.state.hand!.salt);
    }
    const c = CompactStateSchema.parse(compactOf(gs(t, toAct)));
    expect(c.la).toBe('f,c10,r20-1000');
    expect(c.hole).toHaveLength(4);
    expect(c.s[toAct]).toBe('1000/0');
  });

  it('hand_complete carries the revealed deck; action messages need an amount for raiseTo', () => {
    const t = played(1);
    const h = HandCompletePayloadSchema.parse(handCompleteOf(t.state.recent[0]!));
    expect(h.deck).toHaveLength(52);
    expect(h.net.reduce((a, b) => a + b, 0)).toBe(0);
    const msg = (payload: object) => PokerClientMessageSchema.safeParse({ type: 'action', payload });
    expect(msg({ turn_token: 'x', seat_id: 1, kind: 'raiseTo' }).success).toBe(false);
    expect(msg({ turn_token: 'x', seat_id: 1, kind: 'raiseTo', amount: 40 }).success).toBe(true);
    expect(msg({ seat_id: 1, kind: 'call' }).success).toBe(false);
  });
});

describe('poker table: export', () => {
  it('every hand rebuilds through the engine and round-trips through PHH', () => {
    const t = played(25);
    const r = replayTable(t.log, SEED);
    expect(r.ok).toBe(true);
    expect(r.hands.length).toBeGreaterThanOrEqual(20);
    for (const h of r.hands) {
      const s = rebuildHand(t.state.config, h);
      expect(s.stacks).toEqual(h.endStacks);
      const back = replayPhh(parsePhh(handToPhh(t.state.config, h)));
      expect(back.state.stacks).toEqual(h.endStacks);
    }
    const h = r.hands[3]!;
    const forged = { ...h, endStacks: h.endStacks.map((x, i) => (i === 0 ? x + 1 : x)) };
    expect(() => rebuildHand(t.state.config, forged)).toThrow(/the record says/);
  });
});
