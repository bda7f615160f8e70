import type { ApplyResult } from '@db8/core';
import { type DebateAction, reject } from '../actions.ts';
import { FACT_CHECKER } from '../config.ts';
import { withRound } from '../ops.ts';
import { allSettled, currentRound, verificationOutcome } from '../rules.ts';
import type { DebateState, Slot } from '../state.ts';

/** The fact-checker's per-claim verdicts during verify_k / final_verify. */

type VerdictAction = Extract<DebateAction, { type: 'verdict' }>;

/**
 * A verdict covers every claim of the author's latest submission exactly once and names that
 * submission by its canonical hash. It is sealed to the fact-checker and revealed with the round.
 * A verdict may be replaced until the round is settled; once every submission is settled,
 * publication is due at once (the next tick), so nothing can change after that.
 */
export function applyVerdict(
  state: DebateState,
  action: VerdictAction,
  now: number,
  seq: number,
): ApplyResult<DebateState> {
  const round = currentRound(state);
  if (!round || (state.phase !== 'verify' && state.phase !== 'final_verify')) {
    return reject('WRONG_PHASE', `verdicts are given during verify, not ${state.phase}`);
  }
  const slot = round.slots[action.author];
  const sub = slot?.submission;
  if (!slot || !sub || slot.status === 'forfeit') {
    return reject('NOTHING_TO_VERIFY', `${action.author} has no submission in this round`);
  }
  if (action.canonical_sha256 !== sub.canonical_sha256) {
    return reject('STALE_SUBMISSION', 'the hash does not name the latest submission', {
      canonical_sha256: sub.canonical_sha256,
    });
  }
  const ids = sub.payload.claims.map((c) => c.id);
  const given = action.claims.map((c) => c.claim_id);
  if (
    given.length !== ids.length ||
    new Set(given).size !== given.length ||
    !given.every((g) => ids.includes(g))
  ) {
    return reject('BAD_VERDICT', 'give exactly one verdict per claim of the submission', { claim_ids: ids });
  }
  // Keep the submission's claim order so the record reads like the submission.
  const claims = ids.map((id) => action.claims.find((c) => c.claim_id === id)!);
  const outcome = verificationOutcome(claims);
  const next: Slot = {
    ...slot,
    status: outcome,
    verdict: { claims, outcome, by: 'fact_checker', seq, at: now, canonical_sha256: sub.canonical_sha256 },
  };
  const updated = { ...round, slots: { ...round.slots, [action.author]: next } };
  const settled = allSettled(updated) ? now : null;
  return {
    ok: true,
    state: withRound(state, { ...updated, settled_at: settled }),
    visibility: { kind: 'seat', seat: FACT_CHECKER },
  };
}
