// A concession scores once per debater and conceded claim, however often it is repeated: within
// one submission or round after round (as a draft carried into the next round repeats it).
import { describe, expect, it } from 'vitest';
import { computeResults } from '../../rules/results.ts';
import { baseConfig, DEBATERS5, type Room, roomAtContinueVote, verifyAll } from './harness.ts';

const CONCEDE = { round: 1, author: 'anon_2', claim_id: 'c1' };

/** Continue, then play one more round: anon_1 submits `concessions`, the others a default. */
function playRound(room: Room, concessions: (typeof CONCEDE)[]): void {
  const t0 = room.state.phase_at + 1;
  for (const [i, seat] of DEBATERS5.slice(0, 3).entries()) {
    room.must(seat, { type: 'vote_continue', choice: 'continue' }, t0 + i);
  }
  room.advance(); // the continue vote closes → research
  room.advance(); // research → submit
  const t1 = room.state.phase_at + 1;
  room.must('anon_1', room.submission('anon_1', { concessions }), t1);
  for (const [i, seat] of DEBATERS5.slice(1).entries()) room.must(seat, room.submission(seat), t1 + 1 + i);
  room.advance(); // submit → verify
  verifyAll(room, room.state.phase_at + 1);
  room.advance(); // publish
}

describe('debate: concessions count once', () => {
  it('the same claim conceded three times in one submission and again next round scores +reward once', () => {
    const room = roomAtContinueVote({ ...baseConfig, max_rounds: 3 });
    playRound(room, [CONCEDE, CONCEDE, CONCEDE]);
    playRound(room, [CONCEDE]);
    expect(room.state.rounds.slice(0, 3).map((r) => r.published_at !== null)).toEqual([true, true, true]);
    // anon_2's round-1 c1 was checked true: conceding it is honest, +2 (reward) — once, not 4 × 2
    // clamped to the cap of 6.
    expect(room.state.rounds[0]?.slots.anon_2?.verdict).toMatchObject({ by: 'fact_checker' });
    const results = computeResults(room.state, room.state.phase_at);
    expect(results.scores.find((s) => s.seat === 'anon_1')?.concessions).toBe(2);
    expect(results.stats.find((s) => s.seat === 'anon_1')?.concessions).toBe(1);
    expect(results.scores.find((s) => s.seat === 'anon_2')?.concessions).toBe(0);
  });

  it('two different claims conceded in one submission each count', () => {
    const room = roomAtContinueVote({ ...baseConfig, max_rounds: 2 });
    const other = { round: 1, author: 'anon_3', claim_id: 'c1' };
    playRound(room, [CONCEDE, other]);
    const results = computeResults(room.state, room.state.phase_at);
    expect(results.scores.find((s) => s.seat === 'anon_1')?.concessions).toBe(4);
    expect(results.stats.find((s) => s.seat === 'anon_1')?.concessions).toBe(2);
  });
});
