import { canonicalize } from '@db8/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REFUSAL_CODES } from '../../rules/codes.ts';
import { key, T0 } from './fixtures.ts';
import { ASKER, close, input, join, P1, P2, QRoom, say, summary } from './room-harness.ts';

const P3 = key(13);
const WHO = [ASKER, P1, P2, P3];
const MIN = 60_000;

// A pool of signed inputs, built once: random scripts pick from it (with repeats, i.e. replays).
const pool = [
  ...WHO.map((w) => join(w)),
  join(P3, { 'responder/models': ['model:other'] }),
  ...WHO.map((w) => say(w, 'answer')),
  ...WHO.map((w) => say(w, 'live', { 'origin/class': 'human-live' })),
  ...WHO.map((w) => say(w, 'clarify', { 'message/kind': 'clarification' })),
  ...WHO.map((w) => input(w, 'swarm/room-presence')),
  ...WHO.map((w) => input(w, 'swarm/room-takeover')),
  ...WHO.map((w) => input(w, 'swarm/room-policy', { 'room-policy/profile': 'direct-live-allowed' })),
  input(ASKER, 'swarm/room-delegate', {
    'secretary/participant-id': P2.participant,
    'secretary/node-id': 'n',
    'close/allowed': false,
  }),
  summary(ASKER, 'asker', 'summary:a'),
  summary(P1, 'secretary', 'summary:b'),
  close(ASKER, 'asker', 'accepted-answer', 'summary:a'),
  close(P1, 'secretary', 'closed'),
  { ...say(P1, 'forged'), 'message/text': 'changed' },
  { type: 'nonsense' },
];

const step = fc.record({
  pick: fc.nat(pool.length - 1),
  dt: fc.constantFrom(0, 1000, MIN, 4 * MIN, 10 * MIN),
  tick: fc.boolean(),
});

describe('question room: properties', () => {
  it('random signed streams never throw, refuse only with known codes, and two folds agree', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), (steps) => {
        const a = new QRoom();
        const b = new QRoom();
        let now = T0;
        for (const s of steps) {
          now += s.dt;
          if (s.tick) {
            a.tick(now);
            b.tick(now);
          }
          const msg = pool[s.pick];
          const ra = a.send(msg, now);
          const rb = b.send(structuredClone(msg), now);
          expect(ra).toBe(rb);
          if (ra !== 'OK') expect([...REFUSAL_CODES, 'BAD_ACTION', 'ROOM_CLOSED']).toContain(ra);
          const d = a.protocol.deadline(a.state);
          if (a.state.status !== 'open') expect(d).toBeNull();
        }
        expect(canonicalize(a.state)).toBe(canonicalize(b.state));
        // One tick settles an instant.
        const t = a.protocol.tick(a.state, now, 0);
        if (t) expect(a.protocol.tick(t.state, now, 0)).toBeNull();
      }),
      { numRuns: 60 },
    );
  });
});
