// The games `db8 arena run` plays locally (scripted and model entrants; debate in arena-debate.ts,
// poker's model seats in arena-poker-model.ts): the composition root joins the arena to the
// protocols it schedules (a protocol never imports another). Each opens a match room in core's
// LocalRoom, plays it to its close, and reads the placements back from the room's result — the
// same function (arena-scoring.ts) `db8 arena verify` and the web's badge apply to a refolded match log.

import {
  type ArenaConfig,
  type Entrant,
  type Match,
  POKER_DEFAULT_ACTION_WINDOW_MS,
  POKER_DEFAULT_BLINDS,
} from '@db8/arena';
import { CostMeter } from '@db8/arena/cli/cost.ts';
import { type Game, type Games, playsOutside, waitFor } from '@db8/arena/cli/game.ts';
import { createRng } from '@db8/core';
import { gameStateOf, HOUSE, poker, seatId, type TableView } from '@db8/poker';
import { seededRand, strategyNamed } from '@db8/poker/agent/strategies.ts';
import { pokerScript } from '@db8/poker/server/scripted.ts';
import { AUCTIONEER, bidderSeat, type SealedBidConfig, sealedBid } from '@db8/sealed-bid';
import { bidDecision, sealedBidScript } from '@db8/sealed-bid/server/agent.ts';
import { debateGame } from './arena-debate.ts';
import { deliberationGame } from './arena-deliberation.ts';
import { type ModelProviders, type ModelSetup, modelProviders } from './arena-models.ts';
import { modelPokerMove } from './arena-poker-model.ts';
import { bidderValue, pokerScoring, sealedBidScoring } from './arena-scoring.ts';

const int = (v: unknown, fallback: number) =>
  typeof v === 'number' && Number.isSafeInteger(v) ? v : fallback;

const entrantNamed = (arena: ArenaConfig, name: string) =>
  arena.entrants.find((x) => x.name === name) as Entrant;

function strategyOf(arena: ArenaConfig, name: string): string {
  const e = entrantNamed(arena, name);
  return e.kind === 'scripted' ? e.strategy : '';
}

// ---------- poker: a table of `hands` hands; score = net chips ----------

/** An outside seat's decision window (`gameConfig.actionWindowMs`, checked by the arena's rules). */
const actionWindow = (arena: ArenaConfig) =>
  int(arena.gameConfig.actionWindowMs, POKER_DEFAULT_ACTION_WINDOW_MS);

const pokerGame = (models: ModelProviders): Game => ({
  protocol: poker,
  strategies: ['random', 'tight', 'station'],
  models: true,
  outside: true,
  seat: seatId,
  // No cards: an outside seat reads its hole cards from its own view of the room, like any poker agent.
  // (A server-run duplicate never has an outside seat: the rules refuse it, config.ts.)
  brief: (_match, _i, arena) => ({
    hands: int(arena.gameConfig.hands, 50),
    action_window_ms: actionWindow(arena),
  }),
  config: (arena, match) => ({
    seats: match.entrants.length,
    smallBlind: int(arena.gameConfig.smallBlind, POKER_DEFAULT_BLINDS.smallBlind),
    bigBlind: int(arena.gameConfig.bigBlind, POKER_DEFAULT_BLINDS.bigBlind),
    startingStack: int(arena.gameConfig.startingStack, 1000),
    handIntervalMs: 0,
    maxHands: int(arena.gameConfig.hands, 50),
    // With an outside seat the table's own timeout rule applies in real time: a silent seat is
    // checked for when that is free, else folded, and sat out after three in a row (a table that
    // then cannot deal ends). The server's seats act at once, so without one nothing times out.
    ...(match.entrants.some((name) => playsOutside(arena, name))
      ? { actionTimeoutMs: actionWindow(arena), maxConsecutiveTimeouts: 3 }
      : { maxConsecutiveTimeouts: null }),
  }),
  async play(room, arena, match, pause, meter = new CostMeter()) {
    const seats = match.entrants.map((_, i) => seatId(i));
    // Outside and person seats bet through the room themselves; the server waits for them.
    const live = match.entrants.some((name) => playsOutside(arena, name));
    const agents = await Promise.all(
      match.entrants.map(async (name, i) => {
        const e = entrantNamed(arena, name);
        if (playsOutside(arena, name)) return { kind: 'outside' as const };
        if (e.kind === 'model')
          return { kind: 'model' as const, model: await models(e, pokerScript, meter, room.id) };
        return {
          kind: 'scripted' as const,
          strategy: strategyNamed(strategyOf(arena, name)),
          // Each seat's own stream, so a strategy's coin flips repeat with the deal they face.
          rand: seededRand(createRng(match.seed, `arena/agent/${i}`).nextU32()),
        };
      }),
    );
    // Every entrant is dealt in from the first hand, present or not (as a tournament table deals in
    // an absent player): the table's timeouts, not a missing sit-in, decide what an absent seat loses.
    for (const s of seats) room.must(s, { kind: 'sitIn' });
    let steps = 0;
    while (!room.closed) {
      const table = room.view({ kind: 'admin' }) as TableView;
      const toAct = table.hand?.toAct ?? null;
      if (toAct === null) {
        // Nothing to act on and nothing due (a seat is bust or sat out): the house stops the table.
        if (live) {
          if (table.deadline === null) room.must(HOUSE, { kind: 'stop' });
          else await waitFor(room); // the next deal, which the server's write makes
        } else if (!room.advance()) room.must(HOUSE, { kind: 'stop' });
        continue;
      }
      const seat = seats[toAct]!;
      const agent = agents[toAct]!;
      if (agent.kind === 'outside') {
        // Its move or its window's end (the table's timeout), in real time.
        await waitFor(room);
        continue;
      }
      if (agent.kind === 'model') {
        await modelPokerMove(room, seat, match.entrants[toAct]!, agent.model, meter);
        await pause();
        continue;
      }
      const view = room.view({ kind: 'seat', seat }) as TableView;
      const legal = room.legal(seat) as Parameters<typeof gameStateOf>[1];
      const d = agent.strategy.decide(gameStateOf(view, legal, null), agent.rand);
      room.must(seat, { kind: d.kind, ...(d.kind === 'raiseTo' ? { amount: d.amount } : {}) });
      if (++steps % 50 === 0) await pause();
    }
  },
  ...pokerScoring,
});

