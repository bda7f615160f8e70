// Side pots by contribution layers, and splitting them with the odd-chip rule.
import type { Pot } from './state.ts';

type Layer = { amount: number; eligible: number[] };

/**
 * Layers the live (non-ante) contributions: each distinct contribution level starts a pot that every
 * contributor at that level pays into, claimable by the seats at that level that have not folded.
 * Folded chips stay in the layers they reached (dead money). Antes are dead money in the main pot.
 * Adjacent layers with the same claimants are one pot (this matters for odd chips).
 */
export function buildPots(
  committed: readonly number[],
  antes: readonly number[],
  folded: readonly boolean[],
): Layer[] {
  const n = committed.length;
  const levels = Array.from(new Set(committed)).sort((a, b) => a - b);
  const pots: Layer[] = [];
  let carry = 0;
  for (const a of antes) carry += a;
  let previous = 0;
  for (const level of levels) {
    let amount = carry;
    carry = 0;
    const eligible: number[] = [];
    for (let i = 0; i < n; i++) {
      const c = committed[i]!;
      if (c >= level) {
        amount += level - previous;
        if (!folded[i]) eligible.push(i);
      }
    }
    previous = level;
    const last = pots[pots.length - 1];
    if (last && sameSeats(last.eligible, eligible)) last.amount += amount;
    else if (amount > 0) pots.push({ amount, eligible });
  }
  return pots;
}

function sameSeats(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Splits `amount` among `winners` (seat order = clockwise from the button's left, so ascending seats).
 * Everyone gets the same number of whole `unit`s; the units left over go one each to the first winners,
 * and anything smaller than a unit goes to the first winner.
 */
export function splitPot(amount: number, winners: readonly number[], unit: number): number[] {
  const k = winners.length;
  const units = Math.floor(amount / unit);
  const each = Math.floor(units / k);
  const oddUnits = units - each * k;
  const below = amount - units * unit;
  return winners.map((_, j) => each * unit + (j < oddUnits ? unit : 0) + (j === 0 ? below : 0));
}

/**
 * Awards each pot to its best hand. `strength[i]` is a hand value, -1 when seat i's hand is unknown
 * (PHH '????') or cannot be formed, -2 when it was mucked. Equal best strengths split, so a pot whose
 * claimants are all unknown (as in PokerKit) or all mucked is split among them. A pot with no claimant
 * at all cannot arise from play; if given one, it falls to the pot below so no chip is lost.
 */
export function awardPots(
  layers: readonly Layer[],
  strength: readonly number[],
  unit: number,
): { pots: Pot[]; winnings: number[] } {
  const winnings = new Array<number>(strength.length).fill(0);
  const pots: Pot[] = [];
  const queue = layers.map((l) => ({ amount: l.amount, eligible: l.eligible }));
  for (let p = queue.length - 1; p >= 0; p--) {
    const layer = queue[p]!;
    if (layer.eligible.length === 0) {
      const below = queue[p - 1];
      if (below) below.amount += layer.amount;
      continue;
    }
    let best = Number.NEGATIVE_INFINITY;
    for (const i of layer.eligible) if (strength[i]! > best) best = strength[i]!;
    const winners = layer.eligible.filter((i) => strength[i] === best);
    const shares = splitPot(layer.amount, winners, unit);
    winners.forEach((w, j) => {
      winnings[w]! += shares[j]!;
    });
    pots.unshift({ amount: layer.amount, eligible: layer.eligible, winners, shares });
  }
  return { pots, winnings };
}
