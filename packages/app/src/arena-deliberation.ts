// The deliberation game of `db8 arena run` and of server-run tournaments: one deliberation room per
// match whose proposers are the match's entrants in seat order (proposer_1, proposer_2, …) and whose
// only voter is a house judge seat that applies a fixed, identity-blind rule
// (packages/protocols/deliberation/agent/strategies.ts). Entrants hold seat score 0, so even a ballot
// of theirs would weigh nothing under weighted voting, and the convergence phase takes the judge's
// role only (`requiredRoles`), so they are never asked to vote. Placements are read from the room's
// recorded result (arena-scoring.ts) — what `db8 arena verify` and the web's badge recompute.

import type { Entrant } from '@db8/arena';
import { type Game, playsOutside } from '@db8/arena/cli/game.ts';
import { type DeliberationView, deliberation } from '@db8/deliberation';
import {
  DELIBERATION_STRATEGIES,
  type DeliberationStrategy,
  houseAction,
  pointsPrompt,
  strategyAction,
} from '@db8/deliberation/agent/strategies.ts';
import { deliberationScoring, HOUSE_JUDGE, proposerSeat } from './arena-scoring.ts';

/** Each phase's window (plan, proposal, convergence), on the room's own clock. */
const PHASE_MS = 60_000;

/** The checklist when the spec gives none (`gameConfig.points`). */
export const DEFAULT_POINTS = ['burst limits', 'per key quotas', 'retry after header', 'fair sharing'];
const DEFAULT_TOPIC = 'Design rate limiting for a public HTTP API';

export function deliberationGame(): Game {
  return {
    protocol: deliberation,
    strategies: DELIBERATION_STRATEGIES,
    seat: (i) => proposerSeat(i),
    config: (arena, match) => {
      const points = Array.isArray(arena.gameConfig.points)
        ? arena.gameConfig.points.filter((p): p is string => typeof p === 'string')
        : DEFAULT_POINTS;
      const off = { enabled: false };
      return {
        sessionId: match.id.replace(/[^A-Za-z0-9_-]/g, '-'),
        topic: typeof arena.gameConfig.topic === 'string' ? arena.gameConfig.topic : DEFAULT_TOPIC,
        seats: [
          // The entrants: they propose and weigh nothing (score 0).
          ...match.entrants.map((_, i) => ({
            id: proposerSeat(i),
            role: 'proposer' as const,
            provider: 'arena',
            model: 'entrant',
            score: 0,
            specialization: null,
          })),
          // The house: the star's hub (the best moderator), the only voter.
          {
            id: HOUSE_JUDGE,
            role: 'moderator' as const,
            provider: 'arena',
            model: 'house',
            score: 10,
            specialization: null,
          },
        ],
        maxRounds: 1,
        // Windows on the room's own clock: the runner ticks at a deadline only when a seat is silent.
        timeoutMs: PHASE_MS * 10,
        phaseTimeoutMs: PHASE_MS,
        minConsensus: 0,
        earlyStop: true,
        phases: {
          dehallucination: off,
          self_evolvement: off,
          critique: off,
          review: off,
          optimization: off,
          adversarial: off,
          proposal: { requiredRoles: ['proposer'], minResponses: 0, prompt: pointsPrompt(points) },
          convergence: { requiredRoles: ['moderator'], minResponses: 1 },
        },
        // A star: the judge (hub) reads every proposal, a proposer reads only the hub — so no
        // entrant reads another's proposal before the end.
        topology: 'star',
        // Each proposer plans its own part: no entrant plans for another.
        coordination: 'dpde',
        voting: 'weighted',
      };
    },
    async play(room, arena, match, pause) {
      const strategies = match.entrants.map((name) => {
        const e = arena.entrants.find((x) => x.name === name) as Entrant;
        if (playsOutside(arena, name) || e.kind !== 'scripted')
          throw new Error(`deliberation ${match.id}: entrant ${name} is not scripted`);
        return e.strategy as DeliberationStrategy;
      });
      const seats = [...match.entrants.map((_, i) => proposerSeat(i)), HOUSE_JUDGE];
      while (!room.closed) {
        // Every seat decides on the same state, then they act in seat order.
        const turns = seats.map((seat, i) => {
          const legal = room.legal(seat);
          if (!legal.turnToken) return null;
          const view = room.view({ kind: 'seat', seat }) as DeliberationView;
          const action =
            i < strategies.length ? strategyAction(strategies[i]!, view, legal) : houseAction(view, legal);
          return action === null ? null : { seat, action };
        });
        let acted = false;
        for (const t of turns)
          if (t) {
            room.must(t.seat, t.action);
            acted = true;
          }
        // A silent seat: its window's end writes its failed turn.
        if (!acted && !room.advance() && !room.closed)
          throw new Error(`deliberation ${match.id}: nothing to do and nothing due`);
        await pause();
      }
    },
    ...deliberationScoring,
  };
}
