import { type ApplyResult, audience, type Transition } from '@db8/core';
import type { DeliberationAction } from './actions.ts';
import { OPERATOR } from './config.ts';
import { type DeliberationState, isOver } from './state.ts';

type S = DeliberationState;

/**
 * Who may read each entry while the session runs, so the log shows every viewer exactly what
 * `view()` shows (docs/deliberation.md "Who sees what"). A turn is sealed to its author, the
 * audience the topology gave it when it was made, and the operator; a measurement of a code
 * version is sealed like the turn that proposed it. Everything else (gates, forfeits, ticks) is
 * coordination data and public. When the session ends — completed, failed or cancelled — the entry
 * that ends it reveals every sealed entry, and is itself public: the whole session is then public.
 */
function audienceOfTurn(state: S, turnSeq: number): string[] | null {
  const turn = state.turns.find((t) => t.seq === turnSeq);
  return turn ? [turn.seat, ...turn.audience, OPERATOR] : null;
}

/** The entry's audience: the turn it recorded, or the turn whose code version it measured. */
function audienceOfEntry(before: S, after: S, seq: number, action: DeliberationAction): string[] | null {
  if (action.type === 'measure') {
    const version = before.codeVersions.find((v) => v.version === action.version);
    return version ? audienceOfTurn(before, version.turnSeq) : null;
  }
  return audienceOfTurn(after, seq);
}

function sealed(
  before: S,
  t: Transition<S>,
  input: { seq: number; action: DeliberationAction } | null,
): Transition<S> {
  const after = t.state;
  // No input reaches a session that is over, so this entry is the one that ends it: it reveals all,
  // and goes public rather than seal what it reveals at once.
  if (isOver(after)) return before.sealedSeqs.length > 0 ? { ...t, reveal: [...before.sealedSeqs] } : t;
  const seats = input ? audienceOfEntry(before, after, input.seq, input.action) : null;
  if (!input || !seats) return t;
  return {
    ...t,
    state: { ...after, sealedSeqs: [...after.sealedSeqs, input.seq] },
    visibility: audience(seats),
  };
}

export function sealAction(
  before: S,
  input: { seq: number; action: DeliberationAction },
  r: ApplyResult<S>,
): ApplyResult<S> {
  return r.ok ? { ok: true, ...sealed(before, r, input) } : r;
}

export function sealTick(before: S, t: Transition<S> | null): Transition<S> | null {
  // A tick records only timeouts (no content of anyone's): public, but it may end the session.
  return t && sealed(before, t, null);
}
