import type { Cast, CastTurn, Legal } from '@db8/core';
import { scriptedAction } from './scripted.ts';
import type { DeliberationView } from './view.ts';

/**
 * The privacy kit's deliberation (`Cast`, packages/core/src/protocol/cast.ts): a star — the
 * moderator `hub` and three spokes — through proposal (gated), critique, review and convergence,
 * every turn's text a marker. A spoke may read only its own turns and the hub's, the hub everyone's,
 * an outsider none while the session runs; the kit reads the room paused at the gate and at the end.
 */

const SEATS = ['hub', 'ana', 'ben', 'cai'];

const delib = (v: unknown) => v as DeliberationView;

function decide({ view, legal, marks }: CastTurn): unknown {
  return scriptedAction(delib(view), legal as Legal, {
    text: (c) => marks.text(`${c.seat} ${c.kind} r${c.round} ${c.phase} p${c.pass} ${c.step}`),
  });
}

export const deliberationCast: Cast = {
  protocol: 'deliberation',
  room: () => ({
    title: 'privacy kit: a star deliberation',
    config: {
      sessionId: 'delib_privacy_kit',
      topic: 'Design a rate limiter for the public API',
      seats: [
        { id: 'hub', role: 'moderator', score: 9 },
        { id: 'ana', role: 'architect', score: 8.5 },
        { id: 'ben', role: 'critic', score: 8 },
        { id: 'cai', role: 'reviewer', score: 7.5 },
      ].map((s) => ({ ...s, provider: 'remote', model: 'remote' })),
      topology: 'star',
      maxRounds: 1,
      phases: {
        dehallucination: { enabled: false },
        self_evolvement: { enabled: false },
        optimization: { enabled: false },
        adversarial: { enabled: false },
      },
      gates: { phases: ['proposal'] },
    },
    steps: [
      { kind: 'play', seats: SEATS, decide, advance: true, until: (v) => delib(v).status === 'paused' },
      { kind: 'checkpoint', name: 'paused at the proposal gate' },
      { kind: 'act', seat: 'operator', action: { type: 'approve', reason: 'go on' } },
      {
        kind: 'play',
        seats: SEATS,
        decide,
        advance: true,
        until: (v) => delib(v).status !== 'running' && delib(v).status !== 'paused',
      },
    ],
  }),
};
