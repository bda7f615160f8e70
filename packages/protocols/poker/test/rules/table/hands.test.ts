import { canonicalize } from '@db8/core';
import { describe, expect, it } from 'vitest';
import {
  chipsBought,
  evaluateCards,
  poker,
  replayTable,
  TABLE_REJECTION_CODES,
  TableStateSchema,
  TableViewSchema,
  tableChips,
  verifyHandDeal,
} from '../../../rules/index.ts';
import { baseConfig, SEED, Table } from './harness.ts';

const stacks = (t: Table) => t.view({ kind: 'admin' }).seats.map((s) => s.stack);

describe('poker table: hands', () => {
  it('deals once two seats sit in, after the hand interval', () => {
    const t = new Table();
    t.must('seat_0', { kind: 'sitIn' });
    expect(poker.deadline(t.state)).toBeNull();
    t.must('seat_1', { kind: 'sitIn' });
    expect(poker.deadline(t.state)).toBe(t.now + 100);
    expect(t.tick(t.now + 99)).toBeNull();
    const r = t.tick(t.now + 100);
    expect(r).not.toBeNull();
    const v = t.view({ kind: 'observer' });
    expect(v.status).toBe('playing');
    expect(v.hand?.number).toBe(1);
    expect(v.hand?.commitment).toMatch(/^[0-9a-f]{64}$/);
    // Heads-up: the button (seat 0) posts the small blind and acts first pre-flop.
    expect(v.hand).toMatchObject({ button: 0, smallBlindSeat: 0, bigBlindSeat: 1, toAct: 0, pot: 15 });
    expect(v.seats.map((s) => [s.stack, s.bet])).toEqual([
      [995, 5],
      [990, 10],
      [0, 0],
    ]);
  });

  it('waits for minPlayers seats before dealing', () => {
    const t = new Table({ ...baseConfig, minPlayers: 3 });
    t.must('seat_0', { kind: 'sitIn' });
    t.must('seat_1', { kind: 'sitIn' });
    expect(poker.deadline(t.state)).toBeNull();
    t.must('seat_2', { kind: 'sitIn' });
    expect(poker.deadline(t.state)).toBe(t.now + 100);
    expect(poker.configSchema.safeParse({ ...baseConfig, minPlayers: 4 }).success).toBe(false);
  });

  it('plays a three-handed hand to showdown; the pot goes to the better hand', () => {
    const t = new Table();
    t.sitAll();
    t.tickDue();
    const v = t.view({ kind: 'admin' });
    // Button seat 0; seat 1 small blind, seat 2 big blind; the button acts first three-handed.
    expect(v.hand).toMatchObject({ button: 0, smallBlindSeat: 1, bigBlindSeat: 2, toAct: 0 });
    expect(t.legal(0).actions).toEqual([
      { kind: 'fold' },
      { kind: 'call', amount: 10 },
      { kind: 'raiseTo', min: 20, max: 1000 },
    ]);
    expect(t.legal(1)).toEqual({ actions: [{ kind: 'sitOut' }, { kind: 'leave' }] });
    t.must('seat_0', { kind: 'fold' });
    t.must('seat_1', { kind: 'call' });
    expect(t.legal(2).actions).toEqual([{ kind: 'check' }, { kind: 'raiseTo', min: 20, max: 1000 }]);
    t.must('seat_2', { kind: 'check' });
    expect(t.view({ kind: 'observer' }).hand).toMatchObject({ street: 'flop', toAct: 1, pot: 20 });
    for (let street = 0; street < 3; street++) {
      t.must('seat_1', { kind: 'check' });
      const last = t.must('seat_2', { kind: 'check' });
      if (street === 2) expect(last.milestone).toBe('hand-1');
    }
    const [hand] = t.state.recent;
    expect(hand).toBeDefined();
    const h = hand!;
    expect(h.shown.map((s) => s.seat).sort()).toEqual([1, 2]);
    const value = (seat: number) =>
      evaluateCards([...h.shown.find((s) => s.seat === seat)!.cards, ...h.board]);
    const [v1, v2] = [value(1), value(2)];
    const expected = v1 > v2 ? [1010, 990] : v1 < v2 ? [990, 1010] : [1000, 1000];
    expect(stacks(t)).toEqual([1000, ...expected]);
    expect(h.net).toEqual([expected[0]! - 1000, expected[1]! - 1000, 0]);
    expect(verifyHandDeal(h, { seed: SEED })).toEqual([]);
    expect(t.view({ kind: 'observer' }).status).toBe('between');
  });

  it('raises, calls and folds move exact chips; the button moves every hand', () => {
    const t = new Table();
    t.sitAll();
    t.tickDue();
    t.must('seat_0', { kind: 'raiseTo', amount: 30 });
    expect(t.legal(1).actions).toEqual([
      { kind: 'fold' },
      { kind: 'call', amount: 25 },
      { kind: 'raiseTo', min: 50, max: 1000 },
    ]);
    t.must('seat_1', { kind: 'call' });
    t.must('seat_2', { kind: 'fold' });
    // Flop: seat 1 bets 40, seat 0 raises to 120, seat 1 folds.
    t.must('seat_1', { kind: 'raiseTo', amount: 40 });
    t.must('seat_0', { kind: 'raiseTo', amount: 120 });
    t.must('seat_1', { kind: 'fold' });
    expect(stacks(t)).toEqual([1000 + 30 + 40 + 10, 1000 - 70, 990]);
    expect(t.state.recent[0]!.shown).toEqual([]);
    expect(t.state.recent[0]!.pots.flatMap((p) => p.winners)).toEqual([0]);
    const buttons: number[] = [];
    for (let k = 0; k < 4; k++) {
      t.tickDue();
      buttons.push(t.state.hand!.button);
      // Everyone folds to the big blind.
      while (t.state.hand) {
        const seat = t.toAct()!;
        t.must(`seat_${seat}`, { kind: 'fold' });
      }
    }
    expect(buttons).toEqual([1, 2, 0, 1]);
    expect(tableChips(t.state)).toBe(3000);
  });

  it('times out: check when free, else fold; repeated timeouts sit the seat out', () => {
    const t = new Table({ ...baseConfig, seats: 2, maxConsecutiveTimeouts: 2 });
    t.sitAll();
    t.tickDue();
    const start = t.now;
    expect(t.tick(start + 4999)).toBeNull();
    expect(t.act('seat_0', { kind: 'call' }, start + 5000)).toMatchObject({
      ok: false,
      error: { code: 'TURN_EXPIRED' },
    });
    t.tick(start + 5000); // seat 0 (small blind, facing 5) folds
    expect(t.state.lastAction).toMatchObject({ seat: 0, kind: 'fold', auto: true });
    expect(stacks(t)).toEqual([995, 1005]);
    t.tickDue(); // hand 2: button seat 1
    t.must('seat_1', { kind: 'call' });
    const before = t.now;
    t.tick(before + 5000); // seat 0 is big blind with nothing to call: checks
    expect(t.state.lastAction).toMatchObject({ seat: 0, kind: 'check', auto: true });
    expect(t.state.seats[0]!.timeouts).toBe(2);
    expect(t.state.seats[0]!.status).toBe('sittingOut');
    expect(t.state.seats[0]!.sitOutReason).toBe('timeouts');
    // Seat 1 acting resets nothing for seat 0; once the hand ends, no next hand is scheduled.
    while (t.state.hand) {
      const seat = t.toAct()!;
      if (seat === 1) t.must('seat_1', { kind: 'check' });
      else t.tick(t.now + 5000);
    }
    expect(poker.deadline(t.state)).toBeNull();
    t.must('seat_0', { kind: 'sitIn' });
    expect(t.state.seats[0]!.timeouts).toBe(0);
    expect(poker.deadline(t.state)).not.toBeNull();
  });

  it('a busted seat sits out until the house tops it up; top-ups during a hand wait for its end', () => {
    const t = new Table({ ...baseConfig, seats: 2, startingStack: 100 });
    t.sitAll();
    t.tickDue();
    t.must('seat_0', { kind: 'raiseTo', amount: 100 });
    t.must('seat_1', { kind: 'call' });
    const h = t.state.recent[0]!;
    const loser = h.net[0]! < 0 ? h.seats[0]! : h.seats[1]!;
    expect(h.net[0]).not.toBe(0); // SEED's first deck does not split this pot
    expect(t.state.seats[loser]).toMatchObject({ stack: 0, status: 'sittingOut', sitOutReason: 'busted' });
    expect(poker.deadline(t.state)).toBeNull();
    expect(t.act(`seat_${loser}`, { kind: 'sitIn' })).toMatchObject({ ok: false, error: { code: 'BUSTED' } });
    t.house({ kind: 'topUp', seat: loser, amount: 50 });
    expect(t.state.seats[loser]).toMatchObject({ stack: 50, bought: 150, status: 'active' });
    t.tickDue();
    t.house({ kind: 'topUp', seat: loser, amount: 7 });
    expect(t.state.seats[loser]!.pending).toBe(7);
    expect(tableChips(t.state)).toBe(chipsBought(t.state));
    while (t.state.hand) t.must(`seat_${t.toAct()}`, { kind: 'fold' });
    expect(t.state.seats[loser]!.pending).toBe(0);
    expect(tableChips(t.state)).toBe(257);
  });

  it('stops after maxHands, or when the house stops it (a live hand is called off)', () => {
    const t = new Table({ ...baseConfig, maxHands: 2 });
    t.sitAll();
    for (let k = 0; k < 2; k++) {
      t.tickDue();
      while (t.state.hand) t.must(`seat_${t.toAct()}`, { kind: 'fold' });
    }
    expect(poker.isOver(t.state)).toBe(true);
    expect(poker.deadline(t.state)).toBeNull();
    expect(poker.result(t.state)).toMatchObject({ reason: 'maxHands', hands: 2 });
    expect(t.act('seat_0', { kind: 'sitOut' })).toMatchObject({
      ok: false,
      error: { code: 'TABLE_STOPPED' },
    });

    const u = new Table();
    u.sitAll();
    u.tickDue();
    u.must('seat_0', { kind: 'raiseTo', amount: 50 });
    expect(poker.result(u.state)).toBeNull();
    u.house({ kind: 'stop' });
    const r = poker.result(u.state)!;
    expect(r.reason).toBe('house');
    expect(r.seats.map((s) => s.net)).toEqual([0, 0, 0]);
    expect(u.state.recent.at(-1)).toMatchObject({ number: 1, cancelled: true, net: [0, 0, 0] });
  });

  it('a fold when checking is free is accepted though not offered; the seat is out of the hand', () => {
    const t = new Table();
    t.sitAll();
    t.tickDue();
    t.must('seat_0', { kind: 'call' });
    t.must('seat_1', { kind: 'call' });
    expect(t.legal(2).actions.map((a) => a.kind)).toEqual(['check', 'raiseTo']);
    t.must('seat_2', { kind: 'fold' });
    const v = t.view({ kind: 'admin' });
    expect(v.seats[2]).toMatchObject({ folded: true, stack: 990 });
    expect(v.hand).toMatchObject({ street: 'flop', pot: 30, toAct: 1 });
    expect(tableChips(t.state)).toBe(chipsBought(t.state));
  });

  it('states and views parse with their schemas and canonicalize', () => {
    const t = new Table();
    t.sitAll();
    t.tickDue();
    t.must('seat_0', { kind: 'call' });
    expect(TableStateSchema.safeParse(t.state).success).toBe(true);
    for (const viewer of [
      { kind: 'observer' },
      { kind: 'admin' },
      { kind: 'seat', seat: 'seat_1' },
    ] as const) {
      const v = t.view(viewer);
      expect(TableViewSchema.safeParse(v).success).toBe(true);
      expect(() => canonicalize(v)).not.toThrow();
    }
  });
});

