import type { VotingMethod } from './config.ts';

/**
 * The six voting methods over ranked ballots. `candidates` come in tie-break order: when two
 * candidates tie, the earlier one wins (the protocol orders them by seat score, then by the room's
 * seeded lottery — no other randomness). A ballot ranks a subset of the candidates, best first; an
 * empty ranking abstains. A ranked candidate beats an unranked one; two unranked ones are level.
 *
 *   plurality   most first preferences.
 *   weighted    most first-preference weight (the protocol uses seat score × confidence).
 *   majority    a candidate with more than half the non-abstaining first preferences; otherwise a
 *               runoff between the top two (by first preferences) on the full rankings.
 *   borda       position i of m candidates earns m − 1 − i points; unranked earn 0.
 *   condorcet   the candidate who beats every other head to head; if a cycle leaves none, the
 *               best Copeland score (pairwise wins − losses).
 *   unanimous   the common first preference of every non-abstaining ballot, else no winner.
 */

export interface Ballot {
  voter: string;
  ranking: readonly string[];
  weight: number;
}

export interface Tally {
  winner: string | null;
  /** Per candidate: the score the method ranks by (counts, weight, points, Copeland score). */
  breakdown: Record<string, number>;
  /** True when the winner came from the tie-break order rather than the scores. */
  tieBroken: boolean;
  /** How the winner was found when the method has a fallback (`runoff`, `copeland`). */
  via: string | null;
}

function zeroes(candidates: readonly string[]): Record<string, number> {
  return Object.fromEntries(candidates.map((c) => [c, 0]));
}

/** The best by `score` (tie: earliest in `candidates`), and whether a tie decided it. */
function best(
  candidates: readonly string[],
  score: Record<string, number>,
): { id: string | null; tie: boolean } {
  let id: string | null = null;
  for (const c of candidates) if (id === null || (score[c] ?? 0) > (score[id] ?? 0)) id = c;
  if (id === null) return { id, tie: false };
  const top = score[id] ?? 0;
  return { id, tie: candidates.filter((c) => (score[c] ?? 0) === top).length > 1 };
}

function firsts(candidates: readonly string[], ballots: readonly Ballot[], weighted: boolean) {
  const s = zeroes(candidates);
  for (const b of ballots) {
    const f = b.ranking[0];
    if (f !== undefined && f in s) s[f] = (s[f] ?? 0) + (weighted ? b.weight : 1);
  }
  return s;
}

/** +1 when the ballot prefers a to b, −1 when b to a, 0 when level. */
function prefers(b: Ballot, x: string, y: string): number {
  const i = b.ranking.indexOf(x);
  const j = b.ranking.indexOf(y);
  if (i === j) return 0;
  if (i === -1) return -1;
  if (j === -1) return 1;
  return i < j ? 1 : -1;
}

function headToHead(ballots: readonly Ballot[], x: string, y: string): number {
  return ballots.reduce((s, b) => s + prefers(b, x, y), 0);
}

export function tally(
  method: VotingMethod,
  ballots: readonly Ballot[],
  candidates: readonly string[],
): Tally {
  const voting = ballots.filter((b) => b.ranking.length > 0);
  const none: Tally = { winner: null, breakdown: zeroes(candidates), tieBroken: false, via: null };
  if (candidates.length === 0 || voting.length === 0) return none;
  switch (method) {
    case 'plurality':
    case 'weighted': {
      const breakdown = firsts(candidates, voting, method === 'weighted');
      const b = best(candidates, breakdown);
      return { winner: b.id, breakdown, tieBroken: b.tie, via: null };
    }
    case 'majority': {
      const breakdown = firsts(candidates, voting, false);
      const b = best(candidates, breakdown);
      if ((breakdown[b.id!] ?? 0) * 2 > voting.length)
        return { winner: b.id, breakdown, tieBroken: false, via: null };
      const first = b.id!;
      const second = best(
        candidates.filter((c) => c !== first),
        breakdown,
      ).id;
      if (second === null) return { winner: first, breakdown, tieBroken: b.tie, via: null };
      const margin = headToHead(voting, first, second);
      // `first` precedes `second` in the tie-break order only if it did in `candidates`.
      const firstEarlier = candidates.indexOf(first) < candidates.indexOf(second);
      const winner = margin > 0 ? first : margin < 0 ? second : firstEarlier ? first : second;
      return { winner, breakdown, tieBroken: margin === 0, via: 'runoff' };
    }
    case 'borda': {
      const m = candidates.length;
      const breakdown = zeroes(candidates);
      for (const b of voting)
        b.ranking.forEach((c, i) => {
          if (c in breakdown) breakdown[c] = (breakdown[c] ?? 0) + (m - 1 - i);
        });
      const w = best(candidates, breakdown);
      return { winner: w.id, breakdown, tieBroken: w.tie, via: null };
    }
    case 'condorcet': {
      const breakdown = zeroes(candidates);
      let beatsAll: string | null = null;
      for (const x of candidates) {
        let wins = 0;
        for (const y of candidates) {
          if (x === y) continue;
          const h = headToHead(voting, x, y);
          breakdown[x] = (breakdown[x] ?? 0) + Math.sign(h);
          if (h > 0) wins++;
        }
        if (wins === candidates.length - 1 && beatsAll === null) beatsAll = x;
      }
      if (beatsAll !== null) return { winner: beatsAll, breakdown, tieBroken: false, via: null };
      const w = best(candidates, breakdown);
      return { winner: w.id, breakdown, tieBroken: w.tie, via: 'copeland' };
    }
    case 'unanimous': {
      const breakdown = firsts(candidates, voting, false);
      const f = voting[0]!.ranking[0]!;
      const all = voting.every((b) => b.ranking[0] === f) && f in breakdown;
      return { winner: all ? f : null, breakdown, tieBroken: false, via: null };
    }
  }
}
