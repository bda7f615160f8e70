import { createRng, toHex } from '@db8/core';
import type { ArenaConfig } from './config.ts';
import type { Match } from './state.ts';

/**
 * The schedule as a pure function of the config (and, for Swiss, the standings so far): which
 * entrants meet, in which seat order, under which seed. The organizer's schedule entries must equal
 * it, so anyone refolding the log can tell the draw was not hand-picked.
 */

/** A match seed: 32 bytes of the tournament seed's generator under the match's own label. */
export function matchSeed(config: ArenaConfig, label: string): string {
  return toHex(createRng(config.seed, `arena/match/${label}`).bytes(32));
}

/** How many rounds the format has. */
export function roundCount(config: ArenaConfig): number {
  return config.format.kind === 'swiss' ? config.format.rounds : 1;
}

/** Every k-subset of 0..n-1, in lexicographic order. */
export function combinations(n: number, k: number): number[][] {
  const out: number[][] = [];
  const pick = (start: number, acc: number[]) => {
    if (acc.length === k) {
      out.push([...acc]);
      return;
    }
    for (let i = start; i <= n - (k - acc.length); i++) pick(i + 1, [...acc, i]);
  };
  pick(0, []);
  return out;
}

function rotate<T>(xs: readonly T[], by: number): T[] {
  const r = ((by % xs.length) + xs.length) % xs.length;
  return [...xs.slice(r), ...xs.slice(0, r)];
}

/** Round robin: each group `games` times, the seat order rotated one place each time. */
export function roundRobin(config: ArenaConfig, games: number): Match[] {
  const names = config.entrants.map((e) => e.name);
  const out: Match[] = [];
  for (const group of combinations(names.length, config.seatsPerMatch)) {
    for (let g = 0; g < games; g++) {
      const id = `m${out.length + 1}`;
      out.push({
        id,
        round: 1,
        set: id,
        entrants: rotate(group, g).map((i) => names[i]!),
        seed: matchSeed(config, id),
      });
    }
  }
  return out;
}

/**
 * Duplicate poker: per group and deal, one seed played once per rotation of the seats. The deck of
 * hand h is the seed's, so the entrant in seat s of rotation r holds what seat s held in every
 * other rotation: over a set each entrant plays every seat's cards once.
 */
export function duplicateSets(config: ArenaConfig, deals: number): Match[] {
  const names = config.entrants.map((e) => e.name);
  const k = config.seatsPerMatch;
  const out: Match[] = [];
  let set = 0;
  for (const group of combinations(names.length, k)) {
    for (let d = 0; d < deals; d++) {
      set++;
      const seed = matchSeed(config, `s${set}`);
      for (let r = 0; r < k; r++)
        out.push({
          id: `s${set}-r${r + 1}`,
          round: 1,
          set: `s${set}`,
          entrants: rotate(group, r).map((i) => names[i]!),
          seed,
        });
    }
  }
  return out;
}

/** What Swiss pairing needs from the standings so far. */
export interface SwissRow {
  name: string;
  points: number;
  score: number;
}

/**
 * A Swiss round: entrants ordered by points, then score, then entry order; the lowest-ranked who
 * have not had a bye sit out when the field does not divide into full matches; the rest are
 * grouped top-down, each group filled with the highest-ranked entrants none of its members has met
 * (a depth-first search, so a repeat happens only when no grouping avoids every one). Seat order is
 * ranking order.
 */
export function swissRound(
  config: ArenaConfig,
  round: number,
  table: readonly SwissRow[],
  met: ReadonlySet<string>,
  byes: ReadonlySet<string>,
): { matches: Match[]; byes: string[] } {
  const k = config.seatsPerMatch;
  const order = config.entrants.map((e) => e.name);
  const ranked = [...table].sort(
    (a, b) => b.points - a.points || b.score - a.score || order.indexOf(a.name) - order.indexOf(b.name),
  );
  const names = ranked.map((r) => r.name);
  const out = names.length % k;
  const bye: string[] = [];
  for (let i = names.length - 1; i >= 0 && bye.length < out; i--)
    if (!byes.has(names[i]!)) bye.push(names[i]!);
  for (let i = names.length - 1; i >= 0 && bye.length < out; i--)
    if (!bye.includes(names[i]!)) bye.push(names[i]!);
  const playing = names.filter((n) => !bye.includes(n));
  const groups = groupAvoiding(playing, k, met) ?? chunk(playing, k);
  const matches = groups.map((entrants, i) => {
    const id = `r${round}-m${i + 1}`;
    return { id, round, set: id, entrants, seed: matchSeed(config, id) };
  });
  return { matches, byes: bye };
}

export const pairKey = (a: string, b: string) => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);

function chunk<T>(xs: readonly T[], k: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += k) out.push(xs.slice(i, i + k));
  return out;
}

/** Bounded depth-first grouping with no pair that has met; null when none is found within the bound. */
function groupAvoiding(names: readonly string[], k: number, met: ReadonlySet<string>): string[][] | null {
  let budget = 200_000;
  const fresh = (group: readonly string[], n: string) => group.every((g) => !met.has(pairKey(g, n)));
  const solve = (left: readonly string[]): string[][] | null => {
    if (left.length === 0) return [];
    const [head, ...rest] = left;
    const fill = (group: string[], from: number): string[][] | null => {
      if (--budget < 0) return null;
      if (group.length === k) {
        const tail = solve(rest.filter((n) => !group.includes(n)));
        return tail ? [group, ...tail] : null;
      }
      for (let i = from; i < rest.length; i++) {
        const n = rest[i]!;
        if (!fresh(group, n)) continue;
        const found = fill([...group, n], i + 1);
        if (found) return found;
      }
      return null;
    };
    return fill([head!], 0);
  };
  return solve(names);
}
