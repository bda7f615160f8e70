import { type ApplyResult, sha256Hex } from '@db8/core';
import { reject } from '../actions.ts';
import { normalizeKey } from '../config.ts';
import { withRound } from '../ops.ts';
import { checkProvenance } from '../provenance.ts';
import { currentRound, deadlineUnix, KEY_PHASES } from '../rules.ts';
import type { DebateState, Round, Slot } from '../state.ts';
import {
  type CanonicalPayload,
  canonicalPayload,
  type DraftAction,
  type SubmitAction,
  signedBytes,
  submissionBytes,
} from '../submission.ts';

/** Drafts, submissions (with resubmit and idempotency) and key registration, for debaters. */

type Result = ApplyResult<DebateState>;

const isSubmitPhase = (s: DebateState) => s.phase === 'submit' || s.phase === 'final_submit';

function openSlot(state: DebateState, seat: string): { round: Round; slot: Slot } | null {
  const round = currentRound(state);
  const slot = round?.slots[seat];
  return round && slot && isSubmitPhase(state) ? { round, slot } : null;
}

/** A private draft: sealed to its author, never published; a no-show with only a draft forfeits. */
export function applyDraft(
  state: DebateState,
  seat: string,
  action: DraftAction,
  now: number,
  seq: number,
): Result {
  const open = openSlot(state, seat);
  if (!open) return reject('WRONG_PHASE', `drafts are written during submit, not ${state.phase}`);
  const { round, slot } = open;
  const { type: _type, ...draft } = action;
  const next: Slot = {
    ...slot,
    status: slot.status === 'none' ? 'draft' : slot.status,
    draft: { ...draft, seq, at: now },
  };
  return {
    ok: true,
    state: withRound(state, { ...round, slots: { ...round.slots, [seat]: next } }),
    visibility: { kind: 'seat', seat },
  };
}

/** Claims that `concessions` name must exist in an earlier, published round. */
function concessionProblem(state: DebateState, round: Round, payload: CanonicalPayload): string | null {
  for (const c of payload.concessions ?? []) {
    const target = state.rounds[c.round - 1];
    if (!target || target.index >= round.index || target.published_at === null) {
      return `round ${c.round} is not an earlier published round`;
    }
    const sub = target.slots[c.author]?.submission;
    if (!sub?.payload.claims.some((k) => k.id === c.claim_id)) {
      return `${c.author} published no claim ${c.claim_id} in round ${c.round}`;
    }
  }
  return null;
}

/** The anti-replay fields must name this room, this round, this author and this deadline. */
function bindingProblem(state: DebateState, round: Round, seat: string, a: SubmitAction): Result | null {
  if (a.author_id !== seat) {
    return reject('AUTHOR_MISMATCH', `author_id must be your seat ${seat}`, { expected: seat });
  }
  const room = state.config.room_id;
  if (room !== null && a.room_id !== room) {
    return reject('ROOM_MISMATCH', `room_id must be ${room}`, { expected: room });
  }
  const expected = {
    round_id: round.round_id,
    phase: round.label,
    deadline_unix: deadlineUnix(round.submit_deadline),
  };
  if (
    a.round_id !== expected.round_id ||
    a.phase !== expected.phase ||
    a.deadline_unix !== expected.deadline_unix
  ) {
    return reject('ROUND_MISMATCH', 'round_id, phase and deadline_unix must name the open round', expected);
  }
  return null;
}

function capsProblem(state: DebateState, a: SubmitAction): Result | null {
  const caps = state.config.caps;
  if (a.content.length > caps.content_max) {
    return reject('CONTENT_TOO_LONG', `content is limited to ${caps.content_max} characters`, {
      max: caps.content_max,
    });
  }
  if (a.claims.length > caps.claims_max) {
    return reject('TOO_MANY_CLAIMS', `at most ${caps.claims_max} claims`, { max: caps.claims_max });
  }
  if (a.citations.length < caps.citations_min) {
    return reject('TOO_FEW_CITATIONS', `at least ${caps.citations_min} citations`, {
      min: caps.citations_min,
    });
  }
  if (new Set(a.claims.map((c) => c.id)).size !== a.claims.length) {
    return reject('DUPLICATE_CLAIM_ID', 'claim ids must be distinct within a submission');
  }
  return null;
}

