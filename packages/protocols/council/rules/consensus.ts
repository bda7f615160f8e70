import { z } from 'zod';
import { type Assessment, type Stance, StanceSchema } from './payloads.ts';
import { ROLES, type Role, RoleSchema } from './roles.ts';
import {
  type DegradationMarker,
  DegradationMarkerSchema,
  failureMarkers,
  okTurn,
  stageOfTurn,
  type TurnRecord,
} from './turns.ts';

/**
 * Consensus and confidence (docs/council.md has the formula and a worked example):
 *
 *   position x: support = 1, conditional = 0.5, oppose = 0 — the stance the Synthesizer read in the
 *   role's round-3 position, or the role's own declared stance when there is no such reading;
 *   weight w = the role's stated round-3 confidence.
 *   agreement  A = Σ_{i<j} w_i·w_j·(1 − |x_i − x_j|) / Σ_{i<j} w_i·w_j     (k ≥ 2 positions, else 0)
 *   support    S = Σ w_i·x_i / Σ w_i                                        (the council's lean)
 *   coverage   = k / 5            evidence = ok turns / 16 (15 round turns + the assessment)
 *   consensus  = A · coverage
 *   confidence = consensus · mean(w) · evidence
 *
 * All-zero weights fall back to equal weights. Scores are rounded to 4 decimals at the end.
 */

const Score = z.number().min(0).max(1);

export const STANCE_VALUE: Readonly<Record<Stance, number>> = { support: 1, conditional: 0.5, oppose: 0 };

/** Turns counted by `evidence`: five roles × three rounds, plus the Synthesizer's assessment. */
export const EVIDENCE_TURNS = ROLES.length * 3 + 1;

export const PositionSchema = z
  .object({
    role: RoleSchema,
    declared: StanceSchema,
    /** The Synthesizer's reading of the position, or null when it gave none. */
    assessed: StanceSchema.nullable(),
    /** The stance the scores use: `assessed` when present, else `declared`. */
    stance: StanceSchema,
    confidence: Score,
  })
  .strict();
export type Position = z.infer<typeof PositionSchema>;

export const LeanSchema = z.enum(['support', 'oppose', 'conditional', 'none']);

export const ConsensusSchema = z
  .object({
    positions: z.array(PositionSchema).max(5),
    assessment: z.enum(['used', 'missing']),
    agreement: Score,
    support: Score,
    coverage: Score,
    evidence: Score,
    meanConfidence: Score,
    consensus: Score,
    confidence: Score,
    lean: LeanSchema,
    okTurns: z.number().int().nonnegative(),
    expectedTurns: z.number().int().positive(),
    markers: z.array(DegradationMarkerSchema),
  })
  .strict();
export type Consensus = z.infer<typeof ConsensusSchema>;

export function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}

/** Confidence-weighted pairwise agreement of positions in [0, 1]; 0 with fewer than two. */
export function agreementOf(points: readonly { x: number; w: number }[]): number {
  if (points.length < 2) return 0;
  const equal = points.every((p) => p.w === 0);
  let num = 0;
  let den = 0;
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) {
      const a = points[i]!;
      const b = points[j]!;
      const w = equal ? 1 : a.w * b.w;
      num += w * (1 - Math.abs(a.x - b.x));
      den += w;
    }
  }
  // Weights are non-negative and not all zero, but a single non-zero weight gives den = 0.
  return den === 0 ? agreementOf(points.map((p) => ({ x: p.x, w: 1 }))) : num / den;
}

export function supportOf(points: readonly { x: number; w: number }[]): number {
  if (points.length === 0) return 0;
  const total = points.reduce((s, p) => s + p.w, 0);
  if (total === 0) return points.reduce((s, p) => s + p.x, 0) / points.length;
  return points.reduce((s, p) => s + p.w * p.x, 0) / total;
}

export function leanOf(support: number, positions: number): z.infer<typeof LeanSchema> {
  if (positions === 0) return 'none';
  if (support >= 0.75) return 'support';
  if (support <= 0.25) return 'oppose';
  return 'conditional';
}

/** Consensus from the recorded turns of rounds 1–3 and the Consensus stage. Pure. */
export function computeConsensus(turns: readonly TurnRecord[]): Consensus {
  const assessmentTurn = okTurn(turns, 'assessment', 'Synthesizer');
  const assessment: Assessment | null = assessmentTurn ? assessmentTurn.payload : null;
  const positions: Position[] = [];
  for (const role of ROLES) {
    const rev = okTurn(turns, 'revision', role);
    if (!rev) continue;
    const assessed = assessment?.positions.find((p) => p.role === role)?.stance ?? null;
    positions.push({
      role,
      declared: rev.payload.stance,
      assessed,
      stance: assessed ?? rev.payload.stance,
      confidence: rev.payload.confidence,
    });
  }
  const points = positions.map((p) => ({ x: STANCE_VALUE[p.stance], w: p.confidence }));
  const k = positions.length;
  const agreement = agreementOf(points);
  const support = supportOf(points);
  const coverage = k / ROLES.length;
  const counted = turns.filter((t) => stageOfTurn(t) !== 'Judge');
  const okTurns = counted.filter((t) => t.kind !== 'failed').length;
  const evidence = okTurns / EVIDENCE_TURNS;
  const meanConfidence = k === 0 ? 0 : positions.reduce((s, p) => s + p.confidence, 0) / k;
  const consensus = agreement * coverage;
  const confidence = consensus * meanConfidence * evidence;

  const markers: DegradationMarker[] = failureMarkers(counted);
  if (!assessment) {
    markers.push({
      stage: 'Consensus',
      role: 'Synthesizer',
      code: 'SELF_DECLARED_STANCES',
      message: "no Synthesizer assessment: the scores use each role's declared stance",
    });
  }
  if (k < 2) {
    markers.push({
      stage: 'Consensus',
      role: null,
      code: 'TOO_FEW_POSITIONS',
      message: `${k} final position(s): agreement needs at least two`,
    });
  }
  return {
    positions,
    assessment: assessment ? 'used' : 'missing',
    agreement: round4(agreement),
    support: round4(support),
    coverage: round4(coverage),
    evidence: round4(evidence),
    meanConfidence: round4(meanConfidence),
    consensus: round4(consensus),
    confidence: round4(confidence),
    lean: leanOf(support, k),
    okTurns,
    expectedTurns: EVIDENCE_TURNS,
    markers,
  };
}

/** Roles whose stance the Synthesizer may assess: those with a round-3 position. */
export function assessableRoles(turns: readonly TurnRecord[]): Role[] {
  return ROLES.filter((role) => okTurn(turns, 'revision', role) !== undefined);
}
