import { canonicalize } from '@db8/core';
import { describe, expect, it } from 'vitest';
import { type CouncilRejectionCode, council, REJECTION_CODES } from '../../rules/index.ts';
import { call, challenge, opening, playFull, Run, T0, verdict } from './harness.ts';

/** Each case builds a run, sends one refused action, and checks the room is unchanged. */
type Case = {
  code: CouncilRejectionCode;
  name: string;
  build: () => { run: Run; seat: string; action: unknown; now: number };
};

function atRound1() {
  const run = new Run();
  run.tick(T0 + 1);
  return run;
}

function atStage(stage: 'Round2' | 'Consensus' | 'Judge' | 'Writeback') {
  const run = new Run();
  if (stage === 'Round2') {
    run.tick(T0 + 1);
    for (const s of ['proponent', 'critic', 'analyst', 'synthesizer', 'judge']) {
      run.must(s, { type: 'opening', payload: opening('Proponent'), call }, T0 + 2);
    }
    run.tick(T0 + 3);
    return { run, now: T0 + 4 };
  }
  const { now } = playFull(run, { Judge: { r3: 'fail' } });
  if (stage === 'Consensus') return { run, now: now + 1 };
  run.must(
    'synthesizer',
    {
      type: 'assessment',
      payload: { positions: [], commonGround: [], disagreements: [], proposal: 'p' },
      call,
    },
    now + 1,
  );
  run.tick(now + 2);
  if (stage === 'Judge') return { run, now: now + 3 };
  run.must('judge', { type: 'verdict', payload: verdict(), call }, now + 3);
  run.tick(now + 4);
  return { run, now: now + 5 };
}