/**
 * Submit or resubmit (version++) until the deadline. Sealed to the author; the publish entry
 * reveals the latest version only. The same client_nonce with the same payload is a duplicate
 * (refused as DUPLICATE, which writes nothing: clients treat it as success).
 */
export function applySubmit(
  state: DebateState,
  seat: string,
  a: SubmitAction,
  now: number,
  seq: number,
): Result {
  const open = openSlot(state, seat);
  if (!open) return reject('WRONG_PHASE', `submissions are accepted during submit, not ${state.phase}`);
  const { round, slot } = open;
  const problem = bindingProblem(state, round, seat, a) ?? capsProblem(state, a);
  if (problem) return problem;
  const payload = canonicalPayload(a);
  const bad = concessionProblem(state, round, payload);
  if (bad) return reject('BAD_CONCESSION', bad);

  const bytes = submissionBytes(payload);
  const sha = sha256Hex(bytes);
  const seen = slot.nonces[a.client_nonce];
  if (seen !== undefined) {
    return seen === sha
      ? reject('DUPLICATE', 'this client_nonce was already submitted with this payload', {
          version: slot.version,
          canonical_sha256: sha,
        })
      : reject('NONCE_REUSED', 'this client_nonce was already used for a different payload');
  }
  if (a.signature_kind === undefined && state.config.signatures === 'required') {
    return reject('SIGNATURE_REQUIRED', 'this room requires signed submissions (ssh or ed25519)');
  }
  const signed = signedBytes(a, bytes);
  if (!signed.ok) return reject('BAD_SIGNATURE', signed.reason);
  const prov = checkProvenance(a, signed.bytes, trustFor(state, seat, a.room_id), now);
  if (!prov.ok) return reject('BAD_SIGNATURE', prov.reason);

  const version = slot.version + 1;
  const next: Slot = {
    ...slot,
    status: 'submitted',
    version,
    nonces: { ...slot.nonces, [a.client_nonce]: sha },
    submission: {
      payload,
      canonical_sha256: sha,
      version,
      seq,
      at: now,
      client_nonce: a.client_nonce,
      signature:
        a.signed_b64 === undefined ? prov.signature : { ...prov.signature, signed_b64: a.signed_b64 },
    },
  };
  return {
    ok: true,
    state: withRound(state, { ...round, slots: { ...round.slots, [seat]: next } }),
    visibility: { kind: 'seat', seat },
  };
}

export function trustFor(state: DebateState, seat: string, roomId: string) {
  return { keys: state.keys[seat] ?? [], caKeys: state.ca_keys, principal: `${seat}@${roomId}` };
}

const MAX_KEYS = 8;

/** A debater binds a signing key to their own seat (public: keys are not secret). */
export function applyRegisterKey(state: DebateState, seat: string, publicKey: string): Result {
  if (!state.config.trust.allow_registered_keys) {
    return reject('KEYS_CLOSED', 'this room only trusts the keys in its config');
  }
  if (!KEY_PHASES.has(state.phase)) return reject('KEYS_CLOSED', `no new keys during ${state.phase}`);
  const hex = normalizeKey(publicKey);
  if (hex === null) return reject('BAD_KEY', 'not an Ed25519 public key');
  const keys = state.keys[seat] ?? [];
  if (keys.includes(hex)) return reject('BAD_KEY', 'this key is already bound to your seat');
  if (keys.length >= MAX_KEYS) return reject('BAD_KEY', `at most ${MAX_KEYS} keys per seat`);
  for (const [other, list] of Object.entries(state.keys)) {
    if (other !== seat && list.includes(hex)) return reject('BAD_KEY', 'this key is bound to another seat');
  }
  return { ok: true, state: { ...state, keys: { ...state.keys, [seat]: [...keys, hex] } } };
}