describe('poker table: rejections', () => {
  /** Each case provokes one code on a fresh table; the table must be unchanged. */
  const cases: Array<[string, (t: Table) => { seat: string; action: unknown; table?: Table }]> = [
    ['UNKNOWN_SEAT', () => ({ seat: 'seat_9', action: { kind: 'sitIn' } })],
    [
      'TABLE_STOPPED',
      (t) => {
        t.house({ kind: 'stop' });
        return { seat: 'seat_0', action: { kind: 'sitIn' } };
      },
    ],
    ['HOUSE_ONLY', () => ({ seat: 'seat_0', action: { kind: 'topUp', seat: 0, amount: 5 } })],
    ['PLAYERS_ONLY', () => ({ seat: 'house', action: { kind: 'fold' } })],
    ['NO_HAND', () => ({ seat: 'seat_0', action: { kind: 'check' } })],
    [
      'NOT_IN_HAND',
      (t) => {
        t.must('seat_0', { kind: 'sitIn' });
        t.must('seat_1', { kind: 'sitIn' });
        t.tickDue();
        return { seat: 'seat_2', action: { kind: 'fold' } };
      },
    ],
    ['NOT_YOUR_TURN', (t) => dealtThen(t, { seat: 'seat_1', action: { kind: 'fold' } })],
    [
      'BAD_TURN_TOKEN',
      (t) => dealtThen(t, { seat: 'seat_0', action: { kind: 'fold', turnToken: 'h1.0.0' } }),
    ],
    ['TURN_EXPIRED', (t) => dealtThen(t, { seat: 'seat_0', action: { kind: 'fold' } }, 5000)],
    ['CANNOT_CHECK', (t) => dealtThen(t, { seat: 'seat_0', action: { kind: 'check' } })],
    [
      'NOTHING_TO_CALL',
      (t) => {
        dealt(t);
        t.must('seat_0', { kind: 'call' });
        t.must('seat_1', { kind: 'call' });
        return { seat: 'seat_2', action: { kind: 'call' } };
      },
    ],
    [
      'CANNOT_RAISE',
      (t) => {
        dealt(t);
        t.must('seat_0', { kind: 'raiseTo', amount: 1000 });
        t.must('seat_1', { kind: 'call' });
        return { seat: 'seat_2', action: { kind: 'raiseTo', amount: 1000 } };
      },
    ],
    ['RAISE_TOO_SMALL', (t) => dealtThen(t, { seat: 'seat_0', action: { kind: 'raiseTo', amount: 15 } })],
    ['RAISE_TOO_LARGE', (t) => dealtThen(t, { seat: 'seat_0', action: { kind: 'raiseTo', amount: 1001 } })],
    [
      'ALREADY_SITTING',
      (t) => {
        t.must('seat_0', { kind: 'sitIn' });
        return { seat: 'seat_0', action: { kind: 'sitIn' } };
      },
    ],
    ['ALREADY_OUT', () => ({ seat: 'seat_0', action: { kind: 'sitOut' } })],
    ['BUSTED', (t) => bust(t)],
    ['EMPTY_SEAT', () => ({ seat: 'house', action: { kind: 'topUp', seat: 2, amount: 5 } })],
    [
      'KICKED',
      (t) => {
        t.must('seat_0', { kind: 'sitIn' });
        t.house({ kind: 'kick', seat: 0 });
        return { seat: 'seat_0', action: { kind: 'sitIn' } };
      },
    ],
  ];

  function dealt(t: Table): void {
    t.sitAll();
    t.tickDue();
  }

  function dealtThen<T>(t: Table, then: T, wait = 0): T {
    dealt(t);
    t.now += wait;
    return then;
  }

  function bust(_t: Table) {
    const u = new Table({ ...baseConfig, seats: 2, startingStack: 10 });
    u.sitAll();
    u.tickDue();
    u.must('seat_0', { kind: 'call' }); // both all-in: the board runs out, the hand ends
    const broke = u.state.seats.findIndex((s) => s.stack === 0);
    expect(broke).toBeGreaterThanOrEqual(0); // the seeded deck does not split this pot
    return { seat: `seat_${broke}`, action: { kind: 'sitIn' }, table: u };
  }

  it.each(cases)('%s', (code, arrange) => {
    const arranged = new Table();
    const { seat, action, table: t = arranged } = arrange(arranged);
    const before = t.state;
    const text = canonicalize(before);
    const r = t.act(seat, action);
    expect(r).toMatchObject({ ok: false, error: { code } });
    expect(t.state).toBe(before);
    expect(canonicalize(t.state)).toBe(text);
  });

  it('covers every rejection code', () => {
    expect(cases.map(([c]) => c).sort()).toEqual([...TABLE_REJECTION_CODES].sort());
  });
});

