import type { Viewer } from '@db8/core';
import { z } from 'zod';
import { ClaimVerdictSchema, RubricCardSchema } from './actions.ts';
import {
  DebateConfigSchema,
  debaterSeats,
  FACT_CHECKER,
  MODERATOR,
  type Role,
  RoleSchema,
  roleOf,
} from './config.ts';
import { deadlineUnix, nextDeadline } from './rules.ts';
import {
  type DebateState,
  HistoryItemSchema,
  PhaseSchema,
  ResultsSchema,
  type Round,
  SignatureRecordSchema,
  type Slot,
  SubmissionStatusSchema,
} from './state.ts';
import { CanonicalPayloadSchema, DraftActionSchema, RoundLabelSchema } from './submission.ts';

/**
 * What one viewer may see. The privacy rule, written once (`mayReadSubmission`): before its
 * round is published a submission is readable only by its author, by admins, and — during verify
 * only, to do the job — by the fact-checker. Everyone else sees that it exists (status, version,
 * the seq of its sealed entry, whose salted commitment is in the public log) and nothing derived
 * from its content. Ballots, cards, stances, votes and identities follow the same pattern: the
 * sender and admins see them; everyone else sees who has sent one until the rules reveal them.
 */

const Time = z.number().int();

export const SubmissionRowSchema = z.object({
  author: z.string(),
  status: SubmissionStatusSchema,
  version: z.number().int().nonnegative(),
  /** The sealed entry that holds the latest version (its commitment is public in the log). */
  seq: z.number().int().nullable(),
  submitted_at: Time.nullable(),
  /** Present only when this viewer may read the submission. */
  canonical_sha256: z.string().optional(),
  payload: CanonicalPayloadSchema.optional(),
  signature: SignatureRecordSchema.optional(),
  verdict: z
    .object({
      outcome: z.enum(['verified', 'rejected']),
      by: z.enum(['fact_checker', 'timeout']),
      claims: z.array(ClaimVerdictSchema),
    })
    .optional(),
  /** The author's own draft (never shown to anyone else). */
  draft: DraftActionSchema.omit({ type: true }).optional(),
});
export type SubmissionRow = z.infer<typeof SubmissionRowSchema>;

export const RoundViewSchema = z.object({
  index: z.number().int(),
  kind: z.enum(['argument', 'final']),
  round_id: z.string(),
  label: RoundLabelSchema,
  research_at: Time.nullable(),
  opened_at: Time,
  submit_deadline: Time,
  deadline_unix: z.number().int(),
  verify_deadline: Time.nullable(),
  published_at: Time.nullable(),
  published_seq: z.number().int().nullable(),
  revealed: z.array(z.number().int()),
  submissions: z.array(SubmissionRowSchema),
  continue_vote: z
    .object({
      open: z.boolean(),
      closes_at: Time,
      voted: z.array(z.string()),
      /** Your own vote, or every vote after the tally. */
      votes: z.record(z.string(), z.enum(['continue', 'end'])),
      tally: z
        .object({
          continue: z.number().int(),
          end: z.number().int(),
          outcome: z.enum(['continue', 'end']),
          by: z.enum(['majority', 'tie_rule']),
        })
        .nullable(),
    })
    .nullable(),
  chain: z
    .object({
      prev: z.string(),
      head: z.string(),
      links: z.array(z.object({ author: z.string(), sha256: z.string() })),
    })
    .nullable(),
});
export type RoundView = z.infer<typeof RoundViewSchema>;

export const DebateViewSchema = z.object({
  protocol: z.literal('debate'),
  config: DebateConfigSchema,
  room_ref: z.string(),
  phase: PhaseSchema,
  round: z.number().int(),
  phase_at: Time,
  /** When the protocol next acts on its own (a window ends, or everything is in), or null. */
  deadline: Time.nullable(),
  /** An admin paused the debate: the countdown is frozen with `remaining` ms left. */
  paused: z.object({ at: Time, remaining: z.number().int(), by: z.string() }).nullable(),
  /** An admin aborted the debate (it is closed, unrated). */
  aborted: z.object({ at: Time, by: z.string(), reason: z.string() }).nullable(),
  you: z.object({ role: z.union([RoleSchema, z.enum(['observer', 'admin'])]), seat: z.string().optional() }),
  debaters: z.array(
    z.object({ seat: z.string(), identity: z.string().nullable(), keys: z.array(z.string()) }),
  ),
  rounds: z.array(RoundViewSchema),
  final_vote: z.object({
    voted: z.array(z.string()),
    ballots: z.record(z.string(), z.object({ approval: z.array(z.string()), ranking: z.array(z.string()) })),
  }),
  judging: z.object({
    scored: z.array(z.string()),
    cards: z.record(z.string(), z.record(z.string(), RubricCardSchema)),
  }),
  stances: z.object({
    before: z.array(z.string()),
    after: z.array(z.string()),
    values: z.record(
      z.string(),
      z.object({
        before: z.record(z.string(), z.number()).nullable(),
        after: z.record(z.string(), z.number()).nullable(),
      }),
    ),
  }),
  results: ResultsSchema.nullable(),
  journal: z.object({ chain: z.string(), published: z.boolean() }),
  history: z.array(HistoryItemSchema),
});
export type DebateView = z.infer<typeof DebateViewSchema>;

function roleFor(state: DebateState, viewer: Viewer): DebateView['you'] {
  if (viewer.kind !== 'seat') return { role: viewer.kind };
  const role: Role | null = roleOf(state.config, viewer.seat);
  return role ? { role, seat: viewer.seat } : { role: 'observer' };
}

