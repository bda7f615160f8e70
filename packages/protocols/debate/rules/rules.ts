import { concatBytes, fromHex, sha256Hex, utf8Encode } from '@db8/core';
import type { ClaimVerdict } from './actions.ts';
import { type DebateConfig, debaterSeats, debateSeats, judgeSeats, viewerSeats } from './config.ts';
import type { DebateState, Round, Slot } from './state.ts';

/** The debate's rules as pure functions of state and config. */

export const ZERO_CHAIN = '0'.repeat(64);

/**
 * A public reference for the room: sha256("db8/debate/room-ref/v1" ‖ 0x00 ‖ seed), first 16 hex.
 * Derived from the secret room seed (revealing it tells nothing about the seed), so every room's
 * round ids differ and a signed submission cannot be replayed into another room.
 */
export function roomRefOf(seed: string): string {
  return sha256Hex(
    concatBytes(utf8Encode('db8/debate/room-ref/v1'), new Uint8Array([0]), utf8Encode(seed)),
  ).slice(0, 16);
}

export function roundIdOf(roomRef: string, index: number, kind: Round['kind']): string {
  return kind === 'final' ? `${roomRef}-final` : `${roomRef}-r${index}`;
}

/** The seed's `deadline_unix`: the submit deadline in whole seconds (rounded down). */
export const deadlineUnix = (ms: number): number => Math.floor(ms / 1000);

export function currentRound(state: DebateState): Round | undefined {
  return state.round > 0 ? state.rounds[state.round - 1] : undefined;
}

/**
 * A new round, every debater's slot empty. Research ends only by time, so the submit window's
 * opening and deadline are known when the round is created (`researchMs` 0: no research phase).
 */
export function openRound(
  state: DebateState,
  index: number,
  kind: Round['kind'],
  now: number,
  researchMs: number,
  submitMs: number,
): Round {
  const slots: Record<string, Slot> = {};
  for (const seat of debaterSeats(state.config)) {
    slots[seat] = { status: 'none', version: 0, draft: null, submission: null, nonces: {}, verdict: null };
  }
  return {
    index,
    kind,
    round_id: roundIdOf(state.room_ref, index, kind),
    label: kind === 'final' ? 'FINAL' : index === 1 ? 'OPENING' : 'ARGUMENT',
    research_at: researchMs > 0 ? now : null,
    opened_at: now + researchMs,
    submit_deadline: now + researchMs + submitMs,
    verify_deadline: null,
    settled_at: null,
    published_at: null,
    published_seq: null,
    revealed: [],
    slots,
    continue_vote: null,
    chain: null,
  };
}

/**
 * The verification rule (the seed is silent; docs/debate.md): a submission is rejected when any
 * claim is judged `false`, or when more than half of its claims `need_work`; otherwise verified.
 * `unclear` never rejects: the checker could not tell, and the author gets the benefit of doubt.
 */
export function verificationOutcome(verdicts: readonly ClaimVerdict[]): 'verified' | 'rejected' {
  const falses = verdicts.filter((v) => v.verdict === 'false').length;
  const needsWork = verdicts.filter((v) => v.verdict === 'needs_work').length;
  return falses > 0 || needsWork * 2 > verdicts.length ? 'rejected' : 'verified';
}

/** A slot still waiting for a verdict (the barrier holds publication until none is left). */
export const isPending = (slot: Slot): boolean => slot.status === 'submitted';

export function allSettled(round: Round): boolean {
  return Object.values(round.slots).every((s) => !isPending(s));
}

/**
 * chain_i = sha256(chain_{i-1} ‖ h_i) with ‖ over the raw 32-byte values (seed §5), folded over
 * the round's published submissions in seat order. Forfeits have no payload and add no link.
 */
export function extendChain(prev: string, hashes: readonly string[]): string {
  let head = prev;
  for (const h of hashes) head = sha256Hex(concatBytes(fromHex(head), fromHex(h)));
  return head;
}

/** The next instant at which `tick` acts: the phase deadline, or sooner when everything is in. */
export function nextDeadline(state: DebateState): number | null {
  if (state.phase === 'closed' || state.phase_deadline === null) return null;
  // Paused: nothing is due until an admin resumes (the countdown is frozen).
  if (state.paused) return null;
  const round = currentRound(state);
  let due = state.phase_deadline;
  if ((state.phase === 'verify' || state.phase === 'final_verify') && round?.settled_at != null) {
    due = Math.min(due, round.settled_at);
  }
  if (state.phase === 'published' && round?.continue_vote?.all_in_at != null) {
    due = Math.min(due, round.continue_vote.all_in_at);
  }
  if (state.phase === 'final_vote') {
    const allIn = finalVoteAllInAt(state);
    if (allIn !== null) due = Math.min(due, allIn);
  }
  return due;
}

/**
 * When the last of the final vote's inputs arrived — every final voter's ballot, every judge's
 * rubric card and every viewer's "after" stance — or null while one is missing (or the room predates the early close: its config has
 * no `final_vote_ends_when_all_in`, so it folds as it was played).
 */
export function finalVoteAllInAt(state: DebateState): number | null {
  const { config } = state;
  if (config.timings.final_vote_ends_when_all_in !== true) return null;
  const voters = debateSeats(config).filter((s) => isFinalVoter(config, s.role));
  const times: number[] = [];
  for (const { id } of voters) {
    const ballot = state.ballots[id];
    if (!ballot) return null;
    times.push(ballot.at);
  }
  for (const judge of judgeSeats(config)) {
    const card = state.scores[judge];
    if (!card) return null;
    times.push(card.at);
  }
  for (const viewer of viewerSeats(config)) {
    const after = state.stances[viewer]?.after;
    if (!after) return null;
    times.push(after.at);
  }
  return times.length > 0 ? Math.max(state.phase_at, ...times) : null;
}

/** Is `seat` allowed to cast a final ballot in this room? */
export function isFinalVoter(config: DebateConfig, role: string | null): boolean {
  return role !== null && (config.final_voters as readonly string[]).includes(role);
}

/** How many rounds have been published so far (argument and final). */
export function publishedCount(state: DebateState): number {
  return state.rounds.filter((r) => r.published_at !== null).length;
}

/** Phases in which a signing key may still matter (a submission may still arrive). */
export const KEY_PHASES: ReadonlySet<string> = new Set([
  'research',
  'submit',
  'verify',
  'published',
  'final_submit',
]);

/**
 * Phases in which judges may score, the moderator may bind identities and viewers may give their
 * before-stance (when also after the first publication): everything until the final vote ends.
 */
export const ACTIVE_PHASES: ReadonlySet<string> = new Set([
  'research',
  'submit',
  'verify',
  'published',
  'final_submit',
  'final_verify',
  'final_vote',
]);
