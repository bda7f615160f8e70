import { PresenceEventSchema, TypingEventSchema } from '@db8/core';
import { z } from 'zod';
import { deadlineUnix } from './rules.ts';
import { type Phase, PhaseSchema } from './state.ts';
import type { DebateView, RoundView, SubmissionRow } from './view.ts';

/**
 * Seed 000's typed realtime events ("Event shapes (Zod)"), with the seed's field names, and their one
 * producer: `debateEvents` compares two views of the same viewer, so an event can only say what that
 * viewer's view already says — a sealed submission's hash reaches only those who may read it. The
 * server sends the same objects over SSE `/events?room_id=` and the WebSocket (docs/debate.md,
 * "Realtime events"). Pure: the caller passes the views; the timer reads the view's deadline.
 */

const Unix = z.number().int();

/** The seed's six phases; db8's eleven states map onto them (`state` keeps the exact one). */
export const SeedPhaseSchema = z.enum(['research', 'submit', 'verify', 'published', 'final_vote', 'results']);
export type SeedPhase = z.infer<typeof SeedPhaseSchema>;

const SEED_PHASE: Record<Phase, SeedPhase> = {
  research: 'research',
  submit: 'submit',
  verify: 'verify',
  published: 'published',
  final_submit: 'submit',
  final_verify: 'verify',
  final_published: 'published',
  final_vote: 'final_vote',
  results: 'results',
  stats_and_reveal: 'results',
  closed: 'results',
};

export const EvPhase = z.object({
  t: z.literal('phase'),
  room_id: z.string(),
  round_id: z.string(),
  phase: SeedPhaseSchema,
  idx: z.number().int(),
  submit_deadline_unix: Unix.nullable(),
  published_unix: Unix.nullable(),
  /** db8's exact state (e.g. `final_submit`, `closed`), which `phase` folds into the seed's six. */
  state: PhaseSchema,
});

export const EvTimer = z.object({
  t: z.literal('timer'),
  room_id: z.string(),
  round_id: z.string(),
  ends_unix: Unix,
});

export const EvSubmission = z.object({
  t: z.literal('submission'),
  room_id: z.string(),
  round_id: z.string(),
  author_id: z.string(),
  status: z.enum(['submitted', 'verified', 'rejected', 'forfeit']),
  /** Null for a viewer who may not read the submission yet (the seed's RLS hides the row instead). */
  canonical_sha256: z.string().nullable(),
});

export const EvVote = z.object({
  t: z.literal('vote'),
  room_id: z.string(),
  round_id: z.string(),
  voter_id: z.string(),
  /** `continue` for a continue vote; a final ballot (approval and ranking together) is `approval`. */
  kind: z.enum(['continue', 'approval', 'ranked']),
});

export const DebateEventSchema = z.discriminatedUnion('t', [
  EvPhase,
  EvTimer,
  EvSubmission,
  EvVote,
  PresenceEventSchema,
  TypingEventSchema,
]);
export type DebateEvent = z.infer<typeof DebateEventSchema>;
export type PhaseEvent = z.infer<typeof EvPhase>;
export type TimerEvent = z.infer<typeof EvTimer>;
export type SubmissionEvent = z.infer<typeof EvSubmission>;
export type VoteEvent = z.infer<typeof EvVote>;

const currentRound = (v: DebateView): RoundView | undefined =>
  v.round > 0 ? v.rounds[v.round - 1] : undefined;

/** The phase event for `phase` of round `round` (the view's current one by default). */
function phaseEvent(roomId: string, v: DebateView, phase: Phase = v.phase, round = v.round): PhaseEvent {
  const r = round > 0 ? v.rounds[round - 1] : undefined;
  return {
    t: 'phase',
    room_id: roomId,
    round_id: r?.round_id ?? '',
    phase: SEED_PHASE[phase],
    idx: r?.index ?? 0,
    submit_deadline_unix: r ? r.deadline_unix : null,
    published_unix: r?.published_at != null ? deadlineUnix(r.published_at) : null,
    state: phase,
  };
}

const EMITTED = new Set(['submitted', 'verified', 'rejected', 'forfeit']);
/** What a viewer can tell apart about a row: a change in any of it is a new `submission` event. */
const rowKey = (s: SubmissionRow) => `${s.status}|${s.version}|${s.canonical_sha256 ?? ''}`;

function submissionEvents(roomId: string, prev: RoundView | undefined, next: RoundView): SubmissionEvent[] {
  const out: SubmissionEvent[] = [];
  for (const row of next.submissions) {
    if (!EMITTED.has(row.status)) continue;
    const before = prev?.submissions.find((s) => s.author === row.author);
    if (before && rowKey(before) === rowKey(row)) continue;
    out.push({
      t: 'submission',
      room_id: roomId,
      round_id: next.round_id,
      author_id: row.author,
      status: row.status as SubmissionEvent['status'],
      canonical_sha256: row.canonical_sha256 ?? null,
    });
  }
  return out;
}

function voteEvents(
  roomId: string,
  roundId: string,
  kind: VoteEvent['kind'],
  before: readonly string[],
  after: readonly string[],
): VoteEvent[] {
  return after
    .filter((s) => !before.includes(s))
    .map((voter_id) => ({ t: 'vote', room_id: roomId, round_id: roundId, voter_id, kind }));
}

/**
 * The events between two views of one viewer: submissions and votes that changed, then a phase
 * event for each state entered (what happened in a phase comes before the flip it caused), then the
 * submissions a publication revealed. With no earlier view
 * (a client just connected): the phase, then the current round's submissions and votes so far.
 */
export function debateEvents(roomId: string, prev: DebateView | null, next: DebateView): DebateEvent[] {
  const lastRound = next.rounds.at(-1);
  if (prev === null) {
    const r = currentRound(next);
    return [
      phaseEvent(roomId, next),
      ...(r ? submissionEvents(roomId, undefined, r) : []),
      ...(r ? voteEvents(roomId, r.round_id, 'continue', [], r.continue_vote?.voted ?? []) : []),
      ...(lastRound ? voteEvents(roomId, lastRound.round_id, 'approval', [], next.final_vote.voted) : []),
    ];
  }
  const out: DebateEvent[] = [];
  const reveals: DebateEvent[] = [];
  for (const r of next.rounds) {
    const before = prev.rounds.find((p) => p.index === r.index);
    // A round published since `prev`: its submissions' hashes are news after the `published` phase.
    const revealing = r.published_at !== null && (before?.published_at ?? null) === null;
    (revealing ? reveals : out).push(...submissionEvents(roomId, before, r));
    out.push(
      ...voteEvents(
        roomId,
        r.round_id,
        'continue',
        before?.continue_vote?.voted ?? [],
        r.continue_vote?.voted ?? [],
      ),
    );
  }
  if (lastRound) {
    out.push(
      ...voteEvents(roomId, lastRound.round_id, 'approval', prev.final_vote.voted, next.final_vote.voted),
    );
  }
  // One per state entered since `prev`, in order: the history also holds the instantaneous ones
  // (`published`, a skipped `verify`) a view never rests in.
  for (const h of next.history.slice(prev.history.length))
    out.push(phaseEvent(roomId, next, h.phase, h.round));
  return [...out, ...reveals];
}

/** The `timer` event for a view: its deadline in unix seconds, rounded up (null: no clock runs). */
export function debateTimer(roomId: string, view: DebateView): TimerEvent | null {
  if (view.deadline === null || view.phase === 'closed') return null;
  return {
    t: 'timer',
    room_id: roomId,
    round_id: currentRound(view)?.round_id ?? '',
    ends_unix: Math.ceil(view.deadline / 1000),
  };
}
