import { LocalRoom } from '@db8/core';
import { describe, expect, it } from 'vitest';
import type { ArenaLegal, ArenaState, Match } from '../../rules/index.ts';
import { arena, pokerStatsOf, standingsOf, tQuantile975 } from '../../rules/index.ts';
import { config, play, result } from './harness.ts';

// bb/100 over duplicate sets: a hand-worked example, the t quantiles, and results without hand counts.

const heads = (deals: number) =>
  config({
    game: 'poker',
    gameConfig: { bigBlind: 10, hands: 50 },
    format: { kind: 'duplicate-poker', deals },
    entrants: ['a', 'b'].map((name) => ({ name, kind: 'scripted' as const, strategy: name })),
    seatsPerMatch: 2,
    bootstrap: 0,
  });

/** Chips won by `a` in each match of a set, in schedule order; b loses them. */
function duplicate(deals: number, chipsForA: (m: Match, i: number) => number, hands?: (m: Match) => number) {
  let i = 0;
  const room = play(heads(deals), (m) => {
    const chips = chipsForA(m, i++);
    return m.entrants.map((entrant) => ({
      entrant,
      place: chips === 0 ? 1 : (entrant === 'a') === chips > 0 ? 1 : 2,
      score: entrant === 'a' ? chips : -chips,
    }));
  });
  // The harness reports no hand counts; re-fold with them added where asked.
  if (!hands) return room.state as ArenaState;
  const state = room.state as ArenaState;
  return {
    ...state,
    results: Object.fromEntries(
      Object.entries(state.results).map(([id, r]) => [
        id,
        { ...r, hands: hands(state.matches.find((m) => m.id === id)!) },
      ]),
    ),
  } as ArenaState;
}

describe('poker bb/100 over duplicate sets', () => {
  it('matches a hand-worked example', () => {
    // Three sets of two 50-hand matches (100 hands a set, big blind 10). a's net per set: the two
    // rotations' chips summed: set 1: 300 + 100 = 400, set 2: 0 + 200 = 200, set 3: −100 + 100 = 0.
    // bb/100 per set = 100·net/(10·100): 40, 20, 0. Mean 20; s = √((400+0+400)/2) = 20;
    // t(0.975, 2) = 4.303: half-width 4.303·20/√3 = 49.687; hands for a clear interval
    // (1.96·20/20)² = 3.8416 sets × 100 = 384.16 → 385.
    const chips = [300, 100, 0, 200, -100, 100];
    const state = duplicate(
      3,
      (_m, i) => chips[i]!,
      () => 50,
    );
    const stats = pokerStatsOf(state, [
      { set: 's1', entrants: ['a', 'b'], score: { a: 400, b: -400 } },
      { set: 's2', entrants: ['a', 'b'], score: { a: 200, b: -200 } },
      { set: 's3', entrants: ['a', 'b'], score: { a: 0, b: 0 } },
    ])!;
    expect(stats.bigBlind).toBe(10);
    const a = stats.rows.find((r) => r.entrant === 'a')!;
    expect(a.sets).toBe(3);
    expect(a.hands).toBe(300);
    expect(a.bb100).toBeCloseTo(20, 10);
    expect(a.ci![0]).toBeCloseTo(20 - 49.687, 2);
    expect(a.ci![1]).toBeCloseTo(20 + 49.687, 2);
    expect(a.handsToExcludeZero).toBe(385);
    // The standings fold gives the same numbers from the log.
    const s = standingsOf(state).poker!;
    expect(s.rows.find((r) => r.entrant === 'a')).toEqual(a);
    expect(s.rows.find((r) => r.entrant === 'b')!.bb100).toBeCloseTo(-20, 10);
  });

  it('uses Student t quantiles (exact to 3 decimals up to 30 degrees of freedom, close past it)', () => {
    expect(tQuantile975(1)).toBe(12.706);
    expect(tQuantile975(10)).toBe(2.228);
    expect(tQuantile975(30)).toBe(2.042);
    expect(tQuantile975(40)).toBeCloseTo(2.021, 2);
    expect(tQuantile975(120)).toBeCloseTo(1.98, 2);
    expect(() => tQuantile975(0)).toThrow(RangeError);
  });

  it('a set with one rotation missing its hand count is left out; none at all: no poker stats', () => {
    const none = duplicate(2, () => 50);
    expect(standingsOf(none).poker).toBeUndefined();
    const partial = duplicate(
      2,
      () => 50,
      (m) => (m.id === 's1-r2' ? undefined : 40) as number,
    );
    const p = standingsOf(partial).poker!;
    expect(p.rows[0]!.sets).toBe(1);
    expect(p.rows[0]!.hands).toBe(80);
    expect(p.rows[0]!.ci).toBeNull();
  });

  it('a result entry carries its hand count into the state; a count below one is refused', () => {
    const room = new LocalRoom({ protocol: arena, config: heads(1), seed: 'ab'.repeat(32), now: 1000 });
    const due = room.legal('organizer').actions.find((a) => (a as ArenaLegal).type === 'schedule')!;
    room.must('organizer', due);
    const m = room.state.matches[0]!;
    const placements = m.entrants.map((entrant, i) => ({ entrant, place: i + 1, score: i ? -5 : 5 }));
    const refused = room.act('organizer', { ...result(m, placements), hands: 0 });
    expect(refused.ok).toBe(false);
    expect(room.state.results[m.id]).toBeUndefined();
    room.must('organizer', { ...result(m, placements), hands: 37 });
    expect(room.state.results[m.id]!.hands).toBe(37);
  });
});