const cases: Case[] = [
  {
    code: 'UNKNOWN_SEAT',
    name: 'a seat the run does not have',
    build: () => ({
      run: atRound1(),
      seat: 'moderator',
      action: { type: 'opening', payload: opening('Critic'), call },
      now: T0 + 2,
    }),
  },
  {
    code: 'RUN_OVER',
    name: 'input after an abort',
    build: () => {
      const run = atRound1();
      run.must('operator', { type: 'abort', error: { code: 'DISK', message: 'full' } }, T0 + 2);
      return {
        run,
        seat: 'critic',
        action: { type: 'opening', payload: opening('Critic'), call },
        now: T0 + 3,
      };
    },
  },
  {
    code: 'WRONG_STAGE',
    name: 'a challenge during Round1',
    build: () => ({
      run: atRound1(),
      seat: 'critic',
      action: { type: 'challenge', payload: challenge('Proponent'), call },
      now: T0 + 2,
    }),
  },
  {
    code: 'WRONG_STAGE',
    name: 'a failure reported for another stage',
    build: () => ({
      run: atRound1(),
      seat: 'critic',
      action: { type: 'failed', stage: 'Round2', error: { code: 'timeout', message: '' }, call: null },
      now: T0 + 2,
    }),
  },
  {
    code: 'WRONG_STAGE',
    name: 'a writeback before Writeback',
    build: () => ({
      run: atRound1(),
      seat: 'operator',
      action: { type: 'writeback', recordPath: 'x', packetSha256: '0'.repeat(64) },
      now: T0 + 2,
    }),
  },
  {
    code: 'WRONG_STAGE',
    name: 'a turn during Intake',
    build: () => ({
      run: new Run(),
      seat: 'critic',
      action: { type: 'opening', payload: opening('Critic'), call },
      now: T0,
    }),
  },
  {
    code: 'NOT_YOUR_TURN',
    name: 'the Critic assessing during Consensus',
    build: () => {
      const { run, now } = atStage('Consensus');
      return {
        run,
        seat: 'critic',
        action: {
          type: 'assessment',
          payload: { positions: [], commonGround: [], disagreements: [], proposal: 'p' },
          call,
        },
        now,
      };
    },
  },
  {
    code: 'NOT_YOUR_TURN',
    name: 'the operator submitting an opening',
    build: () => ({
      run: atRound1(),
      seat: 'operator',
      action: { type: 'opening', payload: opening('Critic'), call },
      now: T0 + 2,
    }),
  },
  {
    code: 'NOT_YOUR_TURN',
    name: 'a role aborting the run',
    build: () => ({
      run: atRound1(),
      seat: 'judge',
      action: { type: 'abort', error: { code: 'X', message: '' } },
      now: T0 + 2,
    }),
  },
  {
    code: 'NOT_YOUR_TURN',
    name: 'a role recording the writeback',
    build: () => {
      const { run, now } = atStage('Writeback');
      return {
        run,
        seat: 'judge',
        action: { type: 'writeback', recordPath: 'x', packetSha256: run.state.packetSha256 },
        now,
      };
    },
  },
  {
    code: 'ALREADY_SUBMITTED',
    name: 'a second opening',
    build: () => {
      const run = atRound1();
      run.must('critic', { type: 'opening', payload: opening('Critic'), call }, T0 + 2);
      return {
        run,
        seat: 'critic',
        action: { type: 'opening', payload: opening('Critic'), call },
        now: T0 + 3,
      };
    },
  },
  {
    code: 'STAGE_EXPIRED',
    name: 'an opening at the stage deadline, before the tick',
    build: () => ({
      run: atRound1(),
      seat: 'critic',
      action: { type: 'opening', payload: opening('Critic'), call },
      now: T0 + 1 + 60_000,
    }),
  },
  {
    code: 'STAGE_EXPIRED',
    name: 'a writeback at its deadline',
    build: () => {
      const { run } = atStage('Writeback');
      return {
        run,
        seat: 'operator',
        action: { type: 'writeback', recordPath: 'x', packetSha256: run.state.packetSha256 },
        now: run.state.stageDeadline!,
      };
    },
  },
  {
    code: 'WRONG_TARGET',
    name: 'the Analyst challenging the Critic (the map says Proponent)',
    build: () => {
      const { run, now } = atStage('Round2');
      return { run, seat: 'analyst', action: { type: 'challenge', payload: challenge('Critic'), call }, now };
    },
  },
  {
    code: 'BAD_ASSESSMENT',
    name: 'assessing a role with no round-3 position',
    build: () => {
      const { run, now } = atStage('Consensus');
      const payload = {
        positions: [{ role: 'Judge', stance: 'support', note: 'n' }],
        commonGround: [],
        disagreements: [],
        proposal: 'p',
      };
      return { run, seat: 'synthesizer', action: { type: 'assessment', payload, call }, now };
    },
  },
  {
    code: 'BAD_ASSESSMENT',
    name: 'assessing one role twice',
    build: () => {
      const { run, now } = atStage('Consensus');
      const p = { role: 'Critic', stance: 'support', note: 'n' };
      return {
        run,
        seat: 'synthesizer',
        action: {
          type: 'assessment',
          payload: { positions: [p, p], commonGround: [], disagreements: [], proposal: 'p' },
          call,
        },
        now,
      };
    },
  },
  {
    code: 'BAD_DUE_DATE',
    name: 'a next action due before the judging day',
    build: () => {
      const { run, now } = atStage('Judge');
      return { run, seat: 'judge', action: { type: 'verdict', payload: verdict('2026-01-14'), call }, now };
    },
  },
  {
    code: 'PACKET_MISMATCH',
    name: 'a writeback naming another packet',
    build: () => {
      const { run, now } = atStage('Writeback');
      return {
        run,
        seat: 'operator',
        action: { type: 'writeback', recordPath: 'x', packetSha256: 'a'.repeat(64) },
        now,
      };
    },
  },
];

describe('council: every rejection leaves the run unchanged', () => {
  it.each(cases.map((c) => [c.code, c.name, c] as const))('%s: %s', (code, _name, c) => {
    const { run, seat, action, now } = c.build();
    const before = run.state;
    const canon = canonicalize(before);
    const seq = run.nextSeq;
    const res = run.act(seat, action, now);
    expect(res.ok).toBe(false);
    if (res.ok) return;
    expect(res.error.code).toBe(code);
    expect(run.state).toBe(before);
    expect(canonicalize(run.state)).toBe(canon);
    expect(run.nextSeq).toBe(seq);
  });

  it('the cases cover every rejection code', () => {
    expect(new Set(cases.map((c) => c.code))).toEqual(new Set(REJECTION_CODES));
  });

  it('the action schema refuses extra fields and malformed payloads before the protocol sees them', () => {
    const run = atRound1();
    const bad = [
      ['critic', { type: 'opening', payload: opening('Critic'), call, extra: 1 }],
      ['critic', { type: 'opening', payload: { ...opening('Critic'), confidence: 1.2 }, call }],
      ['critic', { type: 'opening', payload: { ...opening('Critic'), stance: 'maybe' }, call }],
      ['judge', { type: 'verdict', payload: verdict('2026-02-30'), call }],
    ] as const;
    for (const [seat, action] of bad) {
      expect(council.actionSchema.safeParse(action).success).toBe(false);
      expect(run.act(seat, action, T0 + 2)).toMatchObject({ ok: false, error: { code: 'BAD_ACTION' } });
    }
  });
});
