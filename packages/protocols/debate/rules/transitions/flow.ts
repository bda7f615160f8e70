import type { Transition } from '@db8/core';
import { debaterSeats } from '../config.ts';
import { enter, pass, withRound } from '../ops.ts';
import { computeResults } from '../results.ts';
import { allSettled, currentRound, extendChain, openRound } from '../rules.ts';
import type { DebateState, Round, Slot } from '../state.ts';

/**
 * The time-driven edges of the FSM (seed §4), each one public tick entry:
 *
 *   research_k → submit_k → verify_k → published_k → (continue vote) → research_{k+1}
 *                                                  ↘ final_submit → final_verify → final_published
 *   → final_vote → results → stats_and_reveal → closed
 *
 * An edge whose next state has nothing to wait for is taken in the same entry (a round where
 * every debater forfeited skips verify; `published_k` at max rounds goes on to final_submit;
 * `final_published` goes on to final_vote), so one tick settles each instant. Those instantaneous
 * states still appear in `history`.
 */

type T = Transition<DebateState>;

/**
 * research_k → submit_k. The submit window runs from this tick's `now` (the planned opening when
 * the watcher is on time), so a late tick never leaves a second deadline due at the same instant.
 */
export function endResearch(state: DebateState, now: number, seq: number): T {
  const round = currentRound(state)!;
  const submitMs = round.submit_deadline - round.opened_at;
  const opened = withRound(state, { ...round, opened_at: now, submit_deadline: now + submitMs });
  const phase = round.kind === 'final' ? 'final_submit' : 'submit';
  return { state: enter(opened, phase, now, seq, now + submitMs) };
}

/** Open round `index` (argument) or the final round, entering research or submit. */
function startRound(state: DebateState, kind: Round['kind'], now: number, seq: number): DebateState {
  const t = state.config.timings;
  const index = state.rounds.length + 1;
  const researchMs = kind === 'final' ? 0 : t.research_ms;
  const submitMs = kind === 'final' ? t.final_submit_ms : t.submit_ms;
  const base = {
    ...state,
    round: index,
    rounds: [...state.rounds, openRound(state, index, kind, now, researchMs, submitMs)],
  };
  const round = base.rounds[index - 1]!;
  if (researchMs > 0) return enter(base, 'research', now, seq, round.opened_at);
  return enter(base, kind === 'final' ? 'final_submit' : 'submit', now, seq, round.submit_deadline);
}

export function startFirstRound(state: DebateState, now: number): DebateState {
  // The genesis entry (seq 0) is the entry that sets the room up.
  return startRound(state, 'argument', now, 0);
}

/**
 * submit_k → verify_k at the deadline (the seed's guard: now ≥ submit_deadline). Debaters with
 * no submission (none, or a draft only) forfeit. With nothing to check, publish at once.
 */
export function endSubmit(state: DebateState, now: number, seq: number): T {
  const round = currentRound(state)!;
  const slots: Record<string, Slot> = {};
  for (const [seat, slot] of Object.entries(round.slots)) {
    slots[seat] = slot.status === 'none' || slot.status === 'draft' ? { ...slot, status: 'forfeit' } : slot;
  }
  const flipped: Round = {
    ...round,
    slots,
    verify_deadline: now + state.config.timings.verify_ms,
  };
  const phase = round.kind === 'final' ? 'final_verify' : 'verify';
  if (allSettled(flipped)) {
    return publish(pass(withRound(state, { ...flipped, settled_at: now }), phase, now, seq), now, seq);
  }
  return { state: enter(withRound(state, flipped), phase, now, seq, flipped.verify_deadline) };
}

/**
 * verify_k → published_k once every submission is verified, rejected or forfeit (the barrier),
 * or at the verify bound, when unchecked submissions are settled by `verification.on_timeout`.
 */
export function endVerify(state: DebateState, now: number, seq: number): T {
  const round = currentRound(state)!;
  const outcome = state.config.verification.on_timeout;
  const slots: Record<string, Slot> = {};
  for (const [seat, slot] of Object.entries(round.slots)) {
    const sub = slot.submission;
    slots[seat] =
      slot.status === 'submitted' && sub
        ? {
            ...slot,
            status: outcome,
            verdict: {
              claims: [],
              outcome,
              by: 'timeout',
              seq: null,
              at: now,
              canonical_sha256: sub.canonical_sha256,
            },
          }
        : slot;
  }
  return publish(withRound(state, { ...round, slots, settled_at: round.settled_at ?? now }), now, seq);
}

/**
 * The atomic reveal: one public entry reveals every debater's latest submission and its verdict,
 * extends the checkpoint chain, and asks for a signed checkpoint (milestone). Drafts and replaced
 * versions stay sealed for good.
 */
