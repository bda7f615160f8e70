import { describe, expect, it } from 'vitest';
import {
  DEBATE_STRATEGIES,
  type DebateStrategy,
  houseDecisions,
  houseVerdict,
  strategyDecisions,
} from '../../agent/index.ts';
import { type DebateResult, debaterSeat, debateSeats, type LegalAction } from '../../rules/index.ts';
import { Room } from './harness.ts';

// The arena's scripted debaters and house seats (agent/strategies.ts) in one room played to its
// close: the totals the protocol gives each strategy are the ones docs/arena.md tabulates.

const url = (s: string) => `https://example.org/${s}`;

describe('the house fact-checker', () => {
  const listed = [{ url: url('a') }, { url: url('b') }];
  it('checks form: every cited source listed → true, one unlisted → false, none cited → unclear', () => {
    expect(houseVerdict({ support: [{ kind: 'citation', ref: url('a') }] }, listed)).toBe('true');
    expect(
      houseVerdict(
        {
          support: [
            { kind: 'citation', ref: url('a') },
            { kind: 'citation', ref: url('c') },
          ],
        },
        listed,
      ),
    ).toBe('false');
    expect(houseVerdict({ support: [{ kind: 'logic', ref: 'because' }] }, listed)).toBe('unclear');
  });
});

/** A room of one debater per strategy (seat order), the house seats, played to the close. */
function play(strategies: readonly DebateStrategy[]): DebateResult {
  const room = new Room({
    topic: 'Strategies',
    debaters: strategies.length,
    judges: 1,
    viewers: 0,
    max_rounds: 1,
    final_voters: ['judge'],
    placement: 'score',
    timings: {
      research_ms: 0,
      submit_ms: 1_000,
      verify_ms: 1_000,
      continue_vote_ms: 1_000,
      final_submit_ms: 1_000,
      final_vote_ms: 1_000,
      results_ms: 1_000,
      reveal_ms: 1_000,
    },
  });
  const seats = debateSeats(room.state.config).map((s) => s.id);
  const sent = new Set<string>();
  while (!room.closed) {
    let acted = false;
    for (const seat of seats) {
      const legal = room.legal(seat).actions as LegalAction[];
      const view = room.seat(seat);
      const i = strategies.findIndex((_, k) => debaterSeat(k + 1) === seat);
      const ds =
        i >= 0
          ? strategyDecisions(strategies[i]!, seat, view, legal, 'room_test')
          : houseDecisions(seat, view, legal);
      for (const d of ds) {
        if (sent.has(`${seat} ${d.key}`)) continue;
        sent.add(`${seat} ${d.key}`);
        room.must(seat, d.action);
        acted = true;
      }
    }
    if (!acted) room.advance();
  }
  return room.result() as DebateResult;
}

describe('the scripted strategies, judged by the house seats and scored by the protocol', () => {
  it('place in the documented order with the documented totals', () => {
    const r = play(DEBATE_STRATEGIES);
    expect(r.rounds).toBe(2); // the argument round and the closing round
    expect(r.scores.map((s) => [s.rubric, s.calibration, s.total])).toEqual([
      [95, 4.8, 99.8], // evidence
      [95, 0, 95], // hedge
      [67.5, 0, 67.5], // sloppy
      [40, 0, 40], // bluff
      [10, 0, 10], // silent
    ]);
    expect(r.placements.map((p) => [p.seat, p.place])).toEqual([
      ['anon_1', 1],
      ['anon_2', 2],
      ['anon_3', 3],
      ['anon_4', 4],
      ['anon_5', 5],
    ]);
  });

  it('places by play, not by seat: the same strategies in reverse seat order place in reverse', () => {
    const r = play([...DEBATE_STRATEGIES].reverse());
    expect(r.placements.map((p) => p.seat)).toEqual(['anon_5', 'anon_4', 'anon_3', 'anon_2', 'anon_1']);
  });

  it('equal strategies share a place', () => {
    const r = play(['hedge', 'hedge']);
    expect(r.placements.map((p) => p.place)).toEqual([1, 1]);
  });
});
