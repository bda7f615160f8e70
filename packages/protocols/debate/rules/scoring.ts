import type { RubricCard, VerdictValue } from './actions.ts';
import type { RubricWeights } from './config.ts';

/**
 * Scoring (seed "Scoring + Reputation"), as pure functions over plain numbers so each rule can
 * be checked by hand. Only +, −, ×, ÷ and comparisons are used (all exactly rounded in IEEE 754),
 * so every engine computes the same bits; displayed values are rounded to 2 decimals.
 */

export const round2 = (x: number): number => Math.round(x * 100) / 100 + 0;

/** One judge's card → 0–100: Σ weight × dimension / 100 (weights sum to 100). */
export function weightedRubric(card: RubricCard, w: RubricWeights): number {
  return (w.e * card.e + w.r * card.r + w.c * card.c + w.v * card.v + w.y * card.y) / 100;
}

/**
 * Trimmed mean: with 3 or more values the single highest and lowest are dropped, then the rest
 * are averaged; fewer values are averaged as they are. Null for no values.
 */
export function trimmedMean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const kept = sorted.length >= 3 ? sorted.slice(1, -1) : sorted;
  return kept.reduce((s, x) => s + x, 0) / kept.length;
}

/** Movement bonus: α × mean(after − before) / 100 over viewers who gave both stances (0–100). */
export function movementBonus(pairs: readonly { before: number; after: number }[], alpha: number): number {
  if (pairs.length === 0) return 0;
  const shift = pairs.reduce((s, p) => s + (p.after - p.before), 0) / pairs.length;
  return (alpha * shift) / 100;
}

export interface ConcessionInput {
  /** True when the debater withdrew one of their own claims; false for conceding another's. */
  own: boolean;
  /** The fact-checker's verdict on the conceded claim, or null when it was never checked. */
  verdict: VerdictValue | null;
}

export interface ConcessionRules {
  reward: number;
  penalty: number;
  cap: number;
}

/**
 * A concession is honest when it moves toward the fact-check: agreeing with another's claim
 * checked `true`, or withdrawing one's own claim checked `false`/`needs_work` (+reward). It is
 * penalised when it moves away: conceding another's claim checked `false`/`needs_work` (the
 * seed: "penalize conceding unsupported claims"), or withdrawing one's own claim checked `true`
 * (the issue: "penalised when conceding a supported claim"). `unclear`/unchecked: 0. Clamped ±cap.
 */
export function concessionScore(items: readonly ConcessionInput[], rules: ConcessionRules): number {
  let total = 0;
  for (const { own, verdict } of items) {
    if (verdict === null || verdict === 'unclear') continue;
    const supported = verdict === 'true';
    const honest = own ? !supported : supported;
    total += honest ? rules.reward : -rules.penalty;
  }
  return Math.max(-rules.cap, Math.min(rules.cap, total));
}

/**
 * Brier score over claim confidences (0–100 %) against verdicts (true → 1, false → 0; other
 * verdicts carry no outcome and are skipped): mean((p − o)²). Null when nothing was scored.
 */
export function brierScore(items: readonly { confidence: number; outcome: 0 | 1 }[]): number | null {
  if (items.length === 0) return null;
  return (
    items.reduce((s, { confidence, outcome }) => s + (confidence / 100 - outcome) ** 2, 0) / items.length
  );
}

/** Calibration bonus: max × (1 − Brier / 0.25), floored at 0 — 50 % on everything earns nothing. */
export function calibrationBonus(brier: number | null, max: number): number {
  if (brier === null) return 0;
  return Math.max(0, max * (1 - brier / 0.25));
}

/**
 * Borda points over rankings: in a ballot's ranking of m candidates-in-the-room, position i
 * (0-based) earns (n − 1 − i) where n is the number of debaters; unranked debaters earn 0.
 */
export function bordaPoints(
  rankings: readonly (readonly string[])[],
  seats: readonly string[],
): Record<string, number> {
  const n = seats.length;
  const points: Record<string, number> = Object.fromEntries(seats.map((s) => [s, 0]));
  for (const ranking of rankings) {
    ranking.forEach((seat, i) => {
      if (seat in points) points[seat] = (points[seat] ?? 0) + (n - 1 - i);
    });
  }
  return points;
}

export interface PlacementInput {
  seat: string;
  approvals: number;
  borda: number;
  total: number;
}

/**
 * Placements with standard competition ranking (1, 2, 2, 4). `approval`: approvals, then Borda,
 * then total score; `score`: total, then approvals, then Borda. Entrants equal on every key
 * share a place (an Elo draw); listing order within a place is seat order (input order).
 */
export function placements<T extends PlacementInput>(
  entrants: readonly T[],
  by: 'approval' | 'score',
): (T & { place: number })[] {
  const keys = (e: T): number[] =>
    by === 'approval' ? [e.approvals, e.borda, e.total] : [e.total, e.approvals, e.borda];
  const cmp = (a: T, b: T): number => {
    const ka = keys(a);
    const kb = keys(b);
    for (let i = 0; i < ka.length; i++) {
      const d = (kb[i] ?? 0) - (ka[i] ?? 0);
      if (d !== 0) return d;
    }
    return 0;
  };
  const order = entrants.map((e, i) => ({ e, i })).sort((a, b) => cmp(a.e, b.e) || a.i - b.i);
  const out: (T & { place: number })[] = [];
  order.forEach(({ e }, pos) => {
    const prev = out[pos - 1];
    const place = prev && cmp(prev, e) === 0 ? prev.place : pos + 1;
    out.push({ ...e, place });
  });
  return out;
}
