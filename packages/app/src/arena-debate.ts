// The debate game of `db8 arena run`: one debate room per match, its debaters the match's entrants
// in seat order (anon_1, anon_2, …), its fact-checker and judge house seats that apply fixed rules
// (packages/protocols/debate/agent/strategies.ts), placed by the protocol's total score. Scripted
// entrants play a strategy; model entrants write their submissions through a provider profile, with
// the prompts and schemas of the debate's own model driver (server/agent.ts). The placements are
// read from the room's recorded result (arena-scoring.ts) — what `db8 arena verify` and the web's
// badge recompute from the refolded log.

import type { Provider } from '@db8/agents';
import { DEBATE_DEFAULT_WINDOW_MS, type Entrant } from '@db8/arena';
import { CostMeter } from '@db8/arena/cli/cost.ts';
import { type Game, playsOutside, waitFor } from '@db8/arena/cli/game.ts';
import {
  type DebateConfigInput,
  type DebateView,
  debate,
  debaterSeat,
  debateSeats,
  type LegalAction,
} from '@db8/debate';
import { DEBATE_STRATEGIES, type DebateStrategy, houseDecisions, strategyDecisions } from '@db8/debate/agent';
import { debateScript } from '@db8/debate/server/scripted.ts';
import type { ModelProviders } from './arena-models.ts';
import { debateScoring } from './arena-scoring.ts';

/** What one debater seat is played by. */
type Player =
  | { kind: 'scripted'; strategy: DebateStrategy }
  | { kind: 'model'; provider: Provider }
  // An outside agent or a person: plays its seat through the room's API; the server waits for it.
  | { kind: 'outside' };

const int = (v: unknown, fallback: number) =>
  typeof v === 'number' && Number.isSafeInteger(v) ? v : fallback;

// Windows on the room's own clock: nobody waits for them (the runner ticks at each deadline once
// every seat has acted), they only bound the phases in the log — except with an outside seat, whose
// silence each debater phase waits out in real time (`gameConfig.windowMs`, validated by the rules).
const timings = (windowMs: number) => ({
  research_ms: 0,
  submit_ms: windowMs,
  verify_ms: windowMs,
  continue_vote_ms: windowMs,
  final_submit_ms: windowMs,
  final_vote_ms: windowMs,
  results_ms: 1_000,
  reveal_ms: 1_000,
});

export function debateGame(models: ModelProviders): Game {
  return {
    protocol: debate,
    strategies: DEBATE_STRATEGIES,
    models: true,
    outside: true,
    seat: (i) => debaterSeat(i + 1),
    // The debate unmasks its seats in its results: until then its page names nobody (docs/arena.md).
    seatsMaskedUntilClose: true,
    config: (arena, match): DebateConfigInput => ({
      topic:
        typeof arena.gameConfig.topic === 'string'
          ? arena.gameConfig.topic
          : 'This house would make every public record machine-readable',
      debaters: match.entrants.length,
      judges: 1,
      viewers: 0,
      // Argument rounds before the closing round (default one).
      max_rounds: Math.min(20, Math.max(1, int(arena.gameConfig.rounds, 1))),
      final_voters: ['judge'],
      placement: 'score',
      timings: timings(int(arena.gameConfig.windowMs, DEBATE_DEFAULT_WINDOW_MS)),
    }),
    async play(room, arena, match, pause, meter = new CostMeter()) {
      const roomId = room.id;
      const live = match.entrants.some((name) => playsOutside(arena, name));
      const players = await Promise.all(
        match.entrants.map(async (name): Promise<Player> => {
          const e = arena.entrants.find((x) => x.name === name) as Entrant;
          if (playsOutside(arena, name)) return { kind: 'outside' };
          if (e.kind === 'model')
            return { kind: 'model', provider: await models(e, debateScript, meter, roomId) };
          return {
            kind: 'scripted',
            strategy: (e.kind === 'scripted' ? e.strategy : 'silent') as DebateStrategy,
          };
        }),
      );
      const view0 = room.view({ kind: 'admin' }) as DebateView;
      const seats = debateSeats(view0.config).map((s) => s.id);
      const done = new Set<string>();
      while (!room.closed) {
        // Every seat decides on the same state (model seats are asked at once), then they act in
        // seat order: the log's order does not depend on which model answered first.
        const turns = await Promise.all(
          seats.map(async (seat) => {
            const legal = room.legal(seat).actions as LegalAction[];
            if (legal.length === 0) return { seat, entrant: null, actions: [] };
            const view = room.view({ kind: 'seat', seat }) as DebateView;
            const k = match.entrants.findIndex((_, j) => debaterSeat(j + 1) === seat);
            const player = players[k];
            const actions =
              player === undefined
                ? houseDecisions(seat, view, legal)
                : player.kind === 'outside'
                  ? []
                  : player.kind === 'scripted'
                    ? strategyDecisions(player.strategy, seat, view, legal, roomId)
                    : await modelDecisions(player.provider, seat, view, legal, roomId, done);
            return { seat, entrant: player?.kind === 'model' ? match.entrants[k]! : null, actions };
          }),
        );
        let acted = false;
        for (const { seat, entrant, actions } of turns)
          for (const d of actions) {
            if (done.has(`${seat} ${d.key}`)) continue;
            done.add(`${seat} ${d.key}`);
            // A model call that failed, or a submission the rules refuse: nothing is sent (the
            // round is forfeited at its deadline), counted as the entrant's fallback.
            if (d.action !== null && tryAct(room, seat, d.action, entrant !== null)) acted = true;
            else if (entrant !== null) meter.fallback(entrant);
          }
        // With an outside seat time is real: wait for its move or the window's end (live-room.ts).
        if (!acted && live && !room.closed) await waitFor(room);
        else if (!acted && !room.advance() && !room.closed)
          throw new Error(`debate ${match.id}: nothing to do and nothing due`);
        await pause();
      }
    },
    ...debateScoring,
  };
}

/**
 * A model's action that the rules refuse (too few citations, a claim without support…) is its own
 * mistake: the seat forfeits that step, as it would on a server. A house or scripted seat's refusal
 * is a bug and stops the run.
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

/**
 * A model seat's decisions, made with the debate driver's own prompts and schemas: each decision's
 * call runs once (a failed call submits nothing, and the deadline forfeits the slot).
 */
async function modelDecisions(
  provider: Provider,
  seat: string,
  view: DebateView,
  legal: readonly LegalAction[],
  roomId: string,
  done: ReadonlySet<string>,
): Promise<{ key: string; action: unknown | null }[]> {
  const { debateAgent } = await import('@db8/debate/server/agent.ts');
  const decisions = debateAgent({
    roomId,
    seat,
    role: view.you.role,
    view,
    legal: [...legal],
    turnToken: null,
    persona: null,
    now: view.phase_at,
  });
  const out: { key: string; action: unknown | null }[] = [];
  for (const d of decisions) {
    if (done.has(`${seat} ${d.key}`)) continue;
    const outcome = await d.run(provider, new AbortController().signal);
    // A failed call (null): the caller marks the key done all the same, so it is not asked again.
    out.push({ key: d.key, action: outcome.action });
  }
  return out;
}
