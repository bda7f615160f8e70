import type { Cast, CastSecret, CastTurn } from '@db8/core';
import type { LegalTableAction, TableView } from './view.ts';

/**
 * The privacy kit's poker table (`Cast`, packages/core/src/protocol/cast.ts): three seats play one
 * hand, checking or calling to the showdown. The secrets are the hole cards the deck deals, so the
 * checkpoints name them (every wire form: `"Ah"` in a view, `"AhKd"` in seed 002's compact frames);
 * each may reach only its own seat until the hand shows them down and the deck is revealed.
 */

const holeCards = (adminView: unknown): CastSecret[] =>
  (adminView as TableView).seats.flatMap((s) =>
    s.hole && !s.hole.includes('??')
      ? [
          {
            label: `seat_${s.seat}'s hole cards`,
            forms: [...s.hole.map((c) => `"${c}"`), `"${s.hole.join('')}"`],
          },
        ]
      : [],
  );

/** Check when it is free, else call: the hand reaches the showdown. */
function checkOrCall({ legal }: CastTurn) {
  const kinds = (legal.actions as LegalTableAction[]).map((a) => a.kind);
  if (kinds.includes('check')) return { kind: 'check', turnToken: legal.turnToken };
  if (kinds.includes('call')) return { kind: 'call', turnToken: legal.turnToken };
  return null;
}

const SEATS = ['seat_0', 'seat_1', 'seat_2'];
const street = (v: unknown) => (v as TableView).hand?.street ?? null;

export const pokerCast: Cast = {
  protocol: 'poker',
  room: () => ({
    title: 'privacy kit: one hand',
    config: {
      seats: 3,
      smallBlind: 5,
      bigBlind: 10,
      startingStack: 1000,
      actionTimeoutMs: 60_000,
      handIntervalMs: 0,
      maxHands: 1,
      minPlayers: 3,
    },
    steps: [
      ...SEATS.map((seat) => ({ kind: 'act' as const, seat, action: { kind: 'sitIn' } })),
      { kind: 'checkpoint', name: 'preflop', secrets: holeCards },
      { kind: 'play', seats: SEATS, decide: checkOrCall, until: (v) => street(v) !== 'preflop' },
      { kind: 'checkpoint', name: 'flop', secrets: holeCards },
      {
        kind: 'play',
        seats: SEATS,
        decide: checkOrCall,
        until: (v) => (v as TableView).status === 'stopped',
      },
    ],
  }),
};
