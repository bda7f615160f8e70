import { cardCode, evaluateCards, type GameStatePayload, handCategory } from '../rules/index.ts';

/**
 * Reference poker agents: pure decision functions of one `game_state` (the seat to act's snapshot)
 * and a seeded random source. They never see more than the wire gives them.
 */

export type Decision = { kind: 'fold' | 'check' | 'call' | 'raiseTo'; amount?: number };
export type Rand = () => number;

export interface PokerStrategy {
  name: string;
  decide(gs: GameStatePayload, rand: Rand): Decision;
}

/** mulberry32: a small seeded PRNG, so a simulation's agents are reproducible from its seed. */
export function seededRand(seed: number): Rand {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const has = (gs: GameStatePayload, kind: string) => gs.legal_actions?.some((a) => a.kind === kind) ?? false;

/** check if free, else call: always a legal move for the seat to act. */
function passive(gs: GameStatePayload): Decision {
  return has(gs, 'check') ? { kind: 'check' } : { kind: 'call' };
}

function raiseTo(gs: GameStatePayload, target: number): Decision {
  const min = gs.min_raise_to;
  const max = gs.max_raise_to;
  if (min === undefined || max === undefined) return passive(gs);
  return { kind: 'raiseTo', amount: Math.max(min, Math.min(max, Math.round(target))) };
}

function foldOrCheck(gs: GameStatePayload): Decision {
  return has(gs, 'check') ? { kind: 'check' } : { kind: 'fold' };
}

/** Any legal move, uniformly by kind; raise sizes lean small (min + r² of the range). */
export const randomAgent: PokerStrategy = {
  name: 'random',
  decide(gs, rand) {
    const legal = gs.legal_actions ?? [];
    const pick = legal[Math.floor(rand() * legal.length)];
    if (!pick) return passive(gs);
    if (pick.kind === 'raiseTo') {
      const r = rand();
      return { kind: 'raiseTo', amount: pick.min + Math.floor(r * r * (pick.max - pick.min)) };
    }
    return { kind: pick.kind };
  },
};

/** Never folds, never raises: checks when it can and calls everything else. */
export const callingStation: PokerStrategy = {
  name: 'station',
  decide: (gs) => passive(gs),
};

const RANK = '23456789TJQKA';

/** Bill Chen's pre-flop score (−1 … 20), from the two hole cards. */
export function chenScore(hole: readonly string[]): number {
  const [a, b] = hole;
  if (!a || !b) return 0;
  const ra = RANK.indexOf(a[0]!);
  const rb = RANK.indexOf(b[0]!);
  const hi = Math.max(ra, rb);
  const lo = Math.min(ra, rb);
  const points = (r: number) => (r === 12 ? 10 : r === 11 ? 8 : r === 10 ? 7 : r === 9 ? 6 : (r + 2) / 2);
  if (hi === lo) return Math.max(5, points(hi) * 2);
  let score = points(hi);
  if (a[1] === b[1]) score += 2;
  const gap = hi - lo - 1;
  score -= gap === 0 ? 0 : gap === 1 ? 1 : gap === 2 ? 2 : gap === 3 ? 4 : 5;
  if (gap <= 1 && hi < 10) score += 1;
  return Math.ceil(score);
}

/**
 * Tight: plays few hands pre-flop (Chen score ≥ 8 to open, ≥ 10 to call a raise, ≥ 12 to
 * re-raise), then bets made hands from two pair up, calls with a pair when the price is at most half
 * the pot, and otherwise checks or folds. Uses the engine's 7-card evaluator.
 */
export const tightAgent: PokerStrategy = {
  name: 'tight',
  decide(gs, rand) {
    const hole = gs.your_hole ?? [];
    const bb = gs.blinds.big;
    const toCall = gs.amount_to_call ?? 0;
    const myBet = gs.seats.find((s) => s.seat_id === gs.your_seat)?.bet ?? 0;
    const topBet = myBet + toCall;
    if (gs.street === 'preflop') {
      const score = chenScore(hole);
      const raised = topBet > bb;
      if (score >= 12) return raiseTo(gs, raised ? topBet * 3 : bb * 3);
      if (!raised && score >= 8) return raiseTo(gs, bb * 3);
      if (raised && score >= 10) return passive(gs);
      if (!raised && score >= 6 && toCall <= bb / 2) return passive(gs);
      return foldOrCheck(gs);
    }
    const cards = [...hole, ...gs.board].filter((c) => cardCode(c) >= 0);
    if (cards.length < 5) return foldOrCheck(gs);
    const category = handCategory(evaluateCards(cards));
    const strong = category !== 'High Card' && category !== 'Pair';
    if (strong) return raiseTo(gs, topBet + Math.max(bb, Math.round(gs.pot * (0.6 + 0.3 * rand()))));
    if (category === 'Pair' && toCall * 2 <= gs.pot) return passive(gs);
    return foldOrCheck(gs);
  },
};

export const STRATEGIES: Readonly<Record<string, PokerStrategy>> = {
  random: randomAgent,
  tight: tightAgent,
  station: callingStation,
  'calling-station': callingStation,
};

export function strategyNamed(name: string): PokerStrategy {
  const s = STRATEGIES[name];
  if (!s) throw new Error(`unknown poker agent ${name} (known: ${Object.keys(STRATEGIES).join(', ')})`);
  return s;
}
