// How each game's match result places its entrants: pure functions of a room's recorded result and
// the match (no node: imports, no providers), so one copy serves `db8 arena run` (arena-games.ts,
// arena-debate.ts read the placements of the room they played), `db8 arena verify` and the
// tournament page's "verified" badge, which recomputes them in the browser from each refolded
// match log (web/modules.ts hands them to the arena's web module: a protocol never imports another).

import { placeByScore } from '@db8/arena/cli/game.ts';
import type { GameCheck } from '@db8/arena/rules/verify-bundles.ts';
import { createRng } from '@db8/core';
import { type DebateResult, debaterSeat } from '@db8/debate';
import type { DeliberationResult } from '@db8/deliberation';
import type { TableResult } from '@db8/poker';
import { bidderSeat, type Outcome } from '@db8/sealed-bid';

/** A game's scoring: its placements (and, for games scored per hand, its hand count). */
export type GameScoring = Required<Pick<GameCheck, 'placements'>> & Pick<GameCheck, 'hands'>;

/** Bidder i's private value: drawn from the match seed, so a verifier recomputes it from the log's revealed seed. */
export function bidderValue(seed: string, i: number): number {
  return createRng(seed, `arena/value/${i}`).intRange(100, 1000);
}

/** Poker: score = net chips over the table's hands. */
export const pokerScoring: GameScoring = {
  placements(result, match) {
    const r = result as TableResult;
    return placeByScore(
      match.entrants,
      match.entrants.map((_, i) => r.seats[i]?.net ?? 0),
    );
  },
  hands: (result) => (result as TableResult).hands,
};

/** Sealed-bid: score = the winner's surplus (its private value less the price), 0 for the others. */
export const sealedBidScoring: GameScoring = {
  placements(result, match) {
    const o = result as Outcome;
    return placeByScore(
      match.entrants,
      match.entrants.map((_, i) =>
        o.winner === bidderSeat(i + 1) && o.price !== null ? bidderValue(match.seed, i) - o.price : 0,
      ),
    );
  },
};

/** Debate: the protocol's own placements, scored by its total in hundredths (it rounds to two decimals). */
export const debateScoring: GameScoring = {
  placements(result, match) {
    const r = result as DebateResult;
    return match.entrants.map((entrant, i) => {
      const p = r.placements.find((x) => x.seat === debaterSeat(i + 1))!;
      return { entrant, place: p.place, score: Math.round(p.total * 100) };
    });
  },
};

/** A deliberation match's proposer seat of the match's i-th entrant, and its house judge seat. */
export const proposerSeat = (i: number) => `proposer_${i + 1}`;
export const HOUSE_JUDGE = 'house_judge';

/**
 * Deliberation: the protocol's own vote (weighted: seat score × confidence, first preferences), as
 * its outcome's `voteBreakdown` records it, in hundredths; entrants weigh nothing, so it is the
 * house judge's weight (arena-deliberation.ts). No outcome (a failed session): everyone level.
 */
export const deliberationScoring: GameScoring = {
  placements(result, match) {
    const breakdown = (result as DeliberationResult).outcome?.voteBreakdown ?? {};
    return placeByScore(
      match.entrants,
      match.entrants.map((_, i) => Math.round((breakdown[proposerSeat(i)] ?? 0) * 100)),
    );
  },
};

/** Every game's scoring by protocol name. */
export const arenaScoring: Readonly<Record<string, GameScoring>> = {
  poker: pokerScoring,
  'sealed-bid': sealedBidScoring,
  debate: debateScoring,
  deliberation: deliberationScoring,
};
