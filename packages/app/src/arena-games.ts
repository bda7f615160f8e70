// The games `db8 arena run` plays locally (scripted entrants; debate also model entrants, in
// arena-debate.ts): the composition root joins the arena to the protocols it schedules (a protocol
// never imports another). Each opens a match room in core's LocalRoom, plays it to its close, and
// reads the placements back from the room's result — the same function `db8 arena verify` applies
// to a refolded match log.

import { type ArenaConfig, type Entrant, POKER_DEFAULT_BIG_BLIND } from '@db8/arena';
import { type Game, type Games, placeByScore } from '@db8/arena/cli/game.ts';
import { createRng } from '@db8/core';
import { gameStateOf, HOUSE, poker, type TableResult, type TableView } from '@db8/poker';
import { seededRand, strategyNamed } from '@db8/poker/agent/strategies.ts';
import { AUCTIONEER, bidderSeat, type Outcome, sealedBid } from '@db8/sealed-bid';
import { debateGame } from './arena-debate.ts';
import { type ModelSetup, modelProviders } from './arena-models.ts';

const int = (v: unknown, fallback: number) =>
  typeof v === 'number' && Number.isSafeInteger(v) ? v : fallback;

function strategyOf(arena: ArenaConfig, name: string): string {
  const e = arena.entrants.find((x) => x.name === name) as Entrant;
  return e.kind === 'scripted' ? e.strategy : '';
}

// ---------- poker: a table of `hands` hands; score = net chips ----------

const pokerGame: Game = {
  protocol: poker,
  strategies: ['random', 'tight', 'station'],
  config: (arena, match) => ({
    seats: match.entrants.length,
    smallBlind: int(arena.gameConfig.smallBlind, 5),
    bigBlind: int(arena.gameConfig.bigBlind, POKER_DEFAULT_BIG_BLIND),
    startingStack: int(arena.gameConfig.startingStack, 1000),
    handIntervalMs: 0,
    maxHands: int(arena.gameConfig.hands, 50),
    maxConsecutiveTimeouts: null,
  }),
  async play(room, arena, match, pause) {
    const seats = match.entrants.map((_, i) => `seat_${i}`);
    const agents = match.entrants.map((e, i) => ({
      strategy: strategyNamed(strategyOf(arena, e)),
      // Each seat's own stream, so a strategy's coin flips repeat with the deal they face.
      rand: seededRand(createRng(match.seed, `arena/agent/${i}`).nextU32()),
    }));
    for (const s of seats) room.must(s, { kind: 'sitIn' });
    let steps = 0;
    while (!room.closed) {
      const toAct = (room.view({ kind: 'admin' }) as TableView).hand?.toAct ?? null;
      if (toAct === null) {
        // Nothing to act on and nothing due (a seat is bust): the house stops the table.
        if (!room.advance()) room.must(HOUSE, { kind: 'stop' });
        continue;
      }
      const seat = seats[toAct]!;
      const view = room.view({ kind: 'seat', seat }) as TableView;
      const legal = room.legal(seat) as Parameters<typeof gameStateOf>[1];
      const d = agents[toAct]!.strategy.decide(gameStateOf(view, legal, null), agents[toAct]!.rand);
      room.must(seat, { kind: d.kind, ...(d.kind === 'raiseTo' ? { amount: d.amount } : {}) });
      if (++steps % 50 === 0) await pause();
    }
  },
  placements(result, match) {
    const r = result as TableResult;
    return placeByScore(
      match.entrants,
      match.entrants.map((_, i) => r.seats[i]?.net ?? 0),
    );
  },
  hands: (result) => (result as TableResult).hands,
};

// ---------- sealed-bid: private values from the match seed; score = the winner's surplus ----------

/** Bidder i's private value: drawn from the match seed, so a verifier recomputes it from the log's revealed seed. */
export function bidderValue(seed: string, i: number): number {
  return createRng(seed, `arena/value/${i}`).intRange(100, 1000);
}

const BIDS: Record<string, (value: number, bidders: number) => number> = {
  truthful: (v) => v,
  shade: (v, n) => Math.max(1, Math.round((v * (n - 1)) / n)),
  lowball: (v) => Math.max(1, Math.round(v / 3)),
};

const sealedBidGame: Game = {
  protocol: sealedBid,
  strategies: Object.keys(BIDS),
  config: (arena, match) => ({
    item: typeof arena.gameConfig.item === 'string' ? arena.gameConfig.item : 'a prize',
    bidders: match.entrants.length,
    reservePrice: 1,
    biddingWindowMs: 60_000,
    revealWindowMs: 60_000,
    rule: 'first-price',
  }),
  async play(room, arena, match) {
    const n = match.entrants.length;
    match.entrants.forEach((e, i) => {
      const bid = BIDS[strategyOf(arena, e)]!(bidderValue(match.seed, i), n);
      room.must(bidderSeat(i + 1), { type: 'bid', amount: bid });
    });
    room.advance();
    while (!room.closed) {
      const legal = room.legal(AUCTIONEER);
      if (legal.actions.length > 0) room.must(AUCTIONEER, { type: 'confirm' });
      else room.advance();
    }
  },
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

/** The games; model entrants play through `setup`'s provider profiles (default: $DB8_CONFIG or db8.config.json, and the environment). */
export function makeArenaGames(setup: ModelSetup = {}): Games {
  return { poker: pokerGame, 'sealed-bid': sealedBidGame, debate: debateGame(modelProviders(setup)) };
}

export const arenaGames: Games = makeArenaGames();