describe('poker table: replay', () => {
  it('refolding the log reproduces the state; a tampered log diverges where it was changed', () => {
    const t = new Table();
    t.sitAll();
    for (let k = 0; k < 6; k++) {
      t.tickDue();
      while (t.state.hand) {
        const seat = t.toAct()!;
        const legal = t.legal(seat).actions;
        const pick = legal[(k + seat) % legal.length]!;
        const action = pick.kind === 'raiseTo' ? { kind: 'raiseTo', amount: pick.min } : { kind: pick.kind };
        t.must(`seat_${seat}`, action);
      }
    }
    const r = replayTable(t.log, SEED);
    expect(r.problems).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.hands.map((h) => h.number)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(canonicalize(r.state)).toBe(canonicalize(t.state));

    const i = t.log.findIndex((e) => e.kind === 'action' && (e.payload as { kind: string }).kind === 'fold');
    const tampered = t.log.map((e, k) => (k === i ? { ...e, payload: { kind: 'check' } } : e));
    const bad = replayTable(tampered, SEED);
    expect(bad.ok).toBe(false);
    expect(bad.firstDivergence).toBe(t.log[i]!.seq);
    expect(replayTable(t.log, 'b2'.repeat(32)).ok).toBe(false); // the genesis commits to the seed
  });

  it('verifyHandDeal catches a swapped deck, a wrong salt, and cards not from the deck', () => {
    const t = new Table();
    t.sitAll();
    t.tickDue();
    const commitment = t.state.hand!.commitment;
    while (t.state.hand)
      t.must(
        `seat_${t.toAct()}`,
        t.legal(t.toAct()!).actions.some((a) => a.kind === 'check') ? { kind: 'check' } : { kind: 'call' },
      );
    const h = t.state.recent[0]!;
    expect(verifyHandDeal(h, { seed: SEED, commitmentAtDeal: commitment })).toEqual([]);
    const swapped = [h.deck[1]!, h.deck[0]!, ...h.deck.slice(2)];
    expect(verifyHandDeal({ ...h, deck: swapped }).join()).toMatch(/do not hash/);
    expect(verifyHandDeal({ ...h, salt: '00'.repeat(16) }).join()).toMatch(/do not hash/);
    expect(verifyHandDeal(h, { seed: 'b2'.repeat(32) }).join()).toMatch(/not the room seed/);
    expect(verifyHandDeal(h, { commitmentAtDeal: '0'.repeat(64) }).join()).toMatch(/changed after the deal/);
    const log = h.log.map((l) => (l.startsWith('d dh p1 ') ? `d dh p1 ${h.deck[5]}${h.deck[6]}` : l));
    expect(verifyHandDeal({ ...h, log }).join()).toMatch(/p1 was not dealt/);
    expect(verifyHandDeal({ ...h, board: [h.deck[0]!, ...h.board.slice(1)] }).join()).toMatch(/board/);
  });
});