// ---------- sealed-bid: private values from the match seed; score = the winner's surplus ----------

export { bidderValue };

const BIDS: Record<string, (value: number, bidders: number) => number> = {
  truthful: (v) => v,
  shade: (v, n) => Math.max(1, Math.round((v * (n - 1)) / n)),
  lowball: (v) => Math.max(1, Math.round(v / 3)),
};

// The tie-break turn window is left to the schema's default (as before model bidders existed).
const auctionConfig = (arena: ArenaConfig, match: Match): Omit<SealedBidConfig, 'turnWindowMs'> => ({
  item: typeof arena.gameConfig.item === 'string' ? arena.gameConfig.item : 'a prize',
  bidders: match.entrants.length,
  reservePrice: 1,
  // A match with outside bidders waits this long for them in real time (bidding ends sooner once
  // every bidder has bid); the server's own bidders never wait it out.
  biddingWindowMs: int(arena.gameConfig.biddingWindowMs, 60_000),
  revealWindowMs: 60_000,
  rule: 'first-price',
});

const sealedBidGame = (models: ModelProviders): Game => ({
  protocol: sealedBid,
  strategies: Object.keys(BIDS),
  models: true,
  outside: true,
  seat: (i) => bidderSeat(i + 1),
  // An outside bidder's private value (the same draw a scripted bidder bids from).
  brief: (match, i) => ({ value: bidderValue(match.seed, i) }),
  config: auctionConfig,
  async play(room, arena, match, _pause, meter = new CostMeter()) {
    const n = match.entrants.length;
    // Outside and person bidders bid through the room themselves: their seats are left alone and
    // the server waits for them (or the bidding window) in real time.
    const live = match.entrants.some((name) => playsOutside(arena, name));
    // Model bidders are asked at once; every bid is then sent in seat order, so the log's order
    // does not depend on which model answered first.
    const bids = await Promise.all(
      match.entrants.map(async (name, i) => {
        const value = bidderValue(match.seed, i);
        const e = entrantNamed(arena, name);
        if (playsOutside(arena, name)) return { outside: true as const };
        if (e.kind !== 'model') return { bid: BIDS[strategyOf(arena, name)]!(value, n) };
        const provider = await models(e, sealedBidScript, meter, room.id);
        const { item, reservePrice, rule } = auctionConfig(arena, match);
        const ask = { item, value, bidders: n, rule, reservePrice };
        const out = await bidDecision(bidderSeat(i + 1), ask).run(provider, new AbortController().signal);
        return { model: out.action };
      }),
    );
    bids.forEach((b, i) => {
      const seat = bidderSeat(i + 1);
      if ('outside' in b) return;
      if ('bid' in b) room.must(seat, { type: 'bid', amount: b.bid });
      // A failed call or an illegal bid: the bidder does not bid (it cannot win, scores 0).
      else if (b.model === null || !tryMust(room, seat, b.model)) meter.fallback(match.entrants[i]!);
    });
    if (!live) room.advance();
    while (!room.closed) {
      const legal = room.legal(AUCTIONEER);
      if (legal.actions.length > 0) room.must(AUCTIONEER, { type: 'confirm' });
      else if (live) await waitFor(room);
      else room.advance();
    }
  },
  ...sealedBidScoring,
});

function tryMust(room: Parameters<Game['play']>[0], seat: string, action: unknown): boolean {
  try {
    room.must(seat, action);
    return true;
  } catch {
    return false;
  }
}

/**
 * The games; model entrants play through `setup`'s provider profiles (default: $DB8_CONFIG or
 * db8.config.json, and the environment), or through `models` when given (the server's, which
 * records every call: arena-server-models.ts).
 */
export function makeArenaGames(
  setup: ModelSetup = {},
  models: ModelProviders = modelProviders(setup),
): Games {
  return {
    poker: pokerGame(models),
    'sealed-bid': sealedBidGame(models),
    debate: debateGame(models),
    deliberation: deliberationGame(models),
  };
}

export const arenaGames: Games = makeArenaGames();
