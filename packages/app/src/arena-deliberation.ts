// The deliberation game of `db8 arena run` and of server-run tournaments: one deliberation room per
// match whose proposers are the match's entrants in seat order (proposer_1, proposer_2, …) and whose
// only voter is a house judge seat that applies a fixed, identity-blind rule
// (packages/protocols/deliberation/agent/strategies.ts). Entrants hold seat score 0, so even a ballot
// of theirs would weigh nothing under weighted voting, and the convergence phase takes the judge's
// role only (`requiredRoles`), so they are never asked to vote. Placements are read from the room's
// recorded result (arena-scoring.ts) — what `db8 arena verify` and the web's badge recompute.
// On a server, outside and person entrants propose through the room's own API: their seats are
// left to them, and each step waits for them in real time up to its window (`gameConfig.windowMs`).

import type { Provider } from '@db8/agents';
import { type ArenaConfig, DELIBERATION_DEFAULT_WINDOW_MS, type Entrant } from '@db8/arena';
import { CostMeter } from '@db8/arena/cli/cost.ts';
import { type Game, playsOutside, waitFor } from '@db8/arena/cli/game.ts';
import { type DeliberationView, deliberation, type LegalAction } from '@db8/deliberation';
import {
  DELIBERATION_STRATEGIES,
  type DeliberationStrategy,
  houseAction,
  pointsPrompt,
  strategyAction,
} from '@db8/deliberation/agent/strategies.ts';
import type { ModelProviders } from './arena-models.ts';
import { deliberationScoring, HOUSE_JUDGE, proposerSeat } from './arena-scoring.ts';

/**
 * Each step's window (plan, proposal, convergence): on the room's own clock, which the runner jumps
 * once every seat it plays has acted — except with an outside seat, whose silence each step waits
 * out in real time (`gameConfig.windowMs`, checked by the arena's rules).
 */
const windowOf = (arena: ArenaConfig) => {
  const w = arena.gameConfig.windowMs;
  return typeof w === 'number' && Number.isSafeInteger(w) ? w : DELIBERATION_DEFAULT_WINDOW_MS;
};
/** The protocol's longest session (docs/deliberation.md): ten windows, a week at most. */
const SESSION_MAX_MS = 7 * 86_400_000;

/** The checklist when the spec gives none (`gameConfig.points`). */
export const DEFAULT_POINTS = ['burst limits', 'per key quotas', 'retry after header', 'fair sharing'];
const DEFAULT_TOPIC = 'Design rate limiting for a public HTTP API';

const pointsOf = (arena: ArenaConfig) =>
  Array.isArray(arena.gameConfig.points)
    ? arena.gameConfig.points.filter((p): p is string => typeof p === 'string')
    : DEFAULT_POINTS;
const topicOf = (arena: ArenaConfig) =>
  typeof arena.gameConfig.topic === 'string' ? arena.gameConfig.topic : DEFAULT_TOPIC;

