import { describe, expect, it } from 'vitest';
import { type ArenaState, type Match, seriesOf, standingsOf, winMatrixOf } from '../../rules/index.ts';
import { config, play } from './harness.ts';

// The plots' data, hand-worked: the pairwise matrix, the bankroll with its band, poker's running bb/100.

const people = (names: string[]) => names.map((name) => ({ name, kind: 'person' as const }));

/** Heads-up results from a's chips per match (b loses them; 0 is a draw). */
const headsUp = (chips: number[]) => {
  let i = 0;
  return (m: Match) => {
    const c = chips[i++]!;
    return m.entrants.map((entrant) => ({
      entrant,
      place: c === 0 ? 1 : (entrant === 'a') === c > 0 ? 1 : 2,
      score: entrant === 'a' ? c : -c,
    }));
  };
};

describe('win-rate matrix', () => {
  it('counts wins, draws and losses per ordered pair', () => {
    // Round robin twice over a, b, c. By pair, in schedule order: a beats b twice; a beats c, then
    // draws; c beats b twice. So a→b 2-0-0 (rate 1), a→c 1-1-0 ((1 + ½)/2 = 0.75), c→b 2-0-0.
    const seen = new Map<string, number>();
    const room = play(
      config({ entrants: people(['a', 'b', 'c']), format: { kind: 'round-robin', games: 2 }, bootstrap: 0 }),
      (m) => {
        const key = [...m.entrants].sort().join('');
        const n = (seen.get(key) ?? 0) + 1;
        seen.set(key, n);
        const winner = key === 'ab' ? 'a' : key === 'bc' ? 'c' : n === 1 ? 'a' : null;
        return m.entrants.map((entrant) => ({
          entrant,
          place: winner === null || entrant === winner ? 1 : 2,
          score: winner === null ? 0 : entrant === winner ? 10 : -10,
        }));
      },
    );
    const m = winMatrixOf(room.state);
    expect(m.entrants).toEqual(['a', 'b', 'c']);
    const cell = (e: string, o: string) => {
      const c = m.cells.find((x) => x.entrant === e && x.opponent === o)!;
      return [c.wins, c.draws, c.losses, c.games, c.winRate];
    };
    expect(m.cells).toHaveLength(6);
    expect(cell('a', 'b')).toEqual([2, 0, 0, 2, 1]);
    expect(cell('b', 'a')).toEqual([0, 0, 2, 2, 0]);
    expect(cell('a', 'c')).toEqual([1, 1, 0, 2, 0.75]);
    expect(cell('c', 'a')).toEqual([0, 1, 1, 2, 0.25]);
    expect(cell('b', 'c')).toEqual([0, 0, 2, 2, 0]);
    expect(cell('c', 'b')).toEqual([2, 0, 0, 2, 1]);
    // A row's sums are the standings' W-D-L.
    for (const r of standingsOf(room.state).rows) {
      const mine = m.cells.filter((c) => c.entrant === r.entrant);
      expect([r.wins, r.draws, r.losses]).toEqual([
        mine.reduce((s, c) => s + c.wins, 0),
        mine.reduce((s, c) => s + c.draws, 0),
        mine.reduce((s, c) => s + c.losses, 0),
      ]);
    }
  });

  it('has no win rate for a pair that has not met', () => {
    const room = play(config({ entrants: people(['a', 'b', 'c']), bootstrap: 0 }), headsUp([0, 0, 0]), false);
    const fresh = { ...room.state, results: {} } as ArenaState;
    expect(winMatrixOf(fresh).cells.every((c) => c.games === 0 && c.winRate === null)).toBe(true);
  });
});

describe('bankroll series', () => {
  it('sums each set and bands the total with k times the t interval of the mean', () => {
    // a's chips per match: +30, +10, −10. After 2: total 40, mean 20, s = √((10² + 10²)/1) = 14.142,
    // t(0.975, 1) = 12.706: band 40 ± 12.706 · 14.142 · √2 = 40 ± 254.12. After 3: total 30, mean 10,
    // s = 20, t(0.975, 2) = 4.303: band 30 ± 4.303 · 20 · √3 = 30 ± 149.06.
    const room = play(
      config({ entrants: people(['a', 'b']), format: { kind: 'round-robin', games: 3 }, bootstrap: 0 }),
      headsUp([30, 10, -10]),
    );
    const [a, b] = seriesOf(room.state);
    expect(a!.entrant).toBe('a');
    expect(a!.points.map((p) => [p.k, p.score, p.total])).toEqual([
      [1, 30, 30],
      [2, 10, 40],
      [3, -10, 30],
    ]);
    expect(a!.points[0]!.band).toBeNull();
    expect(a!.points[1]!.band![0]).toBeCloseTo(40 - 254.12, 1);
    expect(a!.points[1]!.band![1]).toBeCloseTo(40 + 254.12, 1);
    expect(a!.points[2]!.band![0]).toBeCloseTo(30 - 149.06, 1);
    expect(a!.points[2]!.band![1]).toBeCloseTo(30 + 149.06, 1);
    expect(b!.points.map((p) => p.total)).toEqual([-30, -40, -30]);
    expect(a!.points.every((p) => p.bb100 === undefined)).toBe(true);
    // The last point is the standings' score.
    expect(standingsOf(room.state).rows.find((r) => r.entrant === 'a')!.score).toBe(30);
  });

  it("poker: the running bb/100 ends on the poker stats' row", () => {
    // Three duplicate sets of two 50-hand rotations, big blind 10; a nets 400, 200, 0 chips:
    // 40, 20, 0 bb/100. Running: 40; 30 ± 12.706 · 14.142/√2 = 30 ± 127.06; 20 ± 49.69.
    const chips = [300, 100, 0, 200, -100, 100];
    const room = play(
      config({
        game: 'poker',
        gameConfig: { bigBlind: 10, hands: 50 },
        format: { kind: 'duplicate-poker', deals: 3 },
        entrants: people(['a', 'b']),
        runBy: 'organizer',
        bootstrap: 0,
      }),
      headsUp(chips),
    );
    const s = room.state as ArenaState;
    const state = {
      ...s,
      results: Object.fromEntries(Object.entries(s.results).map(([id, r]) => [id, { ...r, hands: 50 }])),
    } as ArenaState;
    const a = seriesOf(state)[0]!;
    expect(a.points.map((p) => [p.total, p.bb100])).toEqual([
      [400, 40],
      [600, 30],
      [600, 20],
    ]);
    expect(a.points[0]!.bb100Band).toBeNull();
    expect(a.points[1]!.bb100Band![0]).toBeCloseTo(30 - 127.06, 1);
    expect(a.points[2]!.bb100Band![1]).toBeCloseTo(20 + 49.69, 1);
    const row = standingsOf(state).poker!.rows.find((r) => r.entrant === 'a')!;
    expect(a.points[2]!.bb100Band).toEqual(row.ci);
    expect(a.points[2]!.bb100).toBe(row.bb100);
  });
});
