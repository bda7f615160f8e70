import { describe, expect, it } from 'vitest';
import { type CodeVersion, deliberation, OPERATOR } from '../../rules/index.ts';
import { configFor, drive, Room } from './harness.ts';

/** A code task with tests whose versions the operator measures as soon as they appear. */
function run(passRate: (v: CodeVersion) => number) {
  const room = new Room(
    configFor({
      task: { kind: 'code', language: 'typescript', confidence: 0.95, tests: 'export const t = 1;' },
      maxRounds: 2,
    }),
  );
  while (!room.closed) {
    drive(room, { maxSteps: 1 });
    for (const v of room.state.codeVersions)
      if (v.measuredAt === null && !room.closed)
        room.must(
          OPERATOR,
          {
            type: 'measure',
            version: v.version,
            measurement: { qualityScore: null, testPassRate: passRate(v), metrics: {} },
          },
          room.lastTs + 1000,
        );
  }
  return room;
}

describe('a code task respects its tests', () => {
  it('code whose tests never pass ends without a winner, failed, consensus not reached', () => {
    const room = run(() => 0);
    const s = room.state;
    expect(s.codeVersions.length).toBeGreaterThan(0);
    expect(s.rounds).toHaveLength(2);
    for (const o of s.rounds)
      expect(o).toMatchObject({ winner: null, summary: null, reachedConsensus: false, noPassingCode: true });
    expect(s.outcome?.failingTests).toContain('ana');
    expect(s).toMatchObject({ status: 'failed', failure: { code: 'NO_PASSING_CODE' } });
    expect(deliberation.result(s)).toMatchObject({ status: 'failed', outcome: { winner: null } });
  });

  it('a proposal whose code fails cannot win: the passing one does, though everyone ranks the other first', () => {
    const room = run((v) => (v.seat === 'ben' ? 1 : 0.75));
    const s = room.state;
    const ballots = s.turns.filter((t) => t.action.type === 'converge' && t.round === s.outcome!.round);
    expect(ballots.every((t) => t.action.type === 'converge' && t.action.ranking[0] === 'ana')).toBe(true);
    expect(s.outcome).toMatchObject({ winner: 'ben', noPassingCode: false });
    expect(s.outcome?.failingTests).toContain('ana');
    expect(s.outcome?.failingTests).not.toContain('ben');
    expect(s.status).toBe('completed');
  });
});
