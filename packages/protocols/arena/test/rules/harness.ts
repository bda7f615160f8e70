import { createRng, LocalRoom } from '@db8/core';
import {
  type ArenaConfigInput,
  type ArenaLegal,
  arena,
  type Match,
  type Placement,
} from '../../rules/index.ts';

/** Tournament tests run on core's LocalRoom, with results made up by a function of the match. */

export const HEAD = { size: 3, rootHash: 'cd'.repeat(32), note: 'test/room\n3\nzd\n\n— test sig\n' };

export function config(over: Partial<ArenaConfigInput> = {}): ArenaConfigInput {
  return {
    name: 'test cup',
    game: 'sealed-bid',
    format: { kind: 'round-robin' },
    entrants: ['ann', 'bob', 'cy', 'dee'].map((name) => ({
      name,
      kind: 'scripted' as const,
      strategy: name,
    })),
    seed: 'test-seed',
    bootstrap: 50,
    ...over,
  };
}

export type Outcome = (m: Match) => Placement[];

/** Each entrant has a strength; the match's seeded draw picks a winner with Bradley–Terry odds. */
export function btOutcome(strength: Record<string, number>, seed = 'outcomes'): Outcome {
  return (m) => {
    const rng = createRng(seed, m.id);
    const total = m.entrants.reduce((s, e) => s + strength[e]!, 0);
    const x = (rng.nextU32() / 2 ** 32) * total;
    let acc = 0;
    const winner =
      m.entrants.find((e) => {
        acc += strength[e]!;
        return x < acc;
      }) ?? m.entrants.at(-1)!;
    return m.entrants.map((entrant) => ({
      entrant,
      place: entrant === winner ? 1 : 2,
      score: entrant === winner ? 1 : 0,
    }));
  };
}

export function result(m: Match, placements: Placement[]) {
  return { type: 'result', match: m.id, room: `room_${m.id}`, head: HEAD, placements };
}

/** Plays every round: publish what is due, report every match, close. */
export function play(cfg: ArenaConfigInput, outcome: Outcome, close = true): LocalRoom<typeof arena> {
  const room = new LocalRoom({
    protocol: arena,
    config: cfg,
    seed: 'ab'.repeat(32),
    now: 1000,
    salt: () => '00'.repeat(32),
  });
  for (;;) {
    const due = room.legal('organizer').actions.find((a) => (a as ArenaLegal).type === 'schedule') as
      | Extract<ArenaLegal, { type: 'schedule' }>
      | undefined;
    if (!due) break;
    room.must('organizer', due);
    for (const m of due.matches) room.must('organizer', result(m, outcome(m)));
  }
  if (close) room.must('organizer', { type: 'close' });
  return room;
}
