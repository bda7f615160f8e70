import type { Legal } from '@db8/core';
import { z } from 'zod';
import { debaterSeats, FACT_CHECKER, roleOf } from './config.ts';
import {
  ACTIVE_PHASES,
  currentRound,
  deadlineUnix,
  isFinalVoter,
  KEY_PHASES,
  nextDeadline,
  publishedCount,
} from './rules.ts';
import type { DebateState } from './state.ts';
import { RoundLabelSchema } from './submission.ts';

/**
 * Legal actions per seat. Debate phases are simultaneous (everyone acts in the window; the log
 * orders inputs), so there are no turn tokens. The `submit` entry carries everything a client
 * needs to build the canonical payload it signs.
 */

export const LegalActionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('draft') }),
  z.object({
    type: z.literal('submit'),
    /** Required `room_id`, or null: then any (the server's room id is expected). */
    room_id: z.string().nullable(),
    round_id: z.string(),
    author_id: z.string(),
    phase: RoundLabelSchema,
    deadline_unix: z.number().int(),
    /** Versions accepted so far this round; the next submit makes version + 1. */
    version: z.number().int(),
    content_max: z.number().int(),
    claims_max: z.number().int(),
    citations_min: z.number().int(),
    signatures: z.enum(['optional', 'required']),
  }),
  z.object({ type: z.literal('register_key') }),
  z.object({
    type: z.literal('verdict'),
    author: z.string(),
    canonical_sha256: z.string(),
    claim_ids: z.array(z.string()),
  }),
  z.object({ type: z.literal('vote_continue') }),
  z.object({ type: z.literal('final_vote'), candidates: z.array(z.string()) }),
  z.object({ type: z.literal('score'), debaters: z.array(z.string()) }),
  z.object({ type: z.literal('stance'), when: z.enum(['before', 'after']), debaters: z.array(z.string()) }),
]);
export type LegalAction = z.infer<typeof LegalActionSchema>;

export function legalFor(state: DebateState, seat: string): Legal<LegalAction> {
  const role = roleOf(state.config, seat);
  if (role === null || nextDeadline(state) === null) return { actions: [] }; // closed or paused
  const actions: LegalAction[] = [];
  const round = currentRound(state);
  const debaters = debaterSeats(state.config);
  const submitting = state.phase === 'submit' || state.phase === 'final_submit';

  if (role === 'debater') {
    if (submitting && round) {
      const caps = state.config.caps;
      actions.push({ type: 'draft' });
      actions.push({
        type: 'submit',
        room_id: state.config.room_id,
        round_id: round.round_id,
        author_id: seat,
        phase: round.label,
        deadline_unix: deadlineUnix(round.submit_deadline),
        version: round.slots[seat]?.version ?? 0,
        content_max: caps.content_max,
        claims_max: caps.claims_max,
        citations_min: caps.citations_min,
        signatures: state.config.signatures,
      });
    }
    if (state.config.trust.allow_registered_keys && KEY_PHASES.has(state.phase)) {
      actions.push({ type: 'register_key' });
    }
    if (state.phase === 'published' && round?.continue_vote) actions.push({ type: 'vote_continue' });
  }
  if (seat === FACT_CHECKER && round && (state.phase === 'verify' || state.phase === 'final_verify')) {
    for (const author of debaters) {
      const slot = round.slots[author];
      const sub = slot?.submission;
      if (!sub || slot.status === 'forfeit') continue;
      actions.push({
        type: 'verdict',
        author,
        canonical_sha256: sub.canonical_sha256,
        claim_ids: sub.payload.claims.map((c) => c.id),
      });
    }
  }
  if (state.phase === 'final_vote' && isFinalVoter(state.config, role)) {
    actions.push({ type: 'final_vote', candidates: debaters.filter((d) => d !== seat) });
  }
  if (role === 'judge' && publishedCount(state) > 0 && ACTIVE_PHASES.has(state.phase)) {
    actions.push({ type: 'score', debaters });
  }
  if (role === 'viewer') {
    if (publishedCount(state) === 1 && ACTIVE_PHASES.has(state.phase)) {
      actions.push({ type: 'stance', when: 'before', debaters });
    }
    if (state.phase === 'final_vote') actions.push({ type: 'stance', when: 'after', debaters });
  }
  // bind_identity is never offered: the server writes it when a debater joins (serverActions).
  return { actions };
}
