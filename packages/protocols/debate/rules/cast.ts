import type { Cast, CastTurn } from '@db8/core';
import type { LegalAction } from './legal.ts';
import type { DebateView } from './view.ts';

/**
 * The privacy kit's debate (`Cast`, packages/core/src/protocol/cast.ts): two anonymous debaters,
 * a fact-checker, a judge and a viewer, one argument round and the final round. Every submission's
 * text and claims and every verdict's reasons are markers: sealed to their author (and the
 * fact-checker's view during verify) until the round is published. Ballots, cards and stances stay
 * sealed until the results; the identities behind the seats until stats_and_reveal.
 */

const DEBATERS = ['anon_1', 'anon_2'];
const SEATS = [...DEBATERS, 'fact_checker', 'judge_1', 'viewer_1'];

/** The one move each seat makes now, or null: one decision per call, each made once. */
function decide({ seat, view, legal, marks }: CastTurn): unknown {
  const v = view as DebateView;
  const round = v.rounds[v.round - 1];
  for (const l of legal.actions as LegalAction[]) {
    const mark = (what: string) => marks.text(`${seat} ${l.type} ${v.round} ${what}`);
    if (l.type === 'submit' && l.version === 0) {
      return {
        type: 'submit',
        room_id: l.room_id,
        round_id: l.round_id,
        author_id: seat,
        phase: l.phase,
        deadline_unix: l.deadline_unix,
        content: mark('content'),
        claims: [{ id: 'c1', text: mark('claim'), support: [{ kind: 'logic', ref: mark('support') }] }],
        citations: [{ url: 'https://example.org/a' }, { url: 'https://example.org/b' }],
        client_nonce: `kit:${l.round_id}:${seat}`,
      };
    }
    if (l.type === 'verdict' && !round?.submissions.find((s) => s.author === l.author)?.verdict) {
      return {
        type: 'verdict',
        author: l.author,
        canonical_sha256: l.canonical_sha256,
        claims: l.claim_ids.map((id) => ({
          claim_id: id,
          verdict: 'true',
          reason: marks.text(`${seat} verdict ${v.round} ${l.author} ${id}`),
        })),
      };
    }
    if (l.type === 'vote_continue' && round?.continue_vote && !round.continue_vote.voted.includes(seat))
      return { type: 'vote_continue', choice: 'end' };
    if (l.type === 'final_vote' && !v.final_vote.voted.includes(seat))
      return { type: 'final_vote', approval: [l.candidates[0]!], ranking: l.candidates };
    if (l.type === 'score' && v.phase === 'final_vote' && !v.judging.scored.includes(seat))
      return {
        type: 'score',
        cards: l.debaters.map((d) => ({ debater: d, e: 70, r: 60, c: 50, v: 80, y: 40 })),
      };
    if (l.type === 'stance' && !v.stances[l.when].includes(seat))
      return { type: 'stance', when: l.when, stances: l.debaters.map((d) => ({ debater: d, value: 50 })) };
  }
  return null;
}

const debate = (v: unknown) => v as DebateView;

export const debateCast: Cast = {
  protocol: 'debate',
  room: () => ({
    title: 'privacy kit: a debate',
    config: {
      topic: 'Should cities ban cars from their centres?',
      tags: ['kit'],
      debaters: 2,
      judges: 1,
      viewers: 1,
      max_rounds: 1,
      timings: {
        research_ms: 0,
        submit_ms: 60_000,
        verify_ms: 60_000,
        continue_vote_ms: 30_000,
        final_submit_ms: 60_000,
        final_vote_ms: 60_000,
        results_ms: 10_000,
        reveal_ms: 10_000,
      },
    },
    steps: [
      { kind: 'act', seat: 'anon_1', action: decide },
      { kind: 'checkpoint', name: 'one submission in' },
      {
        kind: 'play',
        seats: SEATS,
        decide,
        advance: true,
        until: (v) =>
          debate(v).phase === 'verify' && debate(v).rounds[0]!.submissions.every((s) => s.verdict),
      },
      { kind: 'checkpoint', name: 'verified, before the publish' },
      {
        kind: 'play',
        seats: SEATS,
        decide,
        advance: true,
        until: (v) => debate(v).phase === 'final_vote' && debate(v).final_vote.voted.length === 2,
      },
      { kind: 'checkpoint', name: 'final vote cast' },
      { kind: 'play', seats: SEATS, decide, advance: true, until: (v) => debate(v).phase === 'results' },
      { kind: 'checkpoint', name: 'results, identities sealed' },
      { kind: 'play', seats: SEATS, decide, advance: true, until: (v) => debate(v).phase === 'closed' },
    ],
  }),
};
