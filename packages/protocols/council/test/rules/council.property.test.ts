import { canonicalize } from '@db8/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CHALLENGE_MAP,
  CouncilStateSchema,
  CouncilViewSchema,
  checkTransitionLog,
  council,
  legalFor,
  OPERATOR,
  REJECTION_CODES,
  ROLES,
  roleOfSeat,
  seatOf,
} from '../../rules/index.ts';
import { call, challenge, opening, Run, revision, T0, verdict } from './harness.ts';

const SEATS = [...ROLES.map(seatOf), OPERATOR, 'stranger'];

/** An action for `seat` that the live state would take (if any), built from `legal`. */
function legalMove(run: Run, seat: string, pick: number): unknown | null {
  const actions = legalFor(run.state, seat).actions;
  const a = actions[pick % Math.max(1, actions.length)];
  const role = roleOfSeat(seat);
  if (!a) return null;
  switch (a.type) {
    case 'opening':
      return { type: 'opening', payload: opening(role!, pick % 2 ? 'support' : 'oppose'), call };
    case 'challenge':
      return { type: 'challenge', payload: challenge(CHALLENGE_MAP[role!]), call };
    case 'revision':
      return {
        type: 'revision',
        payload: revision(role!, pick % 3 ? 'conditional' : 'support', (pick % 10) / 10),
        call,
      };
    case 'assessment':
      return {
        type: 'assessment',
        payload: { positions: [], commonGround: [], disagreements: [], proposal: 'p' },
        call,
      };
    case 'verdict':
      return { type: 'verdict', payload: verdict('2027-01-01'), call };
    case 'failed':
      return { type: 'failed', stage: a.stage, error: { code: 'timeout', message: 'x' }, call: null };
    case 'writeback':
      return {
        type: 'writeback',
        recordPath: 'r.json',
        packetSha256: pick % 7 === 0 ? 'f'.repeat(64) : a.packetSha256,
      };
    case 'abort':
      return pick % 13 === 0 ? { type: 'abort', error: { code: 'DISK', message: 'x' } } : null;
  }
}

const junk = [
  { type: 'opening', payload: opening('Critic'), call },
  { type: 'challenge', payload: challenge('Judge'), call },
  { type: 'verdict', payload: verdict('2020-01-01'), call },
  { type: 'writeback', recordPath: 'x', packetSha256: '0'.repeat(64) },
  { type: 'failed', stage: 'Judge', error: { code: 'x', message: '' }, call: null },
];

const step = fc.record({
  kind: fc.constantFrom('legal', 'legal', 'legal', 'junk', 'tick'),
  seat: fc.constantFrom(...SEATS),
  pick: fc.nat(1000),
  dt: fc.constantFrom(0, 1, 10, 1000, 30_000, 60_000),
});

let completed = 0;
let runs = 0;

describe('council: properties', () => {
  it('random scripts never throw, refuse only with typed codes, and keep every invariant', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 10, maxLength: 70, size: 'max' }), (steps) => {
        const run = new Run();
        let now = T0;
        for (const s of steps) {
          now += s.dt;
          if (s.kind === 'tick') {
            const before = run.state;
            const t = run.tick(now);
            if (t)
              expect(council.tick(run.state, now, run.nextSeq)).toBeNull(); // one tick settles an instant
            else expect(run.state).toBe(before);
          } else {
            // Legal steps go to a seat that has something to do, so runs reach the late stages.
            const open = SEATS.filter((x) => legalFor(run.state, x).actions.some((a) => a.type !== 'abort'));
            const seat = s.kind === 'legal' && open.length > 0 ? open[s.pick % open.length]! : s.seat;
            const action = s.kind === 'legal' ? legalMove(run, seat, s.pick) : junk[s.pick % junk.length];
            if (action) {
              const res = run.act(seat, action, now);
              if (!res.ok) expect(REJECTION_CODES).toContain(res.error.code);
            }
          }
          const st = run.state;
          expect(CouncilStateSchema.safeParse(st).success).toBe(true);
          expect(council.isOver(st)).toBe(council.result(st) !== null);
          expect(council.deadline(st) === null).toBe(council.isOver(st));
          expect(checkTransitionLog(st.transitions)).toEqual({ ok: true });
          for (const viewer of [{ kind: 'observer' }, { kind: 'seat', seat: 'critic' }] as const) {
            const v = council.view(st, viewer);
            expect(CouncilViewSchema.safeParse(v).success).toBe(true);
            canonicalize(v);
          }
        }
        runs += 1;
        if (run.state.status === 'completed') completed += 1;
      }),
      { numRuns: 100 },
    );
    // The legal-move bias must actually reach the end sometimes, or the late stages go untested.
    expect(completed / runs, `${completed}/${runs} completed`).toBeGreaterThan(0.03);
  });
});
