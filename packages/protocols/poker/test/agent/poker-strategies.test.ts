import { describe, expect, it } from 'vitest';
import {
  callingStation,
  chenScore,
  randomAgent,
  seededRand,
  strategyNamed,
  tightAgent,
} from '../../agent/index.ts';
import {
  chipsBought,
  gameStateOf,
  type LegalTableAction,
  poker,
  type TableState,
  tableChips,
} from '../../rules/index.ts';

/** Plays `hands` hands in-process with one strategy per seat; every decision must be accepted. */
function playTable(names: string[], hands: number, seed = 7) {
  const config = poker.configSchema.parse({
    seats: names.length,
    smallBlind: 5,
    bigBlind: 10,
    startingStack: 1000,
    handIntervalMs: 1,
    maxHands: hands,
  });
  let now = 1;
  let s: TableState = poker.setup(config, { seats: poker.seats(config), seed: 'c3'.repeat(32), now });
  const apply = (seat: string, action: unknown) => {
    const r = poker.apply(s, { seat, action: poker.actionSchema.parse(action), now, seq: 0 });
    if (!r.ok) throw new Error(`${seat} ${JSON.stringify(action)}: ${r.error.code} ${r.error.message}`);
    s = r.state;
  };
  for (let i = 0; i < names.length; i++) apply(`seat_${i}`, { kind: 'sitIn' });
  const rands = names.map((_, i) => seededRand(seed + i));
  const kinds: Record<string, number> = {};
  while (!s.stopped) {
    const d = poker.deadline(s);
    const toAct = s.hand ? poker.view(s, { kind: 'admin' }).hand?.toAct : null;
    if (toAct === null || toAct === undefined) {
      now = Math.max(now, d ?? now);
      s = poker.tick(s, now, 0)!.state;
      // Keep everyone in: top up a busted seat.
      s.seats.forEach((seat, i) => {
        if (seat.sitOutReason === 'busted') apply('house', { kind: 'topUp', seat: i, amount: 1000 });
      });
      continue;
    }
    const seat = `seat_${toAct}`;
    const view = poker.view(s, { kind: 'seat', seat });
    const legal = poker.legal(s, seat) as { actions: LegalTableAction[]; turnToken?: string };
    const gs = gameStateOf(view, legal, d);
    const move = strategyNamed(names[toAct]!).decide(gs, rands[toAct]!);
    kinds[`${names[toAct]}:${move.kind}`] = (kinds[`${names[toAct]}:${move.kind}`] ?? 0) + 1;
    apply(seat, move);
    now += 1;
    expect(tableChips(s)).toBe(chipsBought(s));
  }
  return { s, kinds };
}

describe('reference poker agents', () => {
  it('Chen scores', () => {
    expect(chenScore(['As', 'Ad'])).toBe(20);
    expect(chenScore(['Ks', 'Kd'])).toBe(16);
    expect(chenScore(['2s', '2d'])).toBe(5);
    expect(chenScore(['As', 'Ks'])).toBe(12);
    expect(chenScore(['7s', '2d'])).toBe(-1);
    expect(chenScore(['Js', 'Ts'])).toBe(9);
  });

  it('every move of every agent is legal over 150 hands at a 5-handed table', () => {
    const { s, kinds } = playTable(['tight', 'random', 'station', 'random', 'tight'], 150);
    expect(s.handsStarted).toBe(150);
    // Each style shows up: the station never folds or raises, the tight agent folds a lot and raises.
    expect(kinds['station:fold'] ?? 0).toBe(0);
    expect(kinds['station:raiseTo'] ?? 0).toBe(0);
    expect(kinds['tight:fold']).toBeGreaterThan(50);
    expect(kinds['tight:raiseTo']).toBeGreaterThan(5);
    expect(kinds['random:raiseTo']).toBeGreaterThan(10);
  });

  it('the tight agent raises aces and folds 7-2 to a raise; the station calls; random stays in bounds', () => {
    const gs = {
      protocol_version: '0.1',
      min_supported_protocol_version: '0.1',
      hand_number: 1,
      status: 'playing' as const,
      street: 'preflop' as const,
      board: [],
      pot: 45,
      button: 0,
      small_blind_seat: 1,
      big_blind_seat: 2,
      to_act: 0,
      blinds: { small: 5, big: 10, ante: 0 },
      seats: [
        {
          seat_id: 0,
          status: 'active' as const,
          stack: 1000,
          bet: 0,
          in_hand: true,
          folded: false,
          all_in: false,
          hole: null,
        },
      ],
      your_seat: 0,
      your_hole: ['As', 'Ad'],
      turn_token: 't',
      legal_actions: [
        { kind: 'fold' as const },
        { kind: 'call' as const, amount: 30 },
        { kind: 'raiseTo' as const, min: 50, max: 1000 },
      ],
      amount_to_call: 30,
      min_raise_to: 50,
      max_raise_to: 1000,
      deadline_ms: null,
      action_timeout_ms: 8000,
      deck_commitment: null,
      actions: [],
      last_action: null,
    };
    const rand = seededRand(1);
    expect(tightAgent.decide(gs, rand)).toEqual({ kind: 'raiseTo', amount: 90 });
    expect(tightAgent.decide({ ...gs, your_hole: ['7s', '2d'] }, rand)).toEqual({ kind: 'fold' });
    expect(callingStation.decide(gs, rand)).toEqual({ kind: 'call' });
    for (let i = 0; i < 200; i++) {
      const d = randomAgent.decide(gs, rand);
      if (d.kind === 'raiseTo') expect(d.amount).toBeGreaterThanOrEqual(50);
      if (d.kind === 'raiseTo') expect(d.amount).toBeLessThanOrEqual(1000);
    }
    expect(() => strategyNamed('shark')).toThrow(/unknown poker agent/);
  });
});
