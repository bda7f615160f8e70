import type { Cast, CastMarks, CastStep, CastTurn } from '@db8/core';
import { ROLES, seatOf } from './roles.ts';
import type { CouncilLegalAction, CouncilView } from './view.ts';

/**
 * The privacy kit's council run (`Cast`, packages/core/src/protocol/cast.ts): the five roles play
 * the three sealed rounds, the Synthesizer and the Judge conclude, the operator writes back. Every
 * round turn carries markers: each stays sealed to its role until its round closes, so the kit
 * checks the room just before each of the three reveals.
 */

const ROLE_SEATS = ROLES.map(seatOf);

function turnFor(now: number) {
  const due = new Date(now + 30 * 86_400_000).toISOString().slice(0, 10);
  return ({ seat, legal, marks }: CastTurn): unknown => {
    const wanted = (legal.actions as CouncilLegalAction[])[0];
    const mark = (what: string) => marks.text(`${seat} ${what}`);
    switch (wanted?.type) {
      case 'opening':
        return {
          type: 'opening',
          payload: {
            claim: mark('claim'),
            rationale: mark('rationale'),
            risks: [],
            stance: 'support',
            confidence: 0.7,
          },
          call: null,
        };
      case 'challenge':
        return {
          type: 'challenge',
          payload: {
            target: ROLES.find((r) => seatOf(r) === wanted.target) ?? wanted.target,
            challenges: [{ point: mark('point'), challenge: mark('challenge'), severity: 'high' }],
          },
          call: null,
        };
      case 'revision':
        return {
          type: 'revision',
          payload: {
            claim: mark('revised claim'),
            rationale: mark('revised rationale'),
            stance: 'support',
            conditions: [],
            confidence: 0.8,
            deltas: [],
            answers: [],
          },
          call: null,
        };
      case 'assessment':
        return {
          type: 'assessment',
          payload: { positions: [], commonGround: ['a pilot'], disagreements: [], proposal: 'Run a pilot.' },
          call: null,
        };
      case 'verdict':
        return {
          type: 'verdict',
          payload: {
            decision: 'Pilot it.',
            verdict: 'adopt',
            rationale: 'The roles agree.',
            risks: [],
            nextActions: [{ action: 'Start the pilot', owner: 'operator', due }],
            quality: 0.8,
          },
          call: null,
        };
      case 'writeback':
        return {
          type: 'writeback',
          recordPath: 'records/decisions/kit.json',
          packetSha256: wanted.packetSha256,
        };
      default:
        return null;
    }
  };
}

const council = (v: unknown) => v as CouncilView;

/** Every role of the round speaks; the kit looks before the tick that closes (and reveals) it. */
function round(decide: (t: CastTurn) => unknown, n: number): CastStep[] {
  return [
    { kind: 'play', seats: ROLE_SEATS, decide, until: (v) => council(v).waitingFor.length === 0 },
    { kind: 'checkpoint', name: `round ${n} sealed` },
    { kind: 'advance' },
  ];
}

export const councilCast: Cast = {
  protocol: 'council',
  room: ({ now }: { marks: CastMarks; now: number }) => {
    const decide = turnFor(now);
    return {
      title: 'privacy kit: a council',
      config: {
        question: 'Should the nightly batch move to an event pipeline?',
        roster: ROLES.map((role) => ({ role, provider: 'remote', model: 'remote', scripted: false })),
        stageWindowMs: 60_000,
      },
      steps: [
        { kind: 'advance' },
        ...round(decide, 1),
        ...round(decide, 2),
        ...round(decide, 3),
        {
          kind: 'play',
          seats: [...ROLE_SEATS, 'operator'],
          decide,
          advance: true,
          until: (v) => council(v).status !== 'running',
        },
      ],
    };
  },
};