const seatOf = (viewer: Viewer): string | null => (viewer.kind === 'seat' ? viewer.seat : null);

/** The privacy invariant, as one predicate. */
export function mayReadSubmission(state: DebateState, viewer: Viewer, round: Round, author: string): boolean {
  if (round.published_at !== null || viewer.kind === 'admin') return true;
  const seat = seatOf(viewer);
  if (seat === author) return true;
  const verifying =
    state.round === round.index && (state.phase === 'verify' || state.phase === 'final_verify');
  return seat === FACT_CHECKER && verifying;
}

function rowOf(state: DebateState, viewer: Viewer, round: Round, author: string, slot: Slot): SubmissionRow {
  const sub = slot.submission;
  const row: SubmissionRow = {
    author,
    status: slot.status,
    version: slot.version,
    seq: sub?.seq ?? null,
    submitted_at: sub?.at ?? null,
  };
  if (sub && slot.status !== 'forfeit' && mayReadSubmission(state, viewer, round, author)) {
    row.canonical_sha256 = sub.canonical_sha256;
    row.payload = sub.payload;
    row.signature = sub.signature;
    if (slot.verdict) {
      row.verdict = { outcome: slot.verdict.outcome, by: slot.verdict.by, claims: slot.verdict.claims };
    }
  }
  if (slot.draft && (seatOf(viewer) === author || viewer.kind === 'admin')) {
    const { seq: _seq, at: _at, ...draft } = slot.draft;
    row.draft = draft;
  }
  return row;
}

function roundView(state: DebateState, viewer: Viewer, round: Round): RoundView {
  const cv = round.continue_vote;
  const me = seatOf(viewer);
  let continueVote: RoundView['continue_vote'] = null;
  if (cv) {
    const votes: Record<string, 'continue' | 'end'> = {};
    for (const [seat, v] of Object.entries(cv.votes)) {
      if (cv.tally || seat === me || viewer.kind === 'admin') votes[seat] = v.choice;
    }
    continueVote = {
      open: cv.tally === null,
      closes_at: cv.closes_at,
      voted: debaterSeats(state.config).filter((s) => cv.votes[s] !== undefined),
      votes,
      tally: cv.tally
        ? { continue: cv.tally.continue, end: cv.tally.end, outcome: cv.tally.outcome, by: cv.tally.by }
        : null,
    };
  }
  return {
    index: round.index,
    kind: round.kind,
    round_id: round.round_id,
    label: round.label,
    research_at: round.research_at,
    opened_at: round.opened_at,
    submit_deadline: round.submit_deadline,
    deadline_unix: deadlineUnix(round.submit_deadline),
    verify_deadline: round.verify_deadline,
    published_at: round.published_at,
    published_seq: round.published_seq,
    revealed: round.revealed,
    submissions: debaterSeats(state.config).map((seat) =>
      rowOf(state, viewer, round, seat, round.slots[seat]!),
    ),
    continue_vote: continueVote,
    chain: round.chain,
  };
}

export function viewOf(state: DebateState, viewer: Viewer): DebateView {
  const me = seatOf(viewer);
  const admin = viewer.kind === 'admin';
  const revealedVotes = state.results !== null;
  const unmasked = state.results?.identities ?? null;

  const ballots: DebateView['final_vote']['ballots'] = {};
  for (const [seat, b] of Object.entries(state.ballots)) {
    if (revealedVotes || admin || seat === me) ballots[seat] = { approval: b.approval, ranking: b.ranking };
  }
  const cards: DebateView['judging']['cards'] = {};
  for (const [seat, s] of Object.entries(state.scores)) {
    if (revealedVotes || admin || seat === me) cards[seat] = s.cards;
  }
  const values: DebateView['stances']['values'] = {};
  for (const [seat, s] of Object.entries(state.stances)) {
    if (revealedVotes || admin || seat === me) {
      values[seat] = { before: s.before?.values ?? null, after: s.after?.values ?? null };
    }
  }
  const sortedKeys = (r: Record<string, unknown>) => Object.keys(r).sort();
  const stanceSeats = (when: 'before' | 'after') =>
    sortedKeys(state.stances).filter((s) => state.stances[s]?.[when] != null);
  const seeIdentity = admin || me === MODERATOR;

  return {
    protocol: 'debate',
    config: state.config,
    room_ref: state.room_ref,
    phase: state.phase,
    round: state.round,
    phase_at: state.phase_at,
    deadline: nextDeadline(state),
    paused: state.paused
      ? { at: state.paused.at, remaining: state.paused.remaining, by: state.paused.by }
      : null,
    aborted: state.aborted
      ? { at: state.aborted.at, by: state.aborted.by, reason: state.aborted.reason }
      : null,
    you: roleFor(state, viewer),
    debaters: debaterSeats(state.config).map((seat) => ({
      seat,
      identity: unmasked
        ? (unmasked[seat] ?? null)
        : seeIdentity
          ? (state.identities[seat]?.identity ?? null)
          : null,
      keys: state.keys[seat] ?? [],
    })),
    rounds: state.rounds.map((r) => roundView(state, viewer, r)),
    final_vote: { voted: sortedKeys(state.ballots), ballots },
    judging: { scored: sortedKeys(state.scores), cards },
    stances: { before: stanceSeats('before'), after: stanceSeats('after'), values },
    results: state.results,
    journal: { chain: state.chain, published: state.journal_published },
    history: state.history,
  };
}
