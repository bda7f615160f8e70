import type { Cast } from '@db8/core';

const HEAD = { size: 5, rootHash: 'ab'.repeat(32), note: 'db8-local/room/m1\n5\nq83q\n\n— db8-local sig\n' };

/**
 * The privacy kit's tournament (`Cast`, core's protocol/cast.ts): two scripted sealed-bid bidders
 * meet once; the organizer publishes the round, reports the result and closes. A tournament holds
 * no secret (schedule, results and tree heads are its public record), so the cast plants none.
 */
export const arenaCast: Cast = {
  protocol: 'arena',
  public: 'a tournament is its public record: schedule, results and the match rooms’ tree heads',
  room: () => ({
    title: 'privacy kit: a round robin',
    config: {
      name: 'privacy kit',
      game: 'sealed-bid',
      format: { kind: 'round-robin' },
      entrants: [
        { name: 'truthful', kind: 'scripted', strategy: 'truthful' },
        { name: 'shader', kind: 'scripted', strategy: 'shade' },
      ],
      seed: 'privacy-kit',
      bootstrap: 20,
      // The cast writes the schedule and results itself: the server must not play it meanwhile.
      runBy: 'organizer',
    },
    steps: [
      { kind: 'act', seat: 'organizer', action: ({ legal }) => legal.actions[0] },
      { kind: 'checkpoint', name: 'scheduled' },
      {
        kind: 'act',
        seat: 'organizer',
        action: {
          type: 'result',
          match: 'm1',
          room: 'room_m1',
          head: HEAD,
          placements: [
            { entrant: 'truthful', place: 2, score: 0 },
            { entrant: 'shader', place: 1, score: 120 },
          ],
        },
      },
      { kind: 'checkpoint', name: 'reported' },
      { kind: 'act', seat: 'organizer', action: { type: 'close' } },
      { kind: 'checkpoint', name: 'closed' },
    ],
  }),
};
