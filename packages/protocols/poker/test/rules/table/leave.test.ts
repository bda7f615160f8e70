import { describe, expect, it } from 'vitest';
import { poker } from '../../../rules/index.ts';
import { baseConfig, Table } from './harness.ts';

// Leaving, kicking and idle tables (issue 25, seed 002 §10.1): an agent that leaves is not waited for
// three timeouts, the house can kick, and a table whose agents have all gone stops by itself.

/** A 3-seat table in its first hand: seat 0 is the button and acts first pre-flop (seats 1, 2 post). */
function inHand(config = {}): Table {
  const t = new Table({ ...baseConfig, ...config });
  t.sitAll();
  t.tickDue();
  expect(t.toAct()).toBe(0);
  return t;
}

describe('poker: leave, kick, idle stop', () => {
  it('a seat that leaves at its turn is folded at once, and sits out from then on', () => {
    const t = inHand();
    const r = t.must('seat_0', { kind: 'leave' });
    expect(r.state.seats[0]).toMatchObject({ status: 'sittingOut', sitOutReason: 'left' });
    expect(t.state.hand?.actions.at(-1)).toMatchObject({ seat: 0, kind: 'fold', auto: true });
    expect(t.toAct()).toBe(1);
    expect(t.state.seats[0]!.timeouts).toBe(0);
  });

  it('a seat that leaves out of turn is folded when its turn comes, without waiting for the timeout', () => {
    const t = inHand();
    t.must('seat_2', { kind: 'leave' }); // seat 2 (big blind) is not to act
    t.must('seat_0', { kind: 'call' });
    t.must('seat_1', { kind: 'call' });
    // Seat 2's turn: its deadline is now, not now + actionTimeoutMs (5 s).
    expect(t.toAct()).toBe(2);
    expect(poker.deadline(t.state)).toBe(t.now);
    t.tick(t.now);
    // It folded although checking was free: a player who left does not play on.
    expect(t.state.hand?.actions.at(-1)).toMatchObject({ seat: 2, kind: 'fold', auto: true });
  });

  it('a seat that left may sit in again; one the house kicked may not, and only the house kicks', () => {
    const t = inHand();
    expect(t.act('seat_1', { kind: 'kick', seat: 0 })).toMatchObject({
      ok: false,
      error: { code: 'HOUSE_ONLY' },
    });
    t.must('seat_1', { kind: 'leave' });
    expect(t.act('seat_1', { kind: 'leave' })).toMatchObject({ ok: false, error: { code: 'ALREADY_OUT' } });
    t.must('seat_1', { kind: 'sitIn' });
    expect(t.state.seats[1]).toMatchObject({ status: 'active', sitOutReason: null });

    t.house({ kind: 'kick', seat: 2 });
    expect(t.state.seats[2]).toMatchObject({ status: 'sittingOut', sitOutReason: 'kicked' });
    expect(t.act('seat_2', { kind: 'sitIn' })).toMatchObject({ ok: false, error: { code: 'KICKED' } });
    expect(t.legal(2).actions).toEqual([]);
    expect(t.act('house', { kind: 'kick', seat: 2 })).toMatchObject({
      ok: false,
      error: { code: 'ALREADY_OUT' },
    });
  });

  it('leaving or kicking a seat that never sat in is refused', () => {
    const t = new Table();
    t.must('seat_0', { kind: 'sitIn' });
    expect(t.act('seat_1', { kind: 'leave' })).toMatchObject({ ok: false, error: { code: 'EMPTY_SEAT' } });
    expect(t.act('house', { kind: 'kick', seat: 2 })).toMatchObject({
      ok: false,
      error: { code: 'EMPTY_SEAT' },
    });
    expect(t.act('house', { kind: 'kick', seat: 9 })).toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_SEAT' },
    });
  });

  it('a table whose agents have all gone stops after idleStopMs; chips stay each seat’s result', () => {
    const t = inHand({ idleStopMs: 60_000 });
    for (const seat of [0, 1, 2]) t.must(`seat_${seat}`, { kind: 'leave' });
    // Everyone left: the hand played out by folds, no next hand, and the idle clock runs.
    expect(t.state.hand).toBeNull();
    const since = t.state.idleSince!;
    expect(since).not.toBeNull();
    expect(poker.deadline(t.state)).toBe(since + 60_000);
    expect(t.tick(since + 59_999)).toBeNull();
    t.tick(since + 60_000);
    expect(t.state).toMatchObject({ stopped: true, stopReason: 'idle' });
    const result = poker.result(t.state)!;
    expect(result.reason).toBe('idle');
    expect(result.seats.reduce((n, s) => n + s.net, 0)).toBe(0);
  });

  it('a seat coming back stops the idle clock; a table without idleStopMs never stops by itself', () => {
    const t = inHand({ idleStopMs: 60_000 });
    for (const seat of [0, 1, 2]) t.must(`seat_${seat}`, { kind: 'leave' });
    t.must('seat_1', { kind: 'sitIn' });
    expect(t.state.idleSince).toBeNull();
    expect(poker.deadline(t.state)).toBeNull(); // one seat cannot play: nothing is due
    const never = inHand();
    for (const seat of [0, 1, 2]) never.must(`seat_${seat}`, { kind: 'leave' });
    expect(poker.deadline(never.state)).toBeNull();
    expect(never.tick(never.now + 10 * 86_400_000)).toBeNull();
    expect(never.state.stopped).toBe(false);
  });
});
