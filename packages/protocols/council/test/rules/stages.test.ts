import { describe, expect, it } from 'vitest';
import {
  checkTransition,
  checkTransitionLog,
  logTransition,
  STAGES,
  type Stage,
  type Transition,
} from '../../rules/index.ts';
import { Run } from './harness.ts';

describe('council: the transition validator', () => {
  it('has exactly the eight states of the seed, in order', () => {
    expect(STAGES).toEqual([
      'Intake',
      'Round1',
      'Round2',
      'Round3',
      'Consensus',
      'Judge',
      'Packetize',
      'Writeback',
    ]);
  });

  it('allows only start → Intake, each state → its successor, Writeback → completed and any → aborted', () => {
    const all: (Stage | null)[] = [null, ...STAGES];
    const statuses = ['ok', 'degraded', 'completed', 'aborted'] as const;
    const allowed: string[] = [];
    for (const from of all) {
      for (const to of all) {
        for (const status of statuses) {
          if (checkTransition(from, to, status).ok) allowed.push(`${from}>${to}:${status}`);
        }
      }
    }
    const want = [
      'null>Intake:ok',
      ...STAGES.slice(0, -1).flatMap((s, i) => [
        `${s}>${STAGES[i + 1]}:ok`,
        `${s}>${STAGES[i + 1]}:degraded`,
      ]),
      ...STAGES.map((s) => `${s}>null:aborted`),
      'Writeback>null:completed',
    ];
    expect(allowed.sort()).toEqual(want.sort());
  });

  it('refuses skipping, going back, staying and completing early', () => {
    expect(checkTransition('Round1', 'Round3', 'ok')).toMatchObject({ ok: false });
    expect(checkTransition('Round2', 'Round1', 'ok')).toMatchObject({ ok: false });
    expect(checkTransition('Judge', 'Judge', 'ok')).toMatchObject({ ok: false });
    expect(checkTransition('Judge', null, 'completed')).toMatchObject({ ok: false });
    expect(checkTransition(null, 'Round1', 'ok')).toMatchObject({ ok: false });
  });

  it('logTransition throws on an illegal move instead of recording it', () => {
    const run = new Run();
    expect(() => logTransition(run.state, 1, 0, 'Round2', 'ok', null)).toThrow(
      /Intake → Round2 is not allowed/,
    );
    expect(() => logTransition(run.state, 1, 0, null, 'completed', null)).toThrow();
  });

  it('checkTransitionLog refuses reordered, renumbered, backdated and continued logs', () => {
    const base: Transition[] = [
      { index: 0, seq: 0, at: 10, from: null, to: 'Intake', status: 'ok', detail: null },
      { index: 1, seq: 1, at: 11, from: 'Intake', to: 'Round1', status: 'ok', detail: null },
    ];
    expect(checkTransitionLog(base)).toEqual({ ok: true });
    expect(checkTransitionLog([base[1]!, base[0]!]).ok).toBe(false);
    expect(checkTransitionLog([base[0]!, { ...base[1]!, index: 5 }]).ok).toBe(false);
    expect(checkTransitionLog([base[0]!, { ...base[1]!, at: 9 }]).ok).toBe(false);
    const ended: Transition[] = [
      ...base,
      { index: 2, seq: 2, at: 12, from: 'Round1', to: null, status: 'aborted', detail: 'x' },
    ];
    expect(checkTransitionLog(ended)).toEqual({ ok: true });
    expect(
      checkTransitionLog([
        ...ended,
        { index: 3, seq: 3, at: 13, from: null, to: 'Intake', status: 'ok', detail: null },
      ]).ok,
    ).toBe(false);
  });
});
