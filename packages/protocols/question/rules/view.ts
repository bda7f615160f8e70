import type { Legal } from '@db8/core';
import { currentProfile, type QuestionState } from './state.ts';

/** The room's `answer-room-metadata.v1` projection (validated against the upstream schema in tests). */
export function projectMetadata(s: QuestionState): Record<string, unknown> {
  const profile = currentProfile(s);
  const last = s.profiles[s.profiles.length - 1];
  const meta: Record<string, unknown> = {
    'schema/v': 1,
    'room/id': s.question.id,
    'question/id': s.question.id,
    'delivery/scope': s.question.scope,
    'room-policy/profile': profile,
    'operator-consultation/allowed': profile !== 'none',
    'operator-direct-live/allowed': profile === 'direct-live-allowed',
    // db8 carries an origin class on every message, whatever the profile.
    'human-live/origin-flag-required': true,
    'summary/human-provenance-required': true,
    'transcript/human-origin-preserved': true,
    'secretary/required-for-direct-live': true,
    'moderation/approval-required': false,
  };
  // Every time in a state is finite (checked configs, stream times); a view never throws on one.
  const effective = last ? new Date(last.at) : null;
  if (effective && Number.isFinite(effective.getTime()))
    meta['room-policy/effective-at'] = effective.toISOString();
  if (last?.by) meta['room-policy/changed-by'] = last.by;
  return meta;
}

export interface QuestionView {
  question: QuestionState['question'];
  status: QuestionState['status'];
  profile: string;
  profiles: QuestionState['profiles'];
  secretary: QuestionState['secretary'];
  /** The asker's last signed input (stream time): the presence lapse counts from it. */
  askerLastSeen: number;
  participants: Array<{ id: string } & QuestionState['participants'][string]>;
  messages: QuestionState['messages'];
  summaries: QuestionState['summaries'];
  close: QuestionState['close'];
  metadata: Record<string, unknown>;
}

/** Everything in an answer room is public to the room (scope is the visibility boundary). */
export function viewOf(s: QuestionState): QuestionView {
  return {
    question: s.question,
    status: s.status,
    profile: currentProfile(s),
    profiles: s.profiles,
    secretary: s.secretary,
    askerLastSeen: s.askerLastSeen,
    participants: Object.keys(s.participants)
      .sort()
      .map((id) => ({ id, ...(s.participants[id] as QuestionState['participants'][string]) })),
    messages: s.messages,
    summaries: s.summaries,
    close: s.close,
    metadata: projectMetadata(s),
  };
}

/** The relay seat may submit any input type while the room is open; the signer's role decides. */
export function legalFor(s: QuestionState, _seat: string): Legal {
  if (s.status !== 'open') return { actions: [] };
  return {
    actions: [
      'swarm/room-join',
      'swarm/room-presence',
      'swarm/room-message',
      'swarm/room-verdict',
      'swarm/room-delegate',
      'swarm/room-takeover',
      'swarm/room-policy',
      'swarm/question-summary',
      'swarm/question-close',
    ].map((type) => ({ type })),
  };
}

export interface QuestionResult {
  questionId: string;
  status: 'closed' | 'expired';
  resolution: string;
  acceptedSummary: string | null;
  summaries: number;
  answers: number;
}

export function resultOf(s: QuestionState): QuestionResult | null {
  if (s.status === 'open' || !s.close) return null;
  return {
    questionId: s.question.id,
    status: s.status,
    resolution: s.close.resolution,
    acceptedSummary: s.close.acceptedSummary,
    summaries: s.summaries.length,
    answers: s.messages.filter((m) => m.kind === 'answer').length,
  };
}
