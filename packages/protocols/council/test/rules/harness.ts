import { LocalRoom } from '@db8/core';
import {
  type CouncilConfig,
  council,
  type Opening,
  type Revision,
  ROLES,
  type Role,
  type Stance,
  seatOf,
  type Verdict,
} from '../../rules/index.ts';

/**
 * Council tests run on core's LocalRoom, as the sealed-bid and debate tests do: seqs from 1
 * (genesis is 0), actions parsed with the protocol's schema, every state deep-frozen (a mutation
 * throws), and the very entries `db8 council` writes and `db8 verify` refolds.
 */

export const T0 = Date.UTC(2026, 0, 15, 9, 0, 0);

export function configFor(patch: Partial<CouncilConfig> = {}): unknown {
  return {
    runId: 'run_test_1',
    question: 'Should we move the nightly batch jobs to an event-driven pipeline?',
    context: 'Batch takes 6 hours; two incidents last quarter.',
    roster: ROLES.map((role) => ({ role, provider: 'scripted', model: 'scripted:test', scripted: true })),
    stageWindowMs: 60_000,
    ...patch,
  };
}

export class Run extends LocalRoom<typeof council> {
  constructor(config: unknown = configFor(), now = T0) {
    super({ protocol: council, config, seed: 'cd'.repeat(32), now, id: 'run_test_1' });
  }
}

export const call = {
  provider: 'scripted',
  model: 'scripted:test',
  scripted: true,
  attempts: 1,
  repaired: false,
  inputTokens: 100,
  outputTokens: 50,
  costUsd: 0,
  latencyMs: 3,
};

export function opening(role: Role, stance: Stance = 'support', confidence = 0.7): Opening {
  return {
    claim: `${role} opening claim`,
    rationale: `${role} rationale for the opening.`,
    risks: [{ risk: `${role} risk`, severity: 'medium' }],
    stance,
    confidence,
  };
}

export function challenge(target: Role) {
  return {
    target,
    challenges: [
      { point: `${target} claim`, challenge: `Why would ${target} be right?`, severity: 'high' as const },
    ],
  };
}

export function revision(role: Role, stance: Stance, confidence: number): Revision {
  return {
    claim: `${role} revised claim`,
    rationale: `${role} revised rationale.`,
    stance,
    conditions: stance === 'conditional' ? ['a staged rollout'] : [],
    confidence,
    deltas: [{ aspect: 'scope', before: 'everything', after: 'one pipeline first', promptedBy: null }],
    answers: [],
  };
}

export function verdict(due = '2026-02-01'): Verdict {
  return {
    decision: 'Pilot the event-driven pipeline for one job family.',
    verdict: 'adopt_with_conditions',
    rationale: 'The roles converge on a staged pilot.',
    risks: [{ risk: 'Dual running cost', mitigation: 'Time-box the pilot to six weeks' }],
    nextActions: [{ action: 'Pick the pilot job family', owner: 'operator', due }],
    quality: 0.8,
  };
}

export type Plan = Partial<Record<Role, { r3?: [Stance, number] | 'fail'; r1?: 'fail'; r2?: 'fail' }>>;

/** Play a whole run at one second per step; roles in `plan` can fail or take given stances. */
export function playFull(run: Run, plan: Plan = {}) {
  let now = T0;
  const step = () => {
    now += 1000;
    return now;
  };
  run.tick(step()); // Intake → Round1
  const fail = (stage: string) => ({
    type: 'failed',
    stage,
    error: { code: 'timeout', message: 'model call timed out' },
    call: null,
  });
  for (const role of ROLES) {
    run.must(
      seatOf(role),
      plan[role]?.r1 ? fail('Round1') : { type: 'opening', payload: opening(role), call },
      step(),
    );
  }
  run.tick(step());
  const targets = {
    Proponent: 'Critic',
    Critic: 'Proponent',
    Analyst: 'Proponent',
    Synthesizer: 'Critic',
    Judge: 'Synthesizer',
  } as const;
  for (const role of ROLES) {
    run.must(
      seatOf(role),
      plan[role]?.r2 ? fail('Round2') : { type: 'challenge', payload: challenge(targets[role]), call },
      step(),
    );
  }
  run.tick(step());
  for (const role of ROLES) {
    const r3 = plan[role]?.r3 ?? ['support', 0.8];
    run.must(
      seatOf(role),
      r3 === 'fail' ? fail('Round3') : { type: 'revision', payload: revision(role, r3[0], r3[1]), call },
      step(),
    );
  }
  run.tick(step());
  return { now, step, fail };
}