function publish(state: DebateState, now: number, seq: number): T {
  const round = currentRound(state)!;
  const revealed: number[] = [];
  const links: { author: string; sha256: string }[] = [];
  for (const seat of debaterSeats(state.config)) {
    const slot = round.slots[seat];
    if (!slot?.submission || slot.status === 'forfeit') continue;
    revealed.push(slot.submission.seq);
    if (slot.verdict?.seq != null) revealed.push(slot.verdict.seq);
    links.push({ author: seat, sha256: slot.submission.canonical_sha256 });
  }
  revealed.sort((a, b) => a - b);
  const head = extendChain(
    state.chain,
    links.map((l) => l.sha256),
  );
  const done: Round = {
    ...round,
    published_at: now,
    published_seq: seq,
    revealed,
    chain: { prev: state.chain, links, head },
  };
  const isFinal = round.kind === 'final';
  let next = pass(
    withRound({ ...state, chain: head }, done),
    isFinal ? 'final_published' : 'published',
    now,
    seq,
  );
  const t = state.config.timings;
  if (isFinal) {
    next = enter(next, 'final_vote', now, seq, now + t.final_vote_ms);
  } else if (round.index < state.config.max_rounds) {
    const closes = now + t.continue_vote_ms;
    next = withRound(next, {
      ...done,
      continue_vote: { opened_at: now, closes_at: closes, all_in_at: null, votes: {}, tally: null },
    });
    // `published` lasts while the continue vote is open; the history already records its start.
    next = { ...next, phase: 'published', phase_at: now, phase_deadline: closes };
  } else {
    next = startRound(next, 'final', now, seq);
  }
  return {
    state: next,
    reveal: revealed,
    milestone: isFinal ? 'final-published' : `round-${round.index}-published`,
  };
}

/**
 * The continue vote closes (window over, or every debater voted): a strict majority of the votes
 * cast decides; a tie — no votes at all included — follows `tie_rules.continue`. Reveals the votes.
 */
export function endContinueVote(state: DebateState, now: number, seq: number): T {
  const round = currentRound(state)!;
  const cv = round.continue_vote!;
  const all = Object.values(cv.votes);
  const yes = all.filter((v) => v.choice === 'continue').length;
  const no = all.length - yes;
  const outcome = yes > no ? 'continue' : no > yes ? 'end' : state.config.tie_rules.continue;
  const tally = {
    continue: yes,
    end: no,
    outcome,
    by: yes === no ? 'tie_rule' : 'majority',
    at: now,
    seq,
  } as const;
  const reveal = all.map((v) => v.seq).sort((a, b) => a - b);
  const tallied = withRound(state, { ...round, continue_vote: { ...cv, tally } });
  const next = startRound(tallied, outcome === 'continue' ? 'argument' : 'final', now, seq);
  return reveal.length > 0 ? { state: next, reveal } : { state: next };
}

/**
 * final_vote → results: ballots, rubric cards and stances are revealed and the results computed
 * (placements, scores, stats). Identities stay sealed until stats_and_reveal.
 */
export function endFinalVote(state: DebateState, now: number, seq: number): T {
  const reveal: number[] = [];
  for (const b of Object.values(state.ballots)) reveal.push(b.seq);
  for (const s of Object.values(state.scores)) reveal.push(s.seq);
  for (const st of Object.values(state.stances)) {
    if (st.before) reveal.push(st.before.seq);
    if (st.after) reveal.push(st.after.seq);
  }
  reveal.sort((a, b) => a - b);
  const results = computeResults(state, now);
  const next = enter({ ...state, results }, 'results', now, seq, now + state.config.timings.results_ms);
  return reveal.length > 0
    ? { state: next, reveal, milestone: 'results' }
    : { state: next, milestone: 'results' };
}

/** results → stats_and_reveal: unmask the anonymous seats and mark the journal published. */
export function unmask(state: DebateState, now: number, seq: number): T {
  const identities: Record<string, string | null> = {};
  const reveal: number[] = [];
  for (const seat of debaterSeats(state.config)) {
    const b = state.identities[seat];
    identities[seat] = b?.identity ?? null;
    if (b) reveal.push(b.seq);
  }
  reveal.sort((a, b) => a - b);
  const results = state.results ? { ...state.results, identities } : null;
  const next = enter(
    { ...state, results, journal_published: true },
    'stats_and_reveal',
    now,
    seq,
    now + state.config.timings.reveal_ms,
  );
  return reveal.length > 0
    ? { state: next, reveal, milestone: 'reveal' }
    : { state: next, milestone: 'reveal' };
}

export function close(state: DebateState, now: number, seq: number): T {
  return { state: enter(state, 'closed', now, seq, null), milestone: 'closed' };
}
