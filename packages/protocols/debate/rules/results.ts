import type { VerdictValue } from './actions.ts';
import { debaterSeats } from './config.ts';
import {
  bordaPoints,
  brierScore,
  type ConcessionInput,
  calibrationBonus,
  concessionScore,
  movementBonus,
  placements,
  round2,
  trimmedMean,
  weightedRubric,
} from './scoring.ts';
import type { DebateResult, DebaterScore, DebaterStats, DebateState, Round } from './state.ts';

/** Results (the `results` state): placements, scores and stats, computed once from the state. */

/** The published submission of `seat` in `round` (verified or rejected), if any. */
function published(round: Round, seat: string) {
  const slot = round.slots[seat];
  return round.published_at !== null && slot?.submission && slot.status !== 'forfeit' ? slot : undefined;
}

/** The fact-checker's verdict on one published claim, or null when unchecked. */
function verdictOn(
  state: DebateState,
  roundIndex: number,
  author: string,
  claimId: string,
): VerdictValue | null {
  const round = state.rounds[roundIndex - 1];
  const v = round?.slots[author]?.verdict;
  if (v?.by !== 'fact_checker') return null;
  return v.claims.find((c) => c.claim_id === claimId)?.verdict ?? null;
}

/**
 * The distinct claims `seat` conceded across its published submissions, first mention first: a
 * concession repeated within a submission or in a later round (a draft carried over) is one.
 */
function concededClaims(
  state: DebateState,
  seat: string,
): { round: number; author: string; claim_id: string }[] {
  const seen = new Map<string, { round: number; author: string; claim_id: string }>();
  for (const round of state.rounds) {
    for (const c of published(round, seat)?.submission?.payload.concessions ?? []) {
      const key = JSON.stringify([c.round, c.author, c.claim_id]);
      if (!seen.has(key)) seen.set(key, { round: c.round, author: c.author, claim_id: c.claim_id });
    }
  }
  return [...seen.values()];
}

function scoreOf(state: DebateState, seat: string): DebaterScore {
  const s = state.config.scoring;
  const cards = Object.keys(state.scores)
    .sort()
    .map((judge) => state.scores[judge]?.cards[seat])
    .filter((c) => c !== undefined);
  const rubric = trimmedMean(cards.map((c) => weightedRubric(c, s.weights)));
  const mean = (k: 'e' | 'r' | 'c' | 'v' | 'y') => round2(cards.reduce((a, c) => a + c[k], 0) / cards.length);
  const dimensions =
    cards.length > 0 ? { e: mean('e'), r: mean('r'), c: mean('c'), v: mean('v'), y: mean('y') } : null;

  const pairs: { before: number; after: number }[] = [];
  for (const viewer of Object.keys(state.stances).sort()) {
    const st = state.stances[viewer];
    const before = st?.before?.values[seat];
    const after = st?.after?.values[seat];
    if (before !== undefined && after !== undefined) pairs.push({ before, after });
  }

  const concessions: ConcessionInput[] = concededClaims(state, seat).map((c) => ({
    own: c.author === seat,
    verdict: verdictOn(state, c.round, c.author, c.claim_id),
  }));
  const calibration: { confidence: number; outcome: 0 | 1 }[] = [];
  for (const round of state.rounds) {
    const slot = published(round, seat);
    if (!slot?.submission) continue;
    for (const claim of slot.submission.payload.claims) {
      const v = verdictOn(state, round.index, seat, claim.id);
      if (claim.confidence === undefined || (v !== 'true' && v !== 'false')) continue;
      calibration.push({ confidence: claim.confidence, outcome: v === 'true' ? 1 : 0 });
    }
  }

  const brier = brierScore(calibration);
  const parts = {
    rubric: round2(rubric ?? 0),
    movement: round2(movementBonus(pairs, s.alpha)),
    concessions: round2(
      concessionScore(concessions, {
        reward: s.concession_reward,
        penalty: s.concession_penalty,
        cap: s.concession_cap,
      }),
    ),
    calibration: round2(calibrationBonus(brier, s.calibration_max)),
  };
  return {
    seat,
    ...parts,
    dimensions,
    judges: cards.length,
    brier: brier === null ? null : round2(brier * 100) / 100,
    total: round2(parts.rubric + parts.movement + parts.concessions + parts.calibration),
  };
}

function statsOf(state: DebateState, seat: string): DebaterStats {
  const stats: DebaterStats = {
    seat,
    submitted: 0,
    verified: 0,
    rejected: 0,
    forfeits: 0,
    resubmits: 0,
    signed: 0,
    claims: 0,
    verdicts: { true: 0, false: 0, unclear: 0, needs_work: 0 },
    concessions: concededClaims(state, seat).length,
  };
  for (const round of state.rounds) {
    const slot = round.slots[seat];
    if (!slot || round.published_at === null) continue;
    if (slot.status === 'forfeit') stats.forfeits += 1;
    const sub = slot.submission;
    if (!sub || slot.status === 'forfeit') continue;
    stats.submitted += 1;
    if (slot.status === 'verified') stats.verified += 1;
    if (slot.status === 'rejected') stats.rejected += 1;
    stats.resubmits += sub.version - 1;
    if (sub.signature.kind !== 'server') stats.signed += 1;
    stats.claims += sub.payload.claims.length;
    for (const v of slot.verdict?.by === 'fact_checker' ? slot.verdict.claims : [])
      stats.verdicts[v.verdict] += 1;
  }
  return stats;
}

export function computeResults(state: DebateState, now: number): DebateResult {
  const seats = debaterSeats(state.config);
  const voters = Object.keys(state.ballots).sort();
  const ballots = voters.map((v) => state.ballots[v]!);
  const approvals: Record<string, number> = Object.fromEntries(seats.map((s) => [s, 0]));
  for (const b of ballots) for (const s of b.approval) approvals[s] = (approvals[s] ?? 0) + 1;
  const borda = bordaPoints(
    ballots.map((b) => b.ranking),
    seats,
  );
  const scores = seats.map((seat) => scoreOf(state, seat));
  const placed = placements(
    seats.map((seat, i) => ({
      seat,
      approvals: approvals[seat] ?? 0,
      borda: borda[seat] ?? 0,
      total: scores[i]?.total ?? 0,
    })),
    state.config.placement,
  );
  return {
    topic: state.config.topic,
    tags: state.config.tags,
    rounds: state.rounds.length,
    placement: state.config.placement,
    placements: placed,
    scores,
    stats: seats.map((seat) => statsOf(state, seat)),
    ballots: ballots.length,
    chain: state.chain,
    computed_at: now,
    identities: null,
  };
}