export function deliberationGame(models: ModelProviders): Game {
  return {
    protocol: deliberation,
    strategies: DELIBERATION_STRATEGIES,
    models: true,
    outside: true,
    seat: (i) => proposerSeat(i),
    // What an outside proposer needs: the task, the checklist the judge scores by, and its window.
    // All of it is in the match room's public config too: nothing here is private.
    brief: (_match, _i, arena) => ({
      topic: topicOf(arena),
      points: pointsOf(arena),
      window_ms: windowOf(arena),
    }),
    config: (arena, match) => {
      const points = pointsOf(arena);
      const off = { enabled: false };
      const window = windowOf(arena);
      return {
        sessionId: match.id.replace(/[^A-Za-z0-9_-]/g, '-'),
        topic: topicOf(arena),
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
        // Windows on the room's own clock: the runner ticks at a deadline only when a seat is silent
        // (in real time with an outside seat). A match takes three steps: ten windows is ample.
        timeoutMs: Math.min(window * 10, SESSION_MAX_MS),
        phaseTimeoutMs: window,
        // Never reached (the judge's lone ballot makes 0.8): a match is no consensus of its seats,
        // so the server's deliberation module keeps no lesson from it (docs/deliberation.md#lessons).
        minConsensus: 1,
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
    async play(room, arena, match, pause, meter = new CostMeter()) {
      const live = match.entrants.some((name) => playsOutside(arena, name));
      const players = await Promise.all(
        match.entrants.map(async (name): Promise<Player> => {
          const e = arena.entrants.find((x) => x.name === name) as Entrant;
          if (playsOutside(arena, name)) return { kind: 'outside' };
          if (e.kind === 'model') {
            const { deliberationScript } = await import('@db8/deliberation/server/scripted.ts');
            return { kind: 'model', provider: await models(e, deliberationScript, meter, room.id) };
          }
          if (e.kind !== 'scripted')
            throw new Error(`deliberation ${match.id}: entrant ${name} plays no seat here`);
          return { kind: 'scripted', strategy: e.strategy as DeliberationStrategy };
        }),
      );
      const seats = [...match.entrants.map((_, i) => proposerSeat(i)), HOUSE_JUDGE];
      // The turns a model seat was asked for (by turn token): each is asked once; one it fails or
      // the rules refuse is left to the deadline.
      const asked = new Set<string>();
      while (!room.closed) {
        // Every seat decides on the same state (model seats are asked at once), then they act in
        // seat order: the log's order does not depend on which model answered first.
        const turns = await Promise.all(
          seats.map(async (seat, i) => {
            const legal = room.legal(seat);
            if (!legal.turnToken) return null;
            const view = room.view({ kind: 'seat', seat }) as DeliberationView;
            const player = players[i];
            if (player === undefined) return { seat, action: houseAction(view, legal), model: null };
            if (player.kind === 'outside') return null;
            if (player.kind === 'scripted')
              return { seat, action: strategyAction(player.strategy, view, legal), model: null };
            const key = `${seat} ${legal.turnToken}`;
            if (asked.has(key)) return null;
            asked.add(key);
            const entrant = match.entrants[i]!;
            const { playTurn } = await import('@db8/deliberation/server/turn.ts');
            const out = await playTurn(
              { seat, view, legal: legal.actions as LegalAction[] },
              player.provider,
            );
            // A failed call is sent as the protocol's recorded `failed` turn, and counted.
            if (out?.error) meter.fallback(entrant);
            return { seat, action: out?.action ?? null, model: entrant };
          }),
        );
        let acted = false;
        for (const t of turns) {
          if (!t || t.action === null) continue;
          if (tryAct(room, t.seat, t.action, t.model !== null)) acted = true;
          else if (t.model !== null) meter.fallback(t.model);
        }
        // A silent seat (or a model's refused turn): its window's end writes its failed turn. With an
        // outside seat time is real: wait for its turn or the window's end (live-room.ts).
        if (!acted && live && !room.closed) await waitFor(room);
        else if (!acted && !room.advance() && !room.closed)
          throw new Error(`deliberation ${match.id}: nothing to do and nothing due`);
        await pause();
      }
    },
    ...deliberationScoring,
  };
}

/** What one proposer seat is played by. */
type Player =
  | { kind: 'scripted'; strategy: DeliberationStrategy }
  | { kind: 'model'; provider: Provider }
  // An outside agent or a person: proposes through the room's API; the server waits for it.
  | { kind: 'outside' };

/**
 * A model's turn the rules refuse is its own mistake: the seat's deadline writes its failed turn, as
 * on a server. A house or scripted seat's refusal is a bug and stops the run.
 */
function tryAct(room: Parameters<Game['play']>[0], seat: string, action: unknown, model: boolean): boolean {
  try {
    room.must(seat, action);
    return true;
  } catch (e) {
    if (model) return false;
    throw e;
  }
}
